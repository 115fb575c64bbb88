package diagnose

import (
	"slices"
	"strings"

	"github.com/btviz/btviz/keyspace"
)

// maxSegmentPositions bounds how many segment positions key analysis
// looks at: the prefix tree's default depth ([keyspace.Options.MaxDepth]).
const maxSegmentPositions = 8

// classMajority is the share of a position's values that must share a
// class for the position to take it: a few odd keys (a config row, a
// legacy ID) do not change what a key design is.
const classMajority = 0.9

// keyProfile is what the snapshot's row sample shows about key structure,
// segment position by segment position.
type keyProfile struct {
	splitter keyspace.Splitter
	// rows is the sample in key order.
	rows []keyspace.SampledRow
	// positions[p] describes segment p of the keys that have one.
	positions []segmentPosition
	// leading is the first position where keys fan out: the number of
	// distinct key prefixes up to and including it exceeds
	// [maxWriteFronts]. Segments before it are dataset tags or a few
	// tenants; -1 when no position fans out.
	leading int
}

// segmentPosition describes one segment position across the sample.
type segmentPosition struct {
	index int
	// values are the fields (without delimiter) at this position, and
	// rowOf[i] the index in [keyProfile.rows] of the row values[i] is from.
	values []string
	rowOf  []int
	// prefixes maps each distinct key prefix ending with this segment to
	// how many sampled rows have it.
	prefixes map[string]int
	distinct int
	classes  [numClasses]int
	// class is the class of at least [classMajority] of the values, or
	// classText when none is.
	class segmentClass
	// minWidth and maxWidth bound the widths of the integer values.
	minWidth, maxWidth int
}

// classShare returns the share of values of class c.
func (p *segmentPosition) classShare(c segmentClass) float64 {
	if len(p.values) == 0 {
		return 0
	}
	return float64(p.classes[c]) / float64(len(p.values))
}

// newKeyProfile analyses the sample with the snapshot's delimiters.
func newKeyProfile(snap *keyspace.Snapshot) *keyProfile {
	rows := slices.Clone(snap.Sample)
	slices.SortFunc(rows, func(a, b keyspace.SampledRow) int { return strings.Compare(string(a.Key), string(b.Key)) })
	profile := &keyProfile{splitter: keyspace.NewSplitter(snap.Delimiters), rows: rows, leading: -1}
	distinct := make([]map[string]bool, 0, maxSegmentPositions)
	for i, row := range rows {
		key := string(row.Key)
		for p, from := 0, 0; from < len(key) && p < maxSegmentPositions; p++ {
			n := profile.splitter.Next(key, from)
			field := key[from : from+n]
			if strings.IndexByte(profile.splitter.Delimiters(), field[n-1]) >= 0 {
				field = field[:n-1]
			}
			from += n
			if p == len(profile.positions) {
				profile.positions = append(profile.positions, segmentPosition{index: p, prefixes: make(map[string]int)})
				distinct = append(distinct, make(map[string]bool))
			}
			pos := &profile.positions[p]
			pos.values = append(pos.values, field)
			pos.rowOf = append(pos.rowOf, i)
			pos.prefixes[key[:from]]++
			distinct[p][field] = true
		}
	}
	for p := range profile.positions {
		pos := &profile.positions[p]
		pos.distinct = len(distinct[p])
		pos.summarize()
		if profile.leading < 0 && len(pos.prefixes) > maxWriteFronts {
			profile.leading = p
		}
	}
	return profile
}

// summarize classifies the position's values.
func (p *segmentPosition) summarize() {
	for _, v := range p.values {
		c := classifySegment(v)
		p.classes[c]++
		if c == classInteger {
			if p.minWidth == 0 || len(v) < p.minWidth {
				p.minWidth = len(v)
			}
			p.maxWidth = max(p.maxWidth, len(v))
		}
	}
	p.class = classText
	for c := range numClasses {
		if p.classShare(c) >= classMajority {
			p.class = c
		}
	}
}

// firstVaried returns the first position, from [keyProfile.leading] on,
// whose values are mostly distinct (at least [idMinDistinct], or half the
// sampled values): the segment that orders entities. A salt or a category
// in front of it (3#<hash>, order#<hash>) does not change what it is.
func (k *keyProfile) firstVaried() *segmentPosition {
	for p := max(k.leading, 0); p < len(k.positions); p++ {
		pos := &k.positions[p]
		if pos.distinct >= min(idMinDistinct, len(pos.values)/2) && pos.distinct > 1 {
			return pos
		}
	}
	return nil
}

// position returns segment position p, or nil when no sampled key has it.
func (k *keyProfile) position(p int) *segmentPosition {
	if p < 0 || p >= len(k.positions) {
		return nil
	}
	return &k.positions[p]
}

// prefixBefore returns the key prefix made of the segments before
// position p of key (empty for p = 0).
func (k *keyProfile) prefixBefore(key string, p int) string {
	from := 0
	for ; p > 0 && from < len(key); p-- {
		from += k.splitter.Next(key, from)
	}
	return key[:from]
}

// commonPrefix returns the longest prefix of whole segments every sampled
// key shares ("metrics|" for metrics|<ts>|host keys), or "".
func (k *keyProfile) commonPrefix() string {
	if len(k.rows) == 0 {
		return ""
	}
	common := keyspace.CommonPrefix(string(k.rows[0].Key), string(k.rows[len(k.rows)-1].Key))
	cut := 0
	for from := 0; from < len(common); {
		n := k.splitter.Next(common, from)
		if strings.IndexByte(k.splitter.Delimiters(), common[from+n-1]) < 0 {
			break
		}
		from += n
		cut = from
	}
	return common[:cut]
}
