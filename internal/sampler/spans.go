package sampler

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Span sampling reads a sample of key spans instead of a sample of rows.
// A RowSampleFilter cannot make a server read less than the ranges it is
// asked for (bttest gathers and sorts every row of them before it
// filters; Cloud Bigtable reads every row too), so a 5% row sample costs
// far more than 5% of a full scan. Reading 5% of the spans between
// SampleRowKeys samples costs about 5%.
//
// The spans are SampleRowKeys' own ranges, before an emulator's are merged
// into the snapshot's ranges, each with its sampled bytes. A
// [spanPlanner] takes them in key order, as the RPC streams them, and
// decides at once which to read, so that reading overlaps the emulator's
// SampleRowKeys, which walks the whole table (a third of a second per
// million rows: more than reading the sample itself). Four kinds of span
// are read, each in full:
//
//   - Certain spans: a span whose sampled bytes exceed
//     [oversizedSpanFactor] times the median of the [oversizedWindow]
//     spans before it holds something its neighbours do not (an
//     oversized row, a row with thousands of versions); it is read with
//     weight 1, so a sampled scan still finds it, and takes no part in
//     the estimate of its neighbours. Comparing with the spans before it,
//     not with the whole table, keeps the test local (a table whose rows
//     grow along the key space does not flag its second half) and lets
//     it be decided while the samples stream.
//   - Cut spans: a span --prefix, --start or --end cut keeps the sampled
//     bytes of the whole span, so no estimate can rest on it; the (at
//     most two) cut spans are read with weight 1.
//   - Boundary spans: a span holding the end of one top-level prefix and
//     the start of the next is read with weight 1 (see below).
//   - Chosen spans: the other spans form groups of k consecutive spans
//     (a group cut short at a prefix boundary or at the end of the table
//     joins the group before it when it has fewer than k/2 spans, and
//     stays a short group otherwise). One span per group is drawn at
//     random with probability proportional to its sampled bytes (seeded:
//     equal seeds over an equal tablet map draw equal spans), and each
//     of its rows stands for groupBytes/spanBytes rows: the group's
//     sampled bytes over the chosen span's. A draw by size favours long
//     spans: see [spanGroupSize] for the k that reads about fraction of
//     the rows.
//
// That is the Hansen–Hurwitz estimator of a draw with probability
// proportional to size: the chosen span stands for 1/p of itself, p its
// share of the group's bytes, so every total (rows, cells, bytes, a
// prefix's rows) is estimated without bias, and the group's bytes in the
// units the offsets count (value bytes on an emulator) come out exactly.
// Its variance comes only from how rows per byte vary between the spans
// of a group, which is small when row sizes are even. The alternatives
// are worse: a uniform draw weighted by the span count (k rows per row
// read) is unbiased too, but its variance follows the span lengths, which
// on an emulator are geometric (~100 rows, as many spans of 10 as of
// 200): off by about 1/sqrt(groups), 7% at 200 groups; a uniform draw
// weighted by bytes (a ratio estimate) has the low variance but a bias,
// because it averages rows per byte over spans instead of weighting them
// by size: short spans with a few small rows inflate it (5% too many rows
// on a table whose row sizes vary from 10 B to 400 B). A group with no
// bytes (empty values, or keys-only rows on an emulator, whose offsets
// count values only) is drawn from uniformly and each row stands for
// len(group) rows; a span with no bytes in a group with bytes is never
// drawn, so such rows count only where their whole group has none.
//
// The snapshot's ranges are then formed from whole groups, so every
// range gets an unbiased estimate of its own rows. Shares of key prefixes
// stay accurate because the groups are strata: a prefix covering whole
// groups gets exactly their estimates, and only a group a prefix
// boundary cuts can credit its rows to the wrong side of the boundary
// (unbiased still: the span is drawn on each side in proportion to the
// group's bytes there). Such a group holds about 1/groups of the table;
// with [minSpanGroups] groups a prefix's share can be off by at most
// about a percentage point (at its two ends). To do better where it
// matters most, top-level prefixes get strata of their own (see
// [maxAlignedSegments]): a span whose start and end keys differ in their
// first segment holds the end of one top-level prefix and the start of
// the next; it is read in full with weight 1 and ends the group before
// it, so no group and no weight crosses the boundary, and top-level
// prefix shares carry no boundary error at all.
//
// Span sampling needs spans finer than the snapshot's ranges: it runs on
// emulators, whose ~1% random samples are merged into a few hundred
// ranges. On Cloud Bigtable the spans are the tablets the snapshot shows,
// and reading whole tablets would leave most of them without statistics,
// so a sample there filters rows (RowSampleFilter).
const (
	// oversizedSpanFactor is how many times the median span's sampled
	// bytes a span needs to be read for itself. On an emulator a span
	// runs from one random ~1% sample to the next, so its length is
	// geometric with mean ~100 rows and median ~69: an ordinary span
	// exceeds 4× the median with probability 0.99^277 ≈ 6%, 8× with
	// 0.99^552 ≈ 0.4% (40 spans of ~550 rows in a 1M-row table: nearly
	// half again the rows of a 5% sample), 16× with 0.99^1104 ≈ 0.0015%
	// (none). The span holding the demo's 4c410523#memusage row (5,000
	// versions of a ~42-byte reading: ~210 KB) is about 75× the median
	// span of its table; an oversized row is thousands of times it.
	oversizedSpanFactor = 16
	// oversizedWindow is how many of the preceding spans a span's bytes
	// are compared with: enough for a stable median (the median of 256
	// geometric spans is good to about ±9%, which keeps false alarms to
	// about one span in 20,000), few enough to follow a change of row
	// size along the key space.
	oversizedWindow = 256
	// certainBudgetShare caps the certain spans at this share of the
	// groups the spans so far make (plus one): at most half again the
	// spans the groups read, so that a table with many large spans does
	// not turn into a full scan. Past the cap, a large span joins its
	// group like any other.
	certainBudgetShare = 0.5
	// minSpanGroups is the fewest groups span sampling runs with: each
	// group is then at most about 0.5% of the table, so the two groups a
	// prefix's boundaries cut misplace at most about one percentage point
	// of its share (top-level prefixes, whose boundaries are aligned, not
	// even that), and the table's totals rest on enough draws. With
	// fewer, the scan samples rows (RowSampleFilter).
	minSpanGroups = 200
	// spansPerRead is how many spans one ReadRows call of a span sample
	// asks for (a RowRangeList): about 800 rows on an emulator, whose
	// spans drawn by size hold ~200. The calls planned last are handed
	// out only when SampleRowKeys ends, so small calls keep that tail
	// short, while a call's own overhead (well under a millisecond on
	// the emulator) stays small against its rows.
	spansPerRead = 4
)

// Aligning groups to top-level prefixes: a table whose first
// oversizedWindow spans start in at most maxAlignedSegments distinct
// first key segments has a few large top-level prefixes, and its groups
// end at their boundaries. Each boundary costs two more span reads (the
// span holding it, and the draw of the group it cut short); after the
// first minAlignedBreaks boundaries, they are aligned only while they are
// at most alignBudgetShare of the groups, so that keys whose first
// segment changes all the time (hashed, or leading ids) further on add
// at most half again to the sample.
const (
	maxAlignedSegments = 32
	minAlignedBreaks   = 64
	alignBudgetShare   = 0.25
)

// spanSeedStream separates the span choice's random stream from the row
// sample's, which the same seed also seeds.
const spanSeedStream = 0x7370616e73 // "spans"

// readSpan is one span a span sample reads in full, with the weight of
// each of its rows.
type readSpan struct {
	index      int // in the planner's spans
	start, end string
	bytes      int64
	weight     float64
	certain    bool // read for itself (oversized, cut, at a boundary), weight 1
}

// spanRead is one ReadRows call of a span sample: up to spansPerRead
// spans in key order.
type spanRead []readSpan

// spanPlanner decides, span by span in key order, which spans a span
// sample reads, and hands the reads on in calls of spansPerRead spans.
// It is deterministic: equal spans and seeds give equal reads.
type spanPlanner struct {
	fraction float64
	k        int
	rng      *rand.Rand
	emit     func(spanRead)
	// fine, when set, says from the first spans whether they are samples
	// fine enough to read whole (see mapShape); when it says no, the
	// planner is off: it only collects the spans.
	fine func([]span) bool
	off  bool

	spans  []span
	window sizeWindow // bytes of the spans before the next one
	// delimiters are the key delimiters the scan was given ("" detects
	// them); aligned says groups end at top-level prefix boundaries
	// (segments cuts keys), boundaries counts those read.
	delimiters      string
	delimitersKnown bool // delimiters is final even when empty
	aligned         bool
	segments        keyspace.Splitter
	boundaries      int
	held            int   // spans at the start waiting for the window to fill
	group           []int // the group being filled
	// last is the previous full group, drawn only once the next one is
	// full too or is cut short (which may then join it); lastEnd is the
	// index after its block.
	last    []int
	lastEnd int
	// blockEnds holds, for every finished group, the index after its
	// last span: the blocks [previous end, end) tile the spans, each a
	// group with the certain spans among it.
	blockEnds []int
	pending   spanRead

	// readIndexes lists the spans read, in the order they were planned;
	// readBytes is their bytes, certainBytes those of the spans read for
	// themselves, totalBytes those of all spans.
	readIndexes                         []int
	groups, certain                     int
	readBytes, certainBytes, totalBytes int64
}

func newSpanPlanner(fraction float64, seed uint64, delimiters string, emit func(spanRead)) *spanPlanner {
	return &spanPlanner{
		fraction: fraction, k: spanGroupSize(fraction), delimiters: delimiters, rng: rand.New(rand.NewPCG(seed, spanSeedStream)), emit: emit,
		window: sizeWindow{size: oversizedWindow},
	}
}

// spanGroupSize is k, the spans per group that read about fraction of
// the rows. On an emulator span lengths are geometric (about
// exponential), and a span drawn from k in proportion to its bytes then
// holds on average 2k/(k+1) spans' worth of rows (E[Σb²/Σb] for k
// exponential b), so a group reads 2/(k+1) of its rows: k = 2/fraction
// − 1, 39 for 5%. Below k = 2 (fractions above 80%) a span sample would
// read every span.
func spanGroupSize(fraction float64) int {
	return max(1, int(math.Round(2/fraction-1)))
}

// add takes the next span.
func (p *spanPlanner) add(s span) {
	i := len(p.spans)
	p.spans = append(p.spans, s)
	p.totalBytes += s.bytes
	if p.off {
		return
	}
	if p.held >= 0 && i < oversizedWindow {
		// Until the window is full the median is not known: hold the
		// spans, then judge them all by the median of the first window.
		p.window.push(s.bytes)
		p.held = i + 1
		if p.held == oversizedWindow {
			p.release()
		}
		return
	}
	p.decide(i, p.window.median())
	p.window.push(s.bytes)
}

// release decides the held spans.
func (p *spanPlanner) release() {
	if p.fine != nil && !p.fine(p.spans[:p.held]) {
		p.off, p.held = true, -1
		return
	}
	p.alignToPrefixes()
	median := p.window.median()
	for i := range p.held {
		p.decide(i, median)
	}
	p.held = -1
}

// decide reads span i for itself or adds it to the group being filled.
func (p *spanPlanner) decide(i int, median int64) {
	s := p.spans[i]
	boundary := !s.cut && p.atBoundary(s)
	if boundary {
		// Whatever else the span is, no group may reach across it.
		p.boundaries++
		p.endStratum(i)
	}
	switch {
	case s.cut || boundary:
		p.readWhole(i)
	case s.bytes > oversizedSpanFactor*max(median, 1) && p.certain < p.certainCap(i):
		p.certain++
		p.readWhole(i)
	default:
		p.group = append(p.group, i)
		if len(p.group) == p.k {
			p.drawLast()
			p.last, p.group = p.group, p.last[:0]
			p.lastEnd = i + 1
		}
	}
}

// endStratum draws the groups before span i, where a stratum (a
// top-level prefix, or the table) ends: the group being filled joins the
// last one when it has fewer than k/2 spans.
func (p *spanPlanner) endStratum(i int) {
	if len(p.group) > 0 && 2*len(p.group) < p.k && len(p.last) > 0 {
		p.last = append(p.last, p.group...)
		p.lastEnd = i
		p.group = p.group[:0]
	}
	p.drawLast()
	if len(p.group) > 0 {
		p.draw(p.group)
		p.blockEnds = append(p.blockEnds, i)
		p.group = p.group[:0]
	}
}

// drawLast draws the last full group, if any.
func (p *spanPlanner) drawLast() {
	if len(p.last) > 0 {
		p.draw(p.last)
		p.blockEnds = append(p.blockEnds, p.lastEnd)
		p.last = p.last[:0]
	}
}

// readWhole reads span i for itself, with weight 1.
func (p *spanPlanner) readWhole(i int) {
	s := p.spans[i]
	p.certainBytes += s.bytes
	p.read(readSpan{index: i, start: s.start, end: s.end, bytes: s.bytes, weight: 1, certain: true})
}

// atBoundary reports whether s holds a top-level prefix boundary that
// gets a stratum boundary: its start and end keys differ in their first
// segment, and the alignment budget allows it.
func (p *spanPlanner) atBoundary(s span) bool {
	return p.aligned && s.start != "" && s.end != "" && p.firstSegment(s.start) != p.firstSegment(s.end) &&
		p.boundaries < minAlignedBreaks+int(alignBudgetShare*float64(p.groups))
}

// alignToPrefixes decides, from the held spans, whether groups end
// where the first key segment changes.
func (p *spanPlanner) alignToPrefixes() {
	keys := make([]string, 0, p.held)
	for _, s := range p.spans[:p.held] {
		if s.start != "" {
			keys = append(keys, s.start)
		}
	}
	delimiters := p.delimiters
	if delimiters == "" && !p.delimitersKnown {
		delimiters = keyspace.DetectDelimiters(keys)
	}
	if delimiters == "" {
		return // no segments to align to
	}
	p.segments = keyspace.NewSplitter(delimiters)
	distinct := make(map[string]bool)
	for _, key := range keys {
		if distinct[p.firstSegment(key)] = true; len(distinct) > maxAlignedSegments {
			return
		}
	}
	p.aligned = true
}

// firstSegment returns key's first segment, its delimiter included.
func (p *spanPlanner) firstSegment(key string) string {
	return key[:p.segments.Next(key, 0)]
}

// certainCap is how many certain spans the first i+1 spans may have:
// certainBudgetShare of the groups they make, plus one.
func (p *spanPlanner) certainCap(i int) int {
	return 1 + int(certainBudgetShare*float64(i+1)/float64(p.k))
}

// draw draws the span of group to read, with probability proportional
// to its bytes (uniformly when the group has none), and weighs it.
func (p *spanPlanner) draw(group []int) {
	var groupBytes int64
	for _, i := range group {
		groupBytes += p.spans[i].bytes
	}
	var chosen int
	var weight float64
	if groupBytes == 0 {
		chosen, weight = group[p.rng.IntN(len(group))], float64(len(group))
	} else {
		at := p.rng.Int64N(groupBytes)
		for _, chosen = range group {
			if at -= p.spans[chosen].bytes; at < 0 {
				break
			}
		}
		weight = float64(groupBytes) / float64(p.spans[chosen].bytes)
	}
	s := p.spans[chosen]
	p.read(readSpan{index: chosen, start: s.start, end: s.end, bytes: s.bytes, weight: weight})
	p.groups++
}

// read queues r and hands on a full call.
func (p *spanPlanner) read(r readSpan) {
	p.readIndexes = append(p.readIndexes, r.index)
	p.readBytes += r.bytes
	p.pending = append(p.pending, r)
	if len(p.pending) == spansPerRead {
		p.flush()
	}
}

func (p *spanPlanner) flush() {
	if len(p.pending) == 0 {
		return
	}
	call := p.pending
	p.pending = nil
	slices.SortFunc(call, func(a, b readSpan) int { return cmp.Compare(a.index, b.index) })
	p.emit(call)
}

// finish decides what is left after the last span and hands on the last
// call.
func (p *spanPlanner) finish() {
	if p.off {
		return
	}
	if p.held > 0 {
		p.release()
	}
	p.endStratum(len(p.spans))
	if n := len(p.spans); n > 0 && (len(p.blockEnds) == 0 || p.blockEnds[len(p.blockEnds)-1] < n) {
		p.blockEnds = append(p.blockEnds, n)
	}
	p.flush()
}

// usable reports whether the finished sample is fine enough to run:
// groups of two spans or more, and at least [minSpanGroups] of them.
func (p *spanPlanner) usable() bool {
	return !p.off && p.k >= 2 && p.groups >= minSpanGroups
}

// share is the expected share of rows read: that of the groups' bytes
// the chosen spans hold (the spans read for themselves aside, which may
// be anything but typical).
func (p *spanPlanner) share() float64 {
	if grouped := p.totalBytes - p.certainBytes; grouped > 0 {
		return float64(p.readBytes-p.certainBytes) / float64(grouped)
	}
	if len(p.spans) == 0 {
		return 0
	}
	return float64(len(p.readIndexes)) / float64(len(p.spans))
}

// describe says what the scan reads, for [Progress].Reason; why is what
// made it sample ([modeChoice].why).
func (p *spanPlanner) describe(why string) string {
	text := fmt.Sprintf("a %s sample of key spans (stratified", units.Percent(p.fraction))
	if why == "--sample" {
		text += ", --sample)"
	} else {
		text += "): " + why
	}
	text += fmt.Sprintf("; 1 span in %d, drawn by size, from each of %d groups", p.k, p.groups)
	if p.boundaries > 0 {
		text += fmt.Sprintf(", %d spans at top-level prefix boundaries", p.boundaries)
	}
	if p.certain > 0 {
		text += fmt.Sprintf(", and %d spans far above their neighbours' size in full", p.certain)
	}
	return text
}

// whyNot says why a scan samples rows rather than spans (p not usable).
func (p *spanPlanner) whyNot() string {
	if p.k < 2 {
		return "; at this fraction a span sample would read every key span"
	}
	return fmt.Sprintf("; too few key spans for a span sample (%d groups of %d, need %d)", p.groups, p.k, minSpanGroups)
}

// blocks returns the spans merged block by block (see
// spanPlanner.blockEnds).
func (p *spanPlanner) blocks() []span {
	blocks := make([]span, 0, len(p.blockEnds))
	first := 0
	for _, end := range p.blockEnds {
		b := span{start: p.spans[first].start, end: p.spans[end-1].end}
		for _, s := range p.spans[first:end] {
			b.bytes += s.bytes
		}
		blocks = append(blocks, b)
		first = end
	}
	return blocks
}

// sizeWindow keeps the last size values it was given, sorted, for their
// median.
type sizeWindow struct {
	size   int
	values []int64 // in arrival order, at most size
	sorted []int64
}

func (w *sizeWindow) push(v int64) {
	if len(w.values) == w.size {
		old := w.values[0]
		w.values = w.values[1:]
		i, _ := slices.BinarySearch(w.sorted, old)
		w.sorted = slices.Delete(w.sorted, i, i+1)
	}
	w.values = append(w.values, v)
	i, _ := slices.BinarySearch(w.sorted, v)
	w.sorted = slices.Insert(w.sorted, i, v)
}

// median returns the window's median (the upper one of an even count),
// 0 when empty.
func (w *sizeWindow) median() int64 {
	if len(w.sorted) == 0 {
		return 0
	}
	return w.sorted[len(w.sorted)/2]
}
