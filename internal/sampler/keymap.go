package sampler

import (
	"slices"
	"sort"
	"strings"
)

// A keyMap places keys on a line, so that a tablet's read positions can
// be spread between its boundary keys without reading it. It is the
// order of keys, with room given to the keys that may exist: after a key
// prefix, each next byte gets a share of the prefix's room by what the
// keys known so far (the tablet map's boundaries, the pilot's rows) show.
//
//   - Where the known keys branch freely (the digits of ids, hashes, names
//     of users) every byte seen at that position anywhere gets an equal
//     share, and so do the bytes of its class (digits, lower-case or
//     upper-case letters) between the seen ones: between "0012"
//     and "0016" the line runs through 0013, 0014 and 0015, not through
//     "0012\x80".
//   - Where they do not (names: every known key starting "c" goes on
//     "cart#"), the bytes the known keys take after this prefix get the
//     room. A position is judged by all prefixes of that length with two
//     known keys or more: free when their keys take on average at least
//     freeBranching distinct next bytes per key. A digit that one known
//     key alone takes after a prefix says nothing (numbers vary; names
//     repeat): the position stays free there.
//   - Every other byte keeps unseenWeight of a share, so that every key
//     has room on the line (a span can fall anywhere) and the map keeps
//     key order for every key.
type keyMap struct {
	// alphabets[i] holds the distinct bytes seen at position i, sorted;
	// ends[i] says whether a known key ends after i bytes.
	alphabets [][]byte
	ends      map[int]bool
	// next holds, for every prefix of a known key, the distinct bytes that
	// follow it, sorted; witnesses how many known keys pass through it.
	next      map[string][]byte
	witnesses map[string]int
	known     map[string]bool // the keys learned
	// free[i] says whether position i branches freely (computed lazily).
	free  []bool
	dirty bool
}

// keyMapDepth is how many key positions the map reads: 2⁵² (a float64's
// precision) runs out after about 10 decimal digits or 8 letters anyway.
const keyMapDepth = 24

// freeBranching is the distinct next bytes per known key from which a
// position counts as free (see [keyMap]); unseenWeight the share a byte
// the known keys do not take keeps.
const (
	freeBranching = 0.5
	unseenWeight  = 1e-5
)

// learnBytes adds the bytes of keys to the alphabets only: keys read
// together (a pilot's run of consecutive rows) show which bytes occur,
// not how keys branch.
func (m *keyMap) learnBytes(keys ...string) {
	if m.ends == nil {
		m.ends = map[int]bool{}
	}
	for _, key := range keys {
		m.ends[len(key)] = true
		for i := 0; i < len(key) && i < keyMapDepth; i++ {
			for len(m.alphabets) <= i {
				m.alphabets = append(m.alphabets, nil)
			}
			m.alphabets[i] = insertByte(m.alphabets[i], key[i])
		}
	}
}

// learn adds keys spread over the table (tablet boundaries) to the known
// keys. A key already known is not learned again: a boundary ends one
// tablet and starts the next, and counted twice every prefix of it would
// have two witnesses that agree on the next byte, which is how names
// look, not numbers (a tablet from acct#39… to acct#48… would then run
// its line almost wholly through acct#48…).
func (m *keyMap) learn(keys ...string) {
	if m.next == nil {
		m.next, m.witnesses, m.known = map[string][]byte{}, map[string]int{}, map[string]bool{}
	}
	for _, key := range keys {
		if m.known[key] {
			continue
		}
		m.known[key] = true
		m.learnBytes(key)
		for i := 0; i < len(key) && i < keyMapDepth; i++ {
			prefix := key[:i]
			m.witnesses[prefix]++
			m.next[prefix] = insertByte(m.next[prefix], key[i])
		}
	}
	m.dirty = true
}

func insertByte(set []byte, c byte) []byte {
	if j, found := slices.BinarySearch(set, c); !found {
		return slices.Insert(set, j, c)
	}
	return set
}

// judge decides which positions branch freely; call it after the last
// learn and before the map is used (by several readers at once).
func (m *keyMap) judge() {
	if !m.dirty {
		return
	}
	m.dirty = false
	children := make([]int, keyMapDepth)
	keys := make([]int, keyMapDepth)
	for prefix, n := range m.witnesses {
		if n >= 2 {
			children[len(prefix)] += len(m.next[prefix])
			keys[len(prefix)] += n
		}
	}
	m.free = make([]bool, keyMapDepth)
	for i := range m.free {
		m.free[i] = keys[i] == 0 || float64(children[i]) >= freeBranching*float64(keys[i])
	}
}

// room is the share of a prefix's room each next byte gets: heavy bytes
// (the ones keys may well take) weigh 1, every other byte unseenWeight,
// and the end of the key 1 where known keys end at that length,
// unseenWeight elsewhere.
type room struct {
	heavy []byte
	end   float64
}

// roomAfter returns the room after prefix.
func (m *keyMap) roomAfter(prefix string) room {
	i := len(prefix)
	var alphabet []byte
	if i < len(m.alphabets) {
		alphabet = m.alphabets[i]
	}
	end := unseenWeight
	if m.ends[i] {
		end = 1
	}
	if i < len(m.free) && !m.free[i] && len(m.next[prefix]) > 0 && (m.witnesses[prefix] > 1 || !isDigit(m.next[prefix][0])) {
		return room{heavy: m.next[prefix], end: end}
	}
	heavy := slices.Clone(alphabet)
	for _, c := range m.next[prefix] {
		heavy = insertByte(heavy, c)
	}
	return room{heavy: spanClasses(heavy), end: end}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// spanClasses fills in the bytes between seen bytes of one class (digits,
// lower-case letters, upper-case letters), which a free position may well
// take even though no known key did: the few known keys show that a
// position holds letters (or hex digits), not which.
func spanClasses(seen []byte) []byte {
	out := slices.Clone(seen)
	for _, class := range [][2]byte{{'0', '9'}, {'a', 'z'}, {'A', 'Z'}} {
		lo, hi := -1, -1
		for _, c := range seen {
			if c >= class[0] && c <= class[1] {
				if lo < 0 {
					lo = int(c)
				}
				hi = int(c)
			}
		}
		if lo < 0 {
			continue
		}
		// The bytes between the least and the greatest seen (hex digits
		// stay a to f), the whole class once they span half of it.
		if 2*(hi-lo) >= int(class[1]-class[0]) {
			lo, hi = int(class[0]), int(class[1])
		}
		for c := lo; c <= hi; c++ {
			out = insertByte(out, byte(c))
		}
	}
	return out
}

// before returns the weight of everything below byte c: the end of the
// key and the bytes under c.
func (r room) before(c int) float64 {
	n := sort.Search(len(r.heavy), func(j int) bool { return int(r.heavy[j]) >= c })
	return r.end + float64(n) + unseenWeight*float64(c-n)
}

// weight returns byte c's weight.
func (r room) weight(c byte) float64 {
	if _, found := slices.BinarySearch(r.heavy, c); found {
		return 1
	}
	return unseenWeight
}

// total returns the weight of the whole room.
func (r room) total() float64 { return r.before(256) }

// position returns key's place on the line in [0, 1), reading key from
// byte from on (keys sharing their first from bytes).
func (m *keyMap) position(key string, from int) float64 {
	v, width := 0.0, 1.0
	for i := from; i < len(key) && i-from < keyMapDepth; i++ {
		r := m.roomAfter(key[:i])
		total := r.total()
		v += width * r.before(int(key[i])) / total
		width *= r.weight(key[i]) / total
	}
	return v
}

// key returns a short key at or below place v of the line (keys starting
// with prefix, read from byte len(prefix) on): to the map's precision,
// the largest key whose position is not above v.
func (m *keyMap) key(prefix string, v float64) string {
	var b strings.Builder
	b.WriteString(prefix)
	width := 1.0
	for depth := 0; depth < keyMapDepth; depth++ {
		r := m.roomAfter(b.String())
		total := r.total()
		target := v / width * total // in the room's weights
		if target < r.end {
			break // the key ends here
		}
		c := sort.Search(256, func(c int) bool { return r.before(c+1) > target }) // the byte whose share holds target
		c = min(c, 255)
		v -= width * r.before(c) / total
		width *= r.weight(byte(c)) / total
		b.WriteByte(byte(c))
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
