package diagnose

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// maxSegmentPositions bounds how many segment positions key analysis
// looks at: the prefix tree's default depth ([keyspace.Options.MaxDepth]).
const maxSegmentPositions = 8

// classMajority is the share of a position's values that must share a
// class for the position to take it: a few odd keys (a config row, a
// legacy ID) do not change what a key design is.
const classMajority = 0.9

// keyProfile is what the snapshot's row sample shows about key structure,
// field by field: a field is a delimited segment, or a part of one that
// [splitParts] cut at character-class boundaries (user123 is user and
// 123).
type keyProfile struct {
	splitter keyspace.Splitter
	// rows is the sample in key order: read, never written (it may be
	// the snapshot's own).
	rows []keyspace.SampledRow
	// starts[i][p] is the byte offset in rows[i]'s key where field p
	// begins, for the fields the key has.
	starts [][]int
	// positions[p] describes field p of the keys that have one.
	positions []segmentPosition
	// leading is the first position where keys fan out: the number of
	// distinct key prefixes up to and including it exceeds
	// [maxWriteFronts]. Fields before it are dataset tags or a few
	// tenants; -1 when no position fans out.
	leading int
	// oneSegment is true when no sampled key has a delimiter.
	oneSegment bool
	// byTime and timeRank, made by [keyProfile.timeOrder] when first
	// asked for, order the rows by first write.
	byTime   []int
	timeRank []float64
}

// sortByTime returns the indexes of rows by first write, oldest first and,
// of rows written at once, the later in key order first. When the time
// span and the row count fit, each row is one packed integer sorted
// without a comparison function, several times faster.
func sortByTime(rows []keyspace.SampledRow) []int {
	byTime := make([]int, len(rows))
	if len(rows) == 0 {
		return byTime
	}
	first, last := rows[0].FirstWrite, rows[0].FirstWrite
	for _, row := range rows {
		first, last = min(first, row.FirstWrite), max(last, row.FirstWrite)
	}
	rowBits := bits.Len(uint(len(rows)))
	if span := uint64(last - first); bits.Len64(span)+rowBits <= 64 {
		packed := make([]uint64, len(rows))
		for i, row := range rows {
			packed[i] = uint64(row.FirstWrite-first)<<rowBits | uint64(len(rows)-1-i)
		}
		slices.Sort(packed)
		mask := uint64(1)<<rowBits - 1
		for p, v := range packed {
			byTime[p] = len(rows) - 1 - int(v&mask)
		}
		return byTime
	}
	type timed struct{ at, row int64 }
	order := make([]timed, len(rows))
	for i, row := range rows {
		order[i] = timed{row.FirstWrite, int64(i)}
	}
	slices.SortFunc(order, func(a, b timed) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(b.row, a.row)) })
	for p, t := range order {
		byTime[p] = int(t.row)
	}
	return byTime
}

// timeOrder returns the sampled rows (indexes into rows) by first write,
// oldest first and, of rows written at once, the later in key order
// first; and each row's rank in that order, ties sharing their average.
// Checks that correlate write time with the whole sample share it.
func (k *keyProfile) timeOrder() (byTime []int, timeRank []float64) {
	if k.byTime == nil {
		k.byTime = sortByTime(k.rows)
		inTime := ranksInOrder(k.byTime, func(i int) int64 { return k.rows[i].FirstWrite })
		k.timeRank = make([]float64, len(k.rows))
		for p, i := range k.byTime {
			k.timeRank[i] = inTime[p]
		}
	}
	return k.byTime, k.timeRank
}

// segmentPosition describes one field position across the sample.
type segmentPosition struct {
	index int
	// segment is the delimited segment the field is in, from 0; part is
	// its place among the parts of a segment cut at character classes,
	// -1 for a whole segment.
	segment, part int
	// pattern shows a cut segment's parts, constant ones literally and
	// the others as <number>, <text> or <bytes>: user<number>.
	pattern string
	// values are the fields (without delimiter) at this position, and
	// rowOf[i] the index in [keyProfile.rows] of the row values[i] is from.
	values []string
	rowOf  []int
	// fronts holds distinct key prefixes ending with this field, up to
	// one more than [maxWriteFronts]: enough to tell whether keys fan out
	// here.
	fronts   map[string]struct{}
	distinct int
	classes  [numClasses]int
	// valueClasses[i] is the class of values[i].
	valueClasses []segmentClass
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

// segmentField is one delimited segment of one sampled key.
type segmentField struct {
	row        int
	start, end int // the field, key[start:end], without its delimiter
	next       int // where the next segment starts
}

// newKeyProfile analyses the sample with the snapshot's delimiters,
// cutting segments into parts where [splitParts] finds them consistent.
func newKeyProfile(snap *keyspace.Snapshot) *keyProfile {
	byKey := func(a, b keyspace.SampledRow) int { return strings.Compare(string(a.Key), string(b.Key)) }
	rows := snap.Sample
	if !slices.IsSortedFunc(rows, byKey) {
		// A snapshot's builder sorts its sample; one made otherwise is
		// sorted in a copy, since a profile reads its rows and never
		// writes them.
		rows = slices.Clone(rows)
		slices.SortFunc(rows, byKey)
	}
	return newKeyProfileOf(rows, snap.Delimiters)
}

// newKeyProfileOf analyses rows, in key order, split at delimiters.
func newKeyProfileOf(rows []keyspace.SampledRow, delimiters string) *keyProfile {
	profile := &keyProfile{splitter: keyspace.NewSplitter(delimiters), rows: rows, leading: -1, oneSegment: true,
		starts: make([][]int, len(rows))}
	// One array holds every row's field starts, room for
	// maxSegmentPositions a row; a row with more fields grows its own.
	starts := make([]int, len(rows)*maxSegmentPositions)
	for i := range profile.starts {
		profile.starts[i] = starts[i*maxSegmentPositions : i*maxSegmentPositions : (i+1)*maxSegmentPositions]
	}
	var segments [][]segmentField
	for i, row := range rows {
		key := string(row.Key)
		for p, from := 0, 0; from < len(key) && p < maxSegmentPositions; p++ {
			n := profile.splitter.Next(key, from)
			end := from + n
			if strings.IndexByte(profile.splitter.Delimiters(), key[end-1]) >= 0 {
				end--
				profile.oneSegment = false
			}
			if p == len(segments) {
				segments = append(segments, make([]segmentField, 0, len(rows)))
			}
			segments[p] = append(segments[p], segmentField{row: i, start: from, end: end, next: from + n})
			from += n
		}
	}
	for segment, fields := range segments {
		profile.addSegment(segment, fields)
	}
	for p := range profile.positions {
		pos := &profile.positions[p]
		if profile.leading < 0 && len(pos.fronts) > maxWriteFronts {
			profile.leading = p
		}
	}
	return profile
}

// addSegment adds the positions of one delimited segment: one position,
// or one per part when the segment's values are cut consistently.
func (k *keyProfile) addSegment(segment int, fields []segmentField) {
	values := make([]string, len(fields))
	for i, f := range fields {
		values[i] = string(k.rows[f.row].Key[f.start:f.end])
	}
	shape, parts := splitParts(values)
	first := len(k.positions)
	for part := range max(parts, 1) {
		pos := segmentPosition{index: first + part, segment: segment, part: -1, fronts: make(map[string]struct{}, maxWriteFronts+1),
			values: make([]string, 0, len(fields)), rowOf: make([]int, 0, len(fields))}
		if parts > 1 {
			pos.part = part
		}
		k.positions = append(k.positions, pos)
	}
	distinct := make([]map[string]bool, max(parts, 1))
	for part := range distinct {
		distinct[part] = make(map[string]bool)
	}
	var runs [maxParts]int
	lastFields := make([]string, max(parts, 1))
	for i, f := range fields {
		key := string(k.rows[f.row].Key)
		value := values[i]
		cuts := 1
		runs[0] = len(value)
		if parts > 1 {
			if n, s := partRuns(value, runs[:]); s == shape {
				cuts = n
			}
		}
		from := f.start
		for part := range max(parts, 1) {
			pos := &k.positions[first+part]
			k.starts[f.row] = append(k.starts[f.row], min(from, f.next))
			if part >= cuts {
				continue // a value that does not follow the shape sits whole in the first part
			}
			end := from + runs[part]
			if part == cuts-1 {
				end = f.end
			}
			field := key[from:end]
			pos.values = append(pos.values, field)
			pos.rowOf = append(pos.rowOf, f.row)
			if len(pos.fronts) <= maxWriteFronts {
				if part == cuts-1 {
					pos.fronts[key[:f.next]] = struct{}{}
				} else {
					pos.fronts[key[:end]] = struct{}{}
				}
			}
			if field != lastFields[part] || len(distinct[part]) == 0 {
				distinct[part][field] = true
				lastFields[part] = field
			}
			from = end
		}
	}
	for part := range distinct {
		pos := &k.positions[first+part]
		pos.distinct = len(distinct[part])
		pos.summarize()
	}
	if parts > 1 {
		pattern := k.segmentPattern(first, parts)
		for part := range parts {
			k.positions[first+part].pattern = pattern
		}
	}
}

// segmentPattern writes the parts of a cut segment: constant parts as
// they are, the others by what they hold.
func (k *keyProfile) segmentPattern(first, parts int) string {
	var b strings.Builder
	for part := range parts {
		pos := &k.positions[first+part]
		if pos.distinct == 1 && len(pos.values) > 0 {
			b.WriteString(printable(pos.values[0]))
			continue
		}
		b.WriteString("<" + partNoun(pos.values) + ">")
	}
	return b.String()
}

// summarize classifies the position's values: a value equal to the one
// before, or one of a few words, is classified once.
func (p *segmentPosition) summarize() {
	var words map[string]segmentClass
	if p.distinct <= maxPartWords {
		words = make(map[string]segmentClass, p.distinct)
	}
	p.valueClasses = make([]segmentClass, len(p.values))
	lastValue, lastClass := "", classEmpty
	for i, v := range p.values {
		var c segmentClass
		switch {
		case i > 0 && v == lastValue:
			c = lastClass
		default:
			known, ok := words[v]
			if !ok {
				known = classifySegment(v)
				if words != nil {
					words[v] = known
				}
			}
			c = known
		}
		lastValue, lastClass = v, c
		p.valueClasses[i] = c
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

// prefixBefore returns the key prefix of sampled row i made of the
// fields before position p (empty for p = 0; the whole key when the key
// has no field p).
func (k *keyProfile) prefixBefore(i, p int) string {
	key := string(k.rows[i].Key)
	if p < len(k.starts[i]) {
		return key[:k.starts[i][p]]
	}
	return key
}

// commonPrefix returns the longest prefix of whole fields every sampled
// key shares ("metrics|" for metrics|<ts>|host keys, "greeting" for
// greeting<n>), or "".
func (k *keyProfile) commonPrefix() string {
	if len(k.rows) == 0 {
		return ""
	}
	first, last := 0, len(k.rows)-1
	common := len(keyspace.CommonPrefix(string(k.rows[first].Key), string(k.rows[last].Key)))
	cut := 0
	for _, start := range k.starts[first] {
		if start <= common && slices.Contains(k.starts[last], start) {
			cut = start
		}
	}
	return string(k.rows[first].Key[:cut])
}
