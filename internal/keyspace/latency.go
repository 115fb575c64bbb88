package keyspace

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Call latencies are kept in a [LatencySketch]: a mergeable quantile
// sketch of the kind DDSketch introduced (Masson, Rim and Lee, VLDB 2019):
// a histogram of logarithmic bins, bin i holding the latencies in
// (γ^(i−1), γ^i] nanoseconds, so that any quantile read from it is within
// a relative error α = (γ−1)/(γ+1) of a latency that was recorded. It
// keeps its bins in a bounded span the way UDDSketch does (Epicoco,
// Melle, Cafaro, Pulimeno and Morleo, 2020): when the span of its bins
// would exceed the bound, every pair of neighbouring bins is merged into
// one (γ becomes γ², the level goes up by one), so memory is bounded and
// the error bound of every quantile stays known: α at the sketch's level.
// Two sketches merge by bringing both to the higher level and adding
// their bins; a sketch of a key range's calls subtracts from its table's
// the same way. Counts are exact per bin, so merging, subtracting and
// splitting lose nothing beyond the bins' width.
const (
	// latencyBaseAlpha is the relative error of a sketch at level 0: 1%.
	latencyBaseAlpha = 0.01
	// LatencyCellBins bounds the span of bins of a sketch of one time
	// column of one key range: at most 12 bins, so a column whose calls
	// span 100 µs to 5 ms keeps its median within about 16%.
	LatencyCellBins = 12
	// LatencyWholeBins bounds a sketch of a key range's calls over the
	// whole recording (per call kind): 64 bins, so calls spanning three
	// decades keep their median within 5.4%, two within 3.6%.
	LatencyWholeBins = 64
	// maxLatencyLevel bounds a sketch's level: at level 40 one bin spans
	// more than any latency.
	maxLatencyLevel = 40
	// maxLatencyIndex bounds a level-0 bin index: γ^maxLatencyIndex ns
	// is beyond 10^18 ns (31 years).
	maxLatencyIndex = 2100
)

// latencyLogGamma is ln γ of a level-0 sketch, γ = (1+α)/(1−α).
var latencyLogGamma = math.Log((1 + latencyBaseAlpha) / (1 - latencyBaseAlpha))

// LatencySketch is a bounded, mergeable sketch of call latencies (see the
// package's latency notes above [LatencyCellBins]): Counts[j] calls took
// between γ^(Offset+j−1) and γ^(Offset+j) nanoseconds, where γ is
// (1.01/0.99)^(2^Level); MaxNs is the slowest call, exactly.
type LatencySketch struct {
	Level  int       `json:"level,omitempty"`
	Offset int       `json:"offset"`
	Counts []float64 `json:"counts"`
	MaxNs  float64   `json:"max_ns"`
}

// LatencyIndex returns the level-0 bin of a latency: the one argument a
// sketch's add takes, computed once per call however many sketches the
// call goes into.
func LatencyIndex(d time.Duration) int {
	ns := max(float64(d), 1)
	return min(int(math.Ceil(math.Log(ns)/latencyLogGamma-1e-9)), maxLatencyIndex)
}

// atLevel returns level-0 bin i as a bin of a sketch at level: ⌈i/2^level⌉.
func atLevel(i, level int) int {
	if level == 0 {
		return i
	}
	return (i + 1<<level - 1) >> level
}

// Count returns how many calls the sketch holds.
func (s *LatencySketch) Count() float64 {
	total := 0.0
	for _, c := range s.Counts {
		total += c
	}
	return total
}

// Empty reports whether the sketch holds no call.
func (s *LatencySketch) Empty() bool { return len(s.Counts) == 0 }

// RelativeError returns the bound on the relative error of a quantile
// read from the sketch: (γ−1)/(γ+1) at its level.
func (s *LatencySketch) RelativeError() float64 {
	gamma := math.Exp(latencyLogGamma * math.Ldexp(1, s.Level))
	return (gamma - 1) / (gamma + 1)
}

// add counts weight calls of level-0 bin index and latency ns, keeping
// the span of bins within maxBins.
func (s *LatencySketch) add(index int, weight, ns float64, maxBins int) {
	s.MaxNs = max(s.MaxNs, ns)
	i := atLevel(index, s.Level)
	if len(s.Counts) == 0 {
		s.Offset, s.Counts = i, append(s.Counts[:0], weight)
		return
	}
	for max(i, s.last())-min(i, s.Offset)+1 > maxBins && s.Level < maxLatencyLevel {
		s.collapse()
		i = atLevel(index, s.Level)
	}
	s.grow(i)
	s.Counts[i-s.Offset] += weight
}

// last returns the index of the sketch's last bin.
func (s *LatencySketch) last() int { return s.Offset + len(s.Counts) - 1 }

// grow extends the bins to hold bin i.
func (s *LatencySketch) grow(i int) {
	switch {
	case i < s.Offset:
		grown := make([]float64, s.last()-i+1)
		copy(grown[s.Offset-i:], s.Counts)
		s.Offset, s.Counts = i, grown
	case i > s.last():
		s.Counts = append(s.Counts, make([]float64, i-s.last())...)
	}
}

// collapse merges every pair of neighbouring bins: the level goes up by
// one and each bin i becomes bin ⌈i/2⌉.
func (s *LatencySketch) collapse() {
	s.Level++
	if len(s.Counts) == 0 {
		return
	}
	// In place: bin j goes to ⌈(Offset+j)/2⌉ − first, never after j.
	first, last := atLevel(s.Offset, 1), atLevel(s.last(), 1)
	prev := -1
	for j, c := range s.Counts {
		k := atLevel(s.Offset+j, 1) - first
		if k != prev {
			s.Counts[k], prev = c, k
		} else {
			s.Counts[k] += c
		}
	}
	clear(s.Counts[last-first+1:])
	s.Offset, s.Counts = first, s.Counts[:last-first+1]
}

// toLevel collapses the sketch up to level.
func (s *LatencySketch) toLevel(level int) {
	for s.Level < level {
		s.collapse()
	}
}

// commonLevel brings s and other to the coarser of their levels: s in
// place, other in a copy when it must collapse. It returns other at that
// level.
func (s *LatencySketch) commonLevel(other *LatencySketch) *LatencySketch {
	o := other
	if other.Level < s.Level {
		c := other.clone()
		c.toLevel(s.Level)
		o = &c
	}
	s.toLevel(o.Level)
	return o
}

// Merge folds other into s, keeping the span of bins within maxBins.
func (s *LatencySketch) Merge(other *LatencySketch, maxBins int) {
	if other.Empty() {
		s.MaxNs = max(s.MaxNs, other.MaxNs)
		return
	}
	o := s.commonLevel(other)
	if s.Empty() {
		s.Offset, s.Counts = o.Offset, slices.Clone(o.Counts)
	} else {
		s.grow(o.Offset)
		s.grow(o.last())
		for j, c := range o.Counts {
			s.Counts[o.Offset+j-s.Offset] += c
		}
	}
	s.MaxNs = max(s.MaxNs, o.MaxNs)
	for len(s.Counts) > maxBins && s.Level < maxLatencyLevel {
		s.collapse()
	}
}

// subtract takes other's calls away from s's (a key range's from its
// table's), at the coarser of the two levels, clamping at 0; the maximum
// stays s's (an upper bound of what is left).
func (s *LatencySketch) subtract(other *LatencySketch) {
	if other.Empty() || s.Empty() {
		return
	}
	o := s.commonLevel(other)
	for j, c := range o.Counts {
		if k := o.Offset + j - s.Offset; k >= 0 && k < len(s.Counts) {
			s.Counts[k] = max(s.Counts[k]-c, 0)
		}
	}
	s.trim()
}

// trim drops empty bins at both ends.
func (s *LatencySketch) trim() {
	lo, hi := 0, len(s.Counts)
	for lo < hi && s.Counts[lo] == 0 {
		lo++
	}
	for hi > lo && s.Counts[hi-1] == 0 {
		hi--
	}
	if lo == hi {
		s.Offset, s.Counts = 0, nil
		return
	}
	s.Offset += lo
	s.Counts = s.Counts[lo:hi]
}

// LatencyRest returns the calls of table, a sketch of a whole table's
// calls, that part (a sketch of some of them) does not hold: the rest of
// the table's calls, at the coarser level of the two.
func LatencyRest(table, part *LatencySketch) LatencySketch {
	rest := table.clone()
	rest.subtract(part)
	return rest
}

// scaled returns a copy of the sketch with every count times f: a share
// of a key range's calls whose keys are not known, which has the range's
// latencies in proportion.
func (s *LatencySketch) scaled(f float64) LatencySketch {
	c := s.clone()
	for j := range c.Counts {
		c.Counts[j] *= f
	}
	return c
}

func (s *LatencySketch) clone() LatencySketch {
	c := *s
	c.Counts = slices.Clone(s.Counts)
	return c
}

// Quantile returns the latency below which a share q of the calls fell
// (q = 0.5: the median), within [LatencySketch.RelativeError] of a
// latency recorded; 0 for an empty sketch.
func (s *LatencySketch) Quantile(q float64) time.Duration {
	total := s.Count()
	if total <= 0 {
		return 0
	}
	rank := q * total
	seen := 0.0
	for j, c := range s.Counts {
		seen += c
		if seen >= rank && c > 0 {
			return s.binValue(s.Offset + j)
		}
	}
	return s.binValue(s.last())
}

// binValue returns the estimate of bin i of the sketch: the value within
// its relative error of every latency in (γ^(i−1), γ^i].
func (s *LatencySketch) binValue(i int) time.Duration {
	logGamma := latencyLogGamma * math.Ldexp(1, s.Level)
	gamma := math.Exp(logGamma)
	v := 2 * math.Exp(logGamma*float64(i)) / (gamma + 1)
	if s.MaxNs > 0 {
		v = min(v, s.MaxNs)
	}
	return time.Duration(min(v, math.MaxInt64/2))
}

// Median returns the sketch's median latency ([LatencySketch.Quantile]).
func (s *LatencySketch) Median() time.Duration { return s.Quantile(0.5) }

// Max returns the slowest call.
func (s *LatencySketch) Max() time.Duration { return time.Duration(min(s.MaxNs, math.MaxInt64/2)) }

// NodeLatency is what a recording keeps of the latency of the calls that
// touched a node's key range (named a row of it, or scanned a range it
// holds), as the recording proxy saw it, from request to trailers: a
// sketch per call kind over the whole recording, and one per cell of
// [LatencyCellBuckets] buckets of the traffic time grid over all kinds. A call counts once per node
// whatever the number of its rows there.
type NodeLatency struct {
	Kinds []KindLatency `json:"kinds"`
	Time  LatencyHist   `json:"time"`
}

// KindLatency is the latency sketch of one kind of call ([Op.Kind]).
type KindLatency struct {
	Kind   string        `json:"kind"`
	Sketch LatencySketch `json:"sketch"`
}

// LatencyCellBuckets is how many buckets of the traffic time grid one
// latency cell covers: a node's latency over time is kept at a quarter of
// the resolution of its operations (at most 32 cells), which bounds a
// recording's sketches at a few MB of memory whatever its length.
const LatencyCellBuckets = 4

// LatencyHist holds a latency sketch per cell of [LatencyCellBuckets]
// buckets of the traffic time grid that had calls: Cells, sorted by
// bucket, each non-empty; cell b covers traffic buckets [4b, 4b+4). A
// node that had calls at few times keeps few cells.
type LatencyHist struct {
	Cells []LatencyCell `json:"cells"`
}

// LatencyCell is the latency sketch of one cell of time: absolute cell
// Bucket, traffic buckets [4·Bucket, 4·Bucket+4).
type LatencyCell struct {
	Bucket int64 `json:"bucket"`
	LatencySketch
}

// Span returns the absolute cells [first, last) the cells cover (in
// cells of [LatencyCellBuckets] traffic buckets); ok is false without
// cells.
func (h *LatencyHist) Span() (first, last int64, ok bool) {
	if len(h.Cells) == 0 {
		return 0, 0, false
	}
	return h.Cells[0].Bucket, h.Cells[len(h.Cells)-1].Bucket + 1, true
}

// search returns the index of bucket i's cell, or where it would go and
// false.
func (h *LatencyHist) search(i int64) (int, bool) {
	n := len(h.Cells)
	switch {
	case n == 0:
		return 0, false
	case h.Cells[n-1].Bucket == i: // the usual case: the cell of now
		return n - 1, true
	case h.Cells[n-1].Bucket < i: // time moved on
		return n, false
	}
	return slices.BinarySearchFunc(h.Cells, i, func(c LatencyCell, b int64) int { return cmp.Compare(c.Bucket, b) })
}

// At returns the sketch of absolute cell i (nil when it had no call).
func (h *LatencyHist) At(i int64) *LatencySketch {
	if j, ok := h.search(i); ok {
		return &h.Cells[j].LatencySketch
	}
	return nil
}

// cell returns the sketch of absolute cell i, adding it.
func (h *LatencyHist) cell(i int64) *LatencySketch {
	j, ok := h.search(i)
	if !ok {
		// A new cell starts at its neighbour's level: the node's calls
		// spread as they did, and it need not collapse its way there.
		c := LatencyCell{Bucket: i}
		if j > 0 {
			c.Level = h.Cells[j-1].Level
		}
		h.Cells = slices.Insert(h.Cells, j, c)
	}
	return &h.Cells[j].LatencySketch
}

// merge folds other into h bucket by bucket.
func (h *LatencyHist) merge(other *LatencyHist) {
	for j := range other.Cells {
		if c := &other.Cells[j]; !c.Empty() {
			h.cell(c.Bucket).Merge(&c.LatencySketch, LatencyCellBins)
		}
	}
}

// subtract takes other's calls away from h's, bucket by bucket, and
// drops the cells left empty.
func (h *LatencyHist) subtract(other *LatencyHist) {
	for j := range other.Cells {
		if mine := h.At(other.Cells[j].Bucket); mine != nil {
			mine.subtract(&other.Cells[j].LatencySketch)
		}
	}
	h.Cells = slices.DeleteFunc(h.Cells, func(c LatencyCell) bool { return c.Empty() })
}

// coarsen re-bins h onto a time grid twice as wide (with the traffic
// grid it follows).
func (h *LatencyHist) coarsen() {
	out := h.Cells[:0]
	for _, c := range h.Cells {
		b := floorDiv(c.Bucket, 2)
		if n := len(out); n > 0 && out[n-1].Bucket == b {
			out[n-1].Merge(&c.LatencySketch, LatencyCellBins)
			continue
		}
		c.Bucket = b
		out = append(out, c)
	}
	clear(h.Cells[len(out):])
	h.Cells = out
}

func (h *LatencyHist) clone() LatencyHist {
	c := LatencyHist{Cells: make([]LatencyCell, len(h.Cells))}
	for j := range h.Cells {
		c.Cells[j] = LatencyCell{Bucket: h.Cells[j].Bucket, LatencySketch: h.Cells[j].clone()}
	}
	return c
}

// add counts one call of kind, of level-0 bin index and latency ns, in
// time bucket.
func (l *NodeLatency) add(kind string, index int, ns float64, bucket int64) {
	l.kindSketch(kind).add(index, 1, ns, LatencyWholeBins)
	l.Time.cell(floorDiv(bucket, LatencyCellBuckets)).add(index, 1, ns, LatencyCellBins)
}

// kindSketch returns the sketch of kind, creating it; the list stays
// sorted by kind.
func (l *NodeLatency) kindSketch(kind string) *LatencySketch {
	for i := range l.Kinds {
		if l.Kinds[i].Kind == kind {
			return &l.Kinds[i].Sketch
		}
	}
	i := 0
	for ; i < len(l.Kinds) && l.Kinds[i].Kind < kind; i++ {
	}
	l.Kinds = slices.Insert(l.Kinds, i, KindLatency{Kind: kind})
	return &l.Kinds[i].Sketch
}

// Kind returns the sketch of one kind of call (nil when the node has
// none).
func (l *NodeLatency) Kind(kind string) *LatencySketch {
	if l == nil {
		return nil
	}
	for i := range l.Kinds {
		if l.Kinds[i].Kind == kind {
			return &l.Kinds[i].Sketch
		}
	}
	return nil
}

// Whole returns the sketch of every call over the whole recording, all
// kinds merged.
func (l *NodeLatency) Whole() LatencySketch {
	var s LatencySketch
	if l == nil {
		return s
	}
	for i := range l.Kinds {
		s.Merge(&l.Kinds[i].Sketch, LatencyWholeBins)
	}
	return s
}

// Merge folds other into l: sketches of each kind and of each time
// bucket merge.
func (l *NodeLatency) Merge(other *NodeLatency) {
	for i := range other.Kinds {
		l.kindSketch(other.Kinds[i].Kind).Merge(&other.Kinds[i].Sketch, LatencyWholeBins)
	}
	l.Time.merge(&other.Time)
}

// subtract takes other's calls away from l's.
func (l *NodeLatency) subtract(other *NodeLatency) {
	for i := range other.Kinds {
		if mine := l.Kind(other.Kinds[i].Kind); mine != nil {
			mine.subtract(&other.Kinds[i].Sketch)
		}
	}
	l.Kinds = slices.DeleteFunc(l.Kinds, func(k KindLatency) bool { return k.Sketch.Empty() })
	l.Time.subtract(&other.Time)
}

// scaled returns l with every count times f ([LatencySketch.scaled]).
func (l *NodeLatency) scaled(f float64) *NodeLatency {
	c := &NodeLatency{Kinds: make([]KindLatency, len(l.Kinds)), Time: LatencyHist{Cells: make([]LatencyCell, len(l.Time.Cells))}}
	for i, k := range l.Kinds {
		c.Kinds[i] = KindLatency{Kind: k.Kind, Sketch: k.Sketch.scaled(f)}
	}
	for j := range l.Time.Cells {
		c.Time.Cells[j] = LatencyCell{Bucket: l.Time.Cells[j].Bucket, LatencySketch: l.Time.Cells[j].scaled(f)}
	}
	return c
}

func (l *NodeLatency) clone() *NodeLatency {
	if l == nil {
		return nil
	}
	c := &NodeLatency{Kinds: make([]KindLatency, len(l.Kinds)), Time: l.Time.clone()}
	for i, k := range l.Kinds {
		c.Kinds[i] = KindLatency{Kind: k.Kind, Sketch: k.Sketch.clone()}
	}
	return c
}

// Call kinds a latency is kept by: a ReadRows call is a point read when
// it names rows only, a scan when it asks for a key range; every other
// method is its own kind.
const (
	CallPointRead = "point-read"
	CallScan      = "scan"
)

// Kind returns the kind of call op is, for its latency: [CallPointRead],
// [CallScan], or the method's name.
func (op *Op) Kind() string {
	if op.Method == MethodReadRows {
		if len(op.Ranges) > 0 {
			return CallScan
		}
		return CallPointRead
	}
	return op.Method
}

// CallKindWords names a kind of call in a sentence: "point reads",
// "scans", "MutateRows calls".
func CallKindWords(kind string) string {
	switch kind {
	case CallPointRead:
		return "point reads"
	case CallScan:
		return "scans"
	}
	return kind + " calls"
}
