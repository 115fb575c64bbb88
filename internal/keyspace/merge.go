package keyspace

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/units"
)

// errIncompatibleGrids is returned (wrapped) for recordings whose time
// grids cannot be aligned.
var errIncompatibleGrids = errors.New("incompatible time grids")

// MergedRecordings says what a merged recording was made of: how many
// recordings (one per recording proxy, a sidecar beside each instance of
// a service), where each came from, and the clock offsets found between
// them.
type MergedRecordings struct {
	Recordings int      `json:"recordings"`
	Names      []string `json:"names"`
	// ClockOffsets lists the recordings whose calls' times disagree with
	// the others': their traffic lines up with the rest only when moved
	// by Offset.
	ClockOffsets []ClockOffset `json:"clock_offsets,omitempty"`
	// Notes says what else a reader should know (recordings that do not
	// overlap in time).
	Notes []string `json:"notes,omitempty"`
}

// ClockOffset is a recording whose recorder's clock seems off from the
// others': its operations over time match the others' best when moved by
// Offset (positive: its clock is ahead), with Correlation against the
// others' at that offset (at zero: AtZero). btviz draws each call at its
// recorder's time all the same: this is a note, not a correction.
type ClockOffset struct {
	Name        string        `json:"name"`
	Offset      time.Duration `json:"offset_ns"`
	Correlation float64       `json:"correlation"`
	AtZero      float64       `json:"correlation_at_zero"`
}

// Text says the offset in a sentence.
func (o ClockOffset) Text() string {
	way := "ahead of"
	if o.Offset < 0 {
		way = "behind"
	}
	d := o.Offset.Abs()
	return fmt.Sprintf("the clock of %s seems about %s %s the others': its operations over time match theirs when moved by %s (correlation %.2f, %.2f unmoved); its calls are drawn at its own times",
		o.Name, units.Duration(d), way, units.Duration(d), o.Correlation, o.AtZero)
}

// Clock offset detection: a recording's operations per time bucket are
// correlated with the sum of the others' at every shift of up to
// clockMaxShift buckets; a shift other than zero is reported when it
// correlates at least clockMinCorrelation and beats no shift by
// clockMinGain, over at least clockMinBuckets buckets. Sidecars of one
// service see the same rise and fall of load, so their series match at
// the true offset; clocks kept by NTP agree to milliseconds, below a
// bucket, and raise nothing.
const (
	clockMaxShift       = 10
	clockMinCorrelation = 0.8
	clockMinGain        = 0.2
	clockMinBuckets     = 8
)

// MergeRecordings returns one recording of a table made of several (one
// per recording proxy): counts add up, node by node where the recordings'
// trees agree and, where one recorder merged keys into a range the other
// kept apart, as [Join] places a recording's traffic on a tree; time
// grids are aligned on wall-clock time (each bucket is a span of UTC, so
// the grids are brought to the widest bucket width and added bucket by
// bucket); the hottest rows and scans add up with their error bounds;
// and recordings whose calls' times disagree are noted
// ([MergedRecordings.ClockOffsets]). names name the recordings (file
// names) for the notes. Neither input changes. All must be recordings of
// one table.
func MergeRecordings(recordings []*Snapshot, names []string) (*Snapshot, error) {
	if len(recordings) == 0 {
		return nil, errors.New("merging recordings: none given")
	}
	for i, r := range recordings {
		switch {
		case r == nil || r.Root == nil || r.Traffic == nil:
			return nil, fmt.Errorf("merging recordings: %s holds no traffic", nameOf(names, i))
		case r.Table != recordings[0].Table:
			return nil, fmt.Errorf("%w: %s is of table %s and %s of table %s; merge recordings of one table",
				ErrDifferentTables, nameOf(names, 0), Printable(recordings[0].Table), nameOf(names, i), Printable(r.Table))
		}
	}
	if len(recordings) == 1 {
		return recordings[0], nil
	}
	width := int64(0)
	for _, r := range recordings {
		width = max(width, r.Traffic.BucketMicros)
	}
	parts := make([]*Snapshot, len(recordings))
	for i, r := range recordings {
		if width%r.Traffic.BucketMicros != 0 || !isPowerOfTwo(width/r.Traffic.BucketMicros) {
			return nil, fmt.Errorf("merging recordings: %w: %s has buckets of %d µs and another of %d µs; btviz record writes buckets of a second doubled, so one of them was not written by it",
				errIncompatibleGrids, nameOf(names, i), r.Traffic.BucketMicros, width)
		}
		parts[i] = r.Clone()
		for parts[i].Traffic.BucketMicros < width {
			coarsenSnapshotTraffic(parts[i])
		}
	}
	// The union of the grids must fit a time axis too.
	for spanOf(parts) > MaxTimeBuckets {
		for _, p := range parts {
			coarsenSnapshotTraffic(p)
		}
	}
	merged := &MergedRecordings{Recordings: len(parts)}
	for i := range parts {
		merged.Names = append(merged.Names, cutText(nameOf(names, i)))
	}
	merged.ClockOffsets, merged.Notes = clockOffsets(parts, merged.Names)
	merged.Notes = append(merged.Notes, latencyNotes(parts, merged.Names)...)
	hot := &Traffic{}
	mergeHotLists(hot, parts)
	// The others are placed on the finest tree: where one recorder kept
	// keys apart that another merged, they stay apart.
	finest := 0
	for i, p := range parts {
		if p.Root.Count() > parts[finest].Root.Count() {
			finest = i
		}
	}
	out := parts[finest]
	for i, p := range parts {
		if i != finest {
			mergeMeta(out, p)
			mergeTree(out.Root, p.Root)
		}
	}
	out.Traffic.TopReads, out.Traffic.TopWrites, out.Traffic.TopScans = hot.TopReads, hot.TopWrites, hot.TopScans
	out.Traffic.Merged = merged
	if out.HotTablets != nil {
		out.placeHotTablets()
	}
	return out, nil
}

// nameOf names recording i for a message.
func nameOf(names []string, i int) string {
	if i < len(names) && names[i] != "" {
		return names[i]
	}
	return fmt.Sprintf("recording %d", i+1)
}

func isPowerOfTwo(n int64) bool { return n > 0 && n&(n-1) == 0 }

// coarsenSnapshotTraffic doubles a recording's traffic bucket width in
// every histogram and latency sketch of its tree.
func coarsenSnapshotTraffic(s *Snapshot) {
	s.Traffic.BucketMicros *= 2
	s.Root.Walk(func(n *Node) bool {
		if t := n.Traffic; t != nil {
			for _, h := range t.hists() {
				h.coarsen()
			}
			if t.Latency != nil {
				t.Latency.Time.coarsen()
			}
		}
		return true
	})
}

// spanOf returns how many buckets the recordings' traffic spans together,
// their latencies included.
func spanOf(parts []*Snapshot) int64 {
	var first, last int64
	seen := false
	for _, p := range parts {
		f, l, ok := p.Root.Traffic.extent()
		switch {
		case !ok:
		case !seen:
			first, last, seen = f, l, true
		default:
			first, last = min(first, f), max(last, l)
		}
	}
	return last - first
}

// mergeMeta folds what p says of its recording into out's.
func mergeMeta(out, p *Snapshot) {
	t, o := out.Traffic, p.Traffic
	end := t.Started.Add(t.Duration)
	if other := o.Started.Add(o.Duration); other.After(end) {
		end = other
	}
	if o.Started.Before(t.Started) {
		t.Started = o.Started
	}
	t.Duration = end.Sub(t.Started)
	if o.Upstream != "" && !strings.Contains(t.Upstream, o.Upstream) {
		t.Upstream = cutText(t.Upstream + "; " + o.Upstream)
	}
	if o.Incomplete != "" {
		t.Incomplete = firstNonEmpty(t.Incomplete, o.Incomplete)
	}
	for _, m := range o.Methods {
		t.Methods = addMethod(t.Methods, m.Method, m.Calls, m.Errors)
	}
	if p.Scan.Started.Before(out.Scan.Started) {
		out.Scan.Started = p.Scan.Started
	}
	out.Scan.Duration = t.Duration
	if !p.Scan.Complete {
		out.Scan.Complete, out.Scan.Incomplete = false, firstNonEmpty(out.Scan.Incomplete, p.Scan.Incomplete)
	}
	for _, f := range p.Families {
		if !slices.Contains(out.Families, f) {
			out.Families = append(out.Families, f)
		}
	}
	out.LongKeys = mergeLongKeys(out.LongKeys, p.LongKeys)
	if out.HotTablets == nil {
		out.HotTablets = p.HotTablets.clone()
	}
}

// mergeTree adds the traffic of b, the root of another recording's tree
// of the same table, to a's tree: b's total to a's, and each of b's
// nodes as [Join] places a recording's nodes ([graft]): into the deepest
// node of a that holds its range (a node of the same range where both
// recorders kept one), as a node of its own where it meets none of a's,
// and, where one recorder merged keys into a range the other kept apart,
// divided among a's nodes by their operations.
func mergeTree(a, b *Node) {
	if b.Traffic != nil {
		addTraffic(a, b.Traffic)
	}
	mergeNode(a, b)
}

// mergeNode places the children of b, whose traffic a's counts already
// hold, in a's subtree. A b that is a leaf where a has children (one
// recorder's node budget kept the prefix whole, the other's split it) has
// its traffic divided among a's children by their operations ([spread]):
// an estimate, which keeps every total exact.
func mergeNode(a, b *Node) {
	if b.IsLeaf() {
		if !a.IsLeaf() && b.Traffic != nil {
			spread(a, b.Traffic, b)
		}
		return
	}
	for _, bc := range b.Children {
		i, ok := a.childIndex(string(bc.Start))
		if d := a.Children; ok && d[i].Start == bc.Start && d[i].End == bc.End && d[i].Kind == bc.Kind {
			if bc.Traffic != nil {
				addTraffic(d[i], bc.Traffic)
			}
			mergeNode(d[i], bc)
			continue
		}
		graft(a, bc)
	}
}

// mergeHotLists sets t's hottest rows and scans from every part's: the
// counts of a key add up; a part whose list was full and does not name
// the key may have counted it up to its list's least count, which is
// added to the count and to its error (the true count stays in
// [count−error, count]).
func mergeHotLists(t *Traffic, parts []*Snapshot) {
	rows := func(list func(*Traffic) []HotRow) []HotRow {
		type entry struct {
			HotRow
			seen []bool
		}
		byKey := map[Key]*entry{}
		var order []Key
		for i, p := range parts {
			for _, r := range list(p.Traffic) {
				e := byKey[r.Key]
				if e == nil {
					e = &entry{HotRow: HotRow{Key: r.Key}, seen: make([]bool, len(parts))}
					byKey[r.Key] = e
					order = append(order, r.Key)
				}
				e.Count += r.Count
				e.Error += r.Error
				e.Bytes += r.Bytes
				e.seen[i] = true
			}
		}
		var out []HotRow
		for _, k := range order {
			e := byKey[k]
			for i, p := range parts {
				if l := list(p.Traffic); !e.seen[i] && len(l) >= HotRowsReported {
					e.Count += l[len(l)-1].Count
					e.Error += l[len(l)-1].Count
				}
			}
			out = append(out, e.HotRow)
		}
		slices.SortStableFunc(out, func(a, b HotRow) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(string(a.Key), string(b.Key)))
		})
		return out[:min(len(out), HotRowsReported)]
	}
	t.TopReads = rows(func(t *Traffic) []HotRow { return t.TopReads })
	t.TopWrites = rows(func(t *Traffic) []HotRow { return t.TopWrites })
	scans := rows(func(t *Traffic) []HotRow {
		out := make([]HotRow, len(t.TopScans))
		for i, s := range t.TopScans {
			out[i] = HotRow{Key: Key(scanKey(KeyRange{Start: s.Start, End: s.End})), Count: s.Count, Error: s.Error, Bytes: s.Rows}
		}
		return out
	})
	t.TopScans = t.TopScans[:0]
	for _, s := range scans {
		start, end := splitScanKey(string(s.Key))
		t.TopScans = append(t.TopScans, HotScan{Start: start, End: end, Count: s.Count, Error: s.Error, Rows: s.Bytes})
	}
}

// clockOffsets compares each recording's operations over time with the
// sum of the others' and returns the recordings whose best match lies at
// a shift (see [clockMaxShift]), and notes on recordings that share no
// time with the others.
func clockOffsets(parts []*Snapshot, names []string) ([]ClockOffset, []string) {
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, p := range parts {
		if f, l, ok := p.Root.Traffic.span(); ok {
			first, last = min(first, f), max(last, l)
		}
	}
	if first >= last {
		return nil, nil
	}
	n := int(last - first)
	series := make([][]float64, len(parts))
	for i, p := range parts {
		series[i] = make([]float64, n)
		h := &p.Root.Traffic.Time.Ops
		for j, c := range h.Counts {
			series[i][h.First+int64(j)-first] = c
		}
	}
	var offsets []ClockOffset
	var notes []string
	width := time.Duration(parts[0].Traffic.BucketMicros) * time.Microsecond
	for i := range parts {
		others := make([]float64, n)
		for k := range parts {
			if k != i {
				for j, c := range series[k] {
					others[j] += c
				}
			}
		}
		if !overlapsInTime(series[i], others) {
			notes = append(notes, fmt.Sprintf("%s shares no moment with the other recordings: they were made at other times, or its recorder's clock is far off", names[i]))
			continue
		}
		atZero, okZero := shiftedCorrelation(series[i], others, 0)
		best, bestShift := atZero, 0
		for shift := -clockMaxShift; shift <= clockMaxShift; shift++ {
			if c, ok := shiftedCorrelation(series[i], others, shift); ok && c > best+1e-9 {
				best, bestShift = c, shift
			}
		}
		if okZero && bestShift != 0 && best >= clockMinCorrelation && best-atZero >= clockMinGain {
			offsets = append(offsets, ClockOffset{Name: names[i], Offset: time.Duration(bestShift) * width, Correlation: best, AtZero: atZero})
		}
	}
	return offsets, notes
}

// overlapsInTime reports whether two series have traffic in a common
// bucket.
func overlapsInTime(a, b []float64) bool {
	for j := range a {
		if a[j] > 0 && b[j] > 0 {
			return true
		}
	}
	return false
}

// shiftedCorrelation returns Pearson's correlation of a[j] with b[j−shift]
// (a recording whose clock is shift buckets ahead shows at j what the
// others show at j−shift) over the buckets where both are defined; ok is
// false over fewer than [clockMinBuckets].
func shiftedCorrelation(a, b []float64, shift int) (float64, bool) {
	var xs, ys []float64
	for j := range a {
		if k := j - shift; k >= 0 && k < len(b) {
			xs, ys = append(xs, a[j]), append(ys, b[k])
		}
	}
	if len(xs) < clockMinBuckets {
		return 0, false
	}
	var mx, my float64
	for j := range xs {
		mx += xs[j]
		my += ys[j]
	}
	mx /= float64(len(xs))
	my /= float64(len(ys))
	var sxy, sxx, syy float64
	for j := range xs {
		dx, dy := xs[j]-mx, ys[j]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// latencyNotes names the recordings that hold no latencies when others
// do (a recorder older than latencies, or one whose calls all failed
// before they were timed): the merged latencies are those of the others'
// calls alone.
func latencyNotes(parts []*Snapshot, names []string) []string {
	var without []string
	for i, p := range parts {
		if p.Root.Traffic == nil || p.Root.Traffic.Latency == nil {
			without = append(without, names[i])
		}
	}
	if len(without) == 0 || len(without) == len(parts) {
		return nil
	}
	return []string{fmt.Sprintf("%s holds no latencies (recorded by a btviz that predates them): the latencies are those of the other recordings' calls alone", strings.Join(without, ", "))}
}
