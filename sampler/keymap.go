package sampler

import (
	"slices"
	"strings"
)

// A keyMap places keys on a line, so that a tablet's read positions can
// be spread between its boundary keys without reading it: each key
// position is a digit in the alphabet of the bytes seen at that position
// in the keys known so far (the tablet map's boundaries, the rows the
// first reads returned), and a key is the number those digits write. On
// keys of digits "0012" and "0016" the line runs through 0013, 0014 and
// 0015; in plain bytes it would run mostly through keys no table holds
// ("0012\x80"). A byte not seen at a position sorts between its seen
// neighbours, so the map keeps key order for every key. An empty
// position (the key has ended) is digit 0, below every byte, as in key
// order.
type keyMap struct {
	// alphabets[i] holds the distinct bytes seen at position i, sorted.
	alphabets [][]byte
}

// keyMapDepth is how many key positions the map reads: 2⁵² (a float64's
// precision) runs out after about 10 decimal digits or 8 letters anyway.
const keyMapDepth = 24

// learn adds the bytes of keys to the alphabets.
func (m *keyMap) learn(keys ...string) {
	for _, key := range keys {
		for i := 0; i < len(key) && i < keyMapDepth; i++ {
			for len(m.alphabets) <= i {
				m.alphabets = append(m.alphabets, nil)
			}
			a := m.alphabets[i]
			if j, found := slices.BinarySearch(a, key[i]); !found {
				m.alphabets[i] = slices.Insert(a, j, key[i])
			}
		}
	}
}

// base is the number of digits at position i: the alphabet, plus the
// end of the key; 257 (every byte) where no key reached.
func (m *keyMap) base(i int) float64 {
	if i >= len(m.alphabets) || len(m.alphabets[i]) == 0 {
		return 257
	}
	return float64(len(m.alphabets[i]) + 1)
}

// digit returns the value of byte c at position i: its rank in the
// alphabet, plus one (0 is the end of the key); a byte not in it lies
// halfway between its neighbours.
func (m *keyMap) digit(i int, c byte) float64 {
	if i >= len(m.alphabets) || len(m.alphabets[i]) == 0 {
		return float64(c) + 1
	}
	j, found := slices.BinarySearch(m.alphabets[i], c)
	if found {
		return float64(j) + 1
	}
	return float64(j) + 0.5
}

// position returns key's place on the line in [0, 1), reading key from
// byte from on (keys sharing their first from bytes).
func (m *keyMap) position(key string, from int) float64 {
	v, width := 0.0, 1.0
	for i := from; i < len(key) && i-from < keyMapDepth; i++ {
		width /= m.base(i)
		v += m.digit(i, key[i]) * width
	}
	return v
}

// key returns the shortest key at or below place v of the line (keys
// starting with prefix, read from byte len(prefix) on): the key whose
// position is the largest not above v, to the map's precision.
func (m *keyMap) key(prefix string, v float64) string {
	var b strings.Builder
	b.WriteString(prefix)
	from := len(prefix)
	width := 1.0
	for i := from; i-from < keyMapDepth; i++ {
		base := m.base(i)
		width /= base
		d := int(v / width)
		if d <= 0 {
			break // the key ends here
		}
		d = min(d, int(base)-1)
		v -= float64(d) * width
		if i < len(m.alphabets) && len(m.alphabets[i]) > 0 {
			b.WriteByte(m.alphabets[i][d-1])
		} else {
			b.WriteByte(byte(d - 1))
		}
		if v < width*1e-9 {
			break
		}
	}
	return b.String()
}

// segment is the part of the line a tablet [start, end) covers: keys
// share the tablet's common prefix, and positions are read after it.
type segment struct {
	m          *keyMap
	prefix     string
	start, end float64
}

// segmentOf returns the line segment of tablet [start, end) (an empty end
// is the end of the table).
func (m *keyMap) segmentOf(start, end string) segment {
	prefix := ""
	if end != "" {
		n := 0
		for n < len(start) && n < len(end) && start[n] == end[n] {
			n++
		}
		prefix = start[:n]
	}
	s := segment{m: m, prefix: prefix, start: m.position(start, len(prefix)), end: 1}
	if end != "" {
		s.end = m.position(end, len(prefix))
	}
	return s
}

// at returns the key at share u (0 ≤ u ≤ 1) of the segment.
func (s segment) at(u float64) string {
	return s.m.key(s.prefix, s.start+u*(s.end-s.start))
}

// share returns where key lies in the segment, from 0 to 1.
func (s segment) share(key string) float64 {
	if s.end <= s.start || !strings.HasPrefix(key, s.prefix) {
		return 0
	}
	u := (s.m.position(key, len(s.prefix)) - s.start) / (s.end - s.start)
	return min(max(u, 0), 1)
}
