package keyspace

import (
	"slices"
	"strings"
	"time"
)

// Traffic is what a traffic recording saw of one table: when, on what time
// grid, how many calls of each data-API method, and the hottest single
// rows and scanned ranges. The traffic of each key range is in the prefix
// tree ([Node.Traffic]); the root's is the table's total.
type Traffic struct {
	// Started and Duration bound the recording.
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	// BucketMicros is the width of every traffic histogram bucket, in
	// microseconds: a second for a short recording, doubling as it grows
	// so that the whole recording fits in [MaxTimeBuckets] buckets.
	BucketMicros int64 `json:"bucket_micros"`
	// Upstream says where the recording proxy forwarded the calls to.
	Upstream string `json:"upstream,omitempty"`
	// Incomplete says why the recording is incomplete (it was cut off:
	// [IncompleteRecording]); empty for a recording that ended as it
	// should, or one in progress.
	Incomplete string `json:"incomplete,omitempty"`
	// Methods counts the table's calls by data-API method, with the
	// calls that failed.
	Methods []MethodCount `json:"methods"`
	// TopReads and TopWrites are the rows read and written most often,
	// most first; TopScans the key ranges scanned most often.
	TopReads  []HotRow  `json:"top_reads"`
	TopWrites []HotRow  `json:"top_writes"`
	TopScans  []HotScan `json:"top_scans"`
	// Merged is set on a recording made of several ([MergeRecordings]).
	Merged *MergedRecordings `json:"merged,omitempty"`
}

// MethodCount is how often one data-API method was called.
type MethodCount struct {
	Method string  `json:"method"`
	Calls  float64 `json:"calls"`
	Errors float64 `json:"errors,omitempty"`
}

// HotRow is one of the most read or written rows. Count over-estimates
// the true count by at most Error (the bounded top-K counter it comes
// from cannot tell more), so the true count lies in [Count−Error,
// Count].
type HotRow struct {
	Key   Key     `json:"key"`
	Count float64 `json:"count"`
	Error float64 `json:"error,omitempty"`
	// Bytes is the bytes read or written for the row while it was
	// counted.
	Bytes float64 `json:"bytes"`
}

// Repeated reports whether the row was certainly read (or written) more
// than once: a row a single scan returned is counted too, and after a
// scan of many rows the counter's last entries are such rows, with an
// error bound as large as their count. Only repeated rows are hot.
func (r HotRow) Repeated() bool { return r.Count-r.Error >= 2 }

// RepeatedRows returns the rows of a hot list that are [HotRow.Repeated],
// in its order: the hot rows every view lists.
func RepeatedRows(rows []HotRow) []HotRow {
	var out []HotRow
	for _, r := range rows {
		if r.Repeated() {
			out = append(out, r)
		}
	}
	return out
}

// HotScan is one of the most scanned key ranges: how many scans asked for
// [Start, End) (an over-estimate by at most Error) and how many rows
// they returned in all.
type HotScan struct {
	Start Key     `json:"start"`
	End   Key     `json:"end"`
	Count float64 `json:"count"`
	Error float64 `json:"error,omitempty"`
	Rows  float64 `json:"rows"`
}

// OpCounts are the traffic totals of a key range. An operation is one row
// named by a point read or a mutation, or one key range asked for by a
// scan; rows read are the rows the server returned to a read (ReadRows),
// rows written the rows a mutation changed. A ReadModifyWriteRow counts
// one row written and no row read, though it answers with the row it
// changed; a CheckAndMutateRow counts one row written when the branch it
// ran had mutations, and no row read (see [Builder.AddOp]).
type OpCounts struct {
	Ops          float64 `json:"ops"`
	PointReads   float64 `json:"point_reads"`
	Scans        float64 `json:"scans"`
	RowsRead     float64 `json:"rows_read"`
	BytesRead    float64 `json:"bytes_read"`
	RowsWritten  float64 `json:"rows_written"`
	BytesWritten float64 `json:"bytes_written"`
}

// Add folds other into c.
func (c *OpCounts) Add(other *OpCounts) {
	c.Ops += other.Ops
	c.PointReads += other.PointReads
	c.Scans += other.Scans
	c.RowsRead += other.RowsRead
	c.BytesRead += other.BytesRead
	c.RowsWritten += other.RowsWritten
	c.BytesWritten += other.BytesWritten
}

// subtract takes other away from c, clamping at 0 against float drift.
func (c *OpCounts) subtract(other *OpCounts) {
	for _, pair := range [][2]*float64{
		{&c.Ops, &other.Ops}, {&c.PointReads, &other.PointReads}, {&c.Scans, &other.Scans},
		{&c.RowsRead, &other.RowsRead}, {&c.BytesRead, &other.BytesRead},
		{&c.RowsWritten, &other.RowsWritten}, {&c.BytesWritten, &other.BytesWritten},
	} {
		*pair[0] = max(*pair[0]-*pair[1], 0)
	}
}

// Reads returns the read operations: point reads and scans.
func (c *OpCounts) Reads() float64 { return c.PointReads + c.Scans }

// NodeTraffic is the recorded traffic of one node's key range: totals,
// the bounds of the keys it touched, and histograms on the traffic time
// grid ([Traffic.BucketMicros]) of operations, rows and bytes read and
// rows and bytes written.
type NodeTraffic struct {
	OpCounts
	// FirstKey and LastKey bound the row keys the traffic named or got
	// back.
	FirstKey Key `json:"first_key"`
	LastKey  Key `json:"last_key"`
	// Methods counts the calls that named a row or range of the node, by
	// method.
	Methods []MethodCount `json:"methods,omitempty"`
	// Time holds the counts over time.
	Time TrafficHists `json:"time"`
	// Latency holds the latency of the calls that touched the node (nil
	// when no call carried one: recordings made before it was kept).
	Latency *NodeLatency `json:"latency,omitempty"`
}

// TrafficHists are a node's traffic counts on the traffic time grid
// ([Traffic.BucketMicros]).
type TrafficHists struct {
	Ops          TimeHist `json:"ops"`
	RowsRead     TimeHist `json:"rows_read"`
	BytesRead    TimeHist `json:"bytes_read"`
	RowsWritten  TimeHist `json:"rows_written"`
	BytesWritten TimeHist `json:"bytes_written"`
}

// hists returns the node's five histograms, for operations on all of
// them.
func (t *NodeTraffic) hists() [5]*TimeHist {
	h := &t.Time
	return [5]*TimeHist{&h.Ops, &h.RowsRead, &h.BytesRead, &h.RowsWritten, &h.BytesWritten}
}

// span returns the absolute traffic time buckets [first, last) the
// node's histograms of counts cover; ok is false when they are all empty.
func (t *NodeTraffic) span() (first, last int64, ok bool) {
	note := func(lo, hi int64) {
		if !ok {
			first, last, ok = lo, hi, true
			return
		}
		first, last = min(first, lo), max(last, hi)
	}
	for _, h := range t.hists() {
		if len(h.Counts) > 0 {
			note(h.First, h.Last())
		}
	}
	return first, last, ok
}

// extent returns the absolute traffic time buckets [first, last) the
// node's counts and latency cells cover together: a call that names no
// key (SampleRowKeys) has a latency but no count, and its cell may lie
// outside the counts' span.
func (t *NodeTraffic) extent() (first, last int64, ok bool) {
	first, last, ok = t.span()
	if t.Latency == nil {
		return first, last, ok
	}
	lo, hi, has := t.Latency.Time.Span()
	switch {
	case !has:
	case !ok:
		first, last, ok = lo*LatencyCellBuckets, hi*LatencyCellBuckets, true
	default:
		first, last = min(first, lo*LatencyCellBuckets), max(last, hi*LatencyCellBuckets)
	}
	return first, last, ok
}

// coverKey widens the key bounds to hold key.
func (t *NodeTraffic) coverKey(key string) {
	if t.LastKey == "" || key < string(t.FirstKey) {
		t.FirstKey = Key(key)
	}
	if key > string(t.LastKey) {
		t.LastKey = Key(key)
	}
}

// Merge folds other into t: counts add up, key bounds widen, histograms
// add bucket by bucket.
func (t *NodeTraffic) Merge(other *NodeTraffic) {
	t.OpCounts.Add(&other.OpCounts)
	if other.LastKey != "" {
		t.coverKey(string(other.FirstKey))
		t.coverKey(string(other.LastKey))
	}
	for _, m := range other.Methods {
		t.Methods = addMethod(t.Methods, m.Method, m.Calls, m.Errors)
	}
	mine, theirs := t.hists(), other.hists()
	for i := range mine {
		mine[i].merge(theirs[i])
	}
	if other.Latency != nil {
		if t.Latency == nil {
			t.Latency = &NodeLatency{}
		}
		t.Latency.Merge(other.Latency)
	}
}

// subtract takes other's counts, method counts and histograms away from
// t's (for the traffic of a node that its children do not hold), clamping
// at 0; a method left with no calls and no errors is dropped.
func (t *NodeTraffic) subtract(other *NodeTraffic) {
	t.OpCounts.subtract(&other.OpCounts)
	for _, m := range other.Methods {
		for i := range t.Methods {
			if mine := &t.Methods[i]; mine.Method == m.Method {
				mine.Calls, mine.Errors = max(mine.Calls-m.Calls, 0), max(mine.Errors-m.Errors, 0)
			}
		}
	}
	t.Methods = slices.DeleteFunc(t.Methods, func(m MethodCount) bool { return m.Calls == 0 && m.Errors == 0 })
	mine, theirs := t.hists(), other.hists()
	for i := range mine {
		mine[i].subtract(theirs[i])
	}
	if t.Latency != nil && other.Latency != nil {
		t.Latency.subtract(other.Latency)
	}
}

func (t *NodeTraffic) clone() *NodeTraffic {
	if t == nil {
		return nil
	}
	c := *t
	c.Methods = slices.Clone(t.Methods)
	mine, theirs := c.hists(), t.hists()
	for i := range mine {
		*mine[i] = theirs[i].clone()
	}
	c.Latency = t.Latency.clone()
	return &c
}

// addMethod adds calls and errors to method's entry of counts, keeping
// the list sorted by method name. A list holds a handful of methods, so a
// linear scan is the quickest search.
func addMethod(counts []MethodCount, method string, calls, errors float64) []MethodCount {
	// Most calls add to a method the node has, named by the same
	// constant: equality is a length and a pointer compared.
	for i := range counts {
		if counts[i].Method == method {
			counts[i].Calls += calls
			counts[i].Errors += errors
			return counts
		}
	}
	i := 0
	for ; i < len(counts) && counts[i].Method < method; i++ {
	}
	return slices.Insert(counts, i, MethodCount{Method: method, Calls: calls, Errors: errors})
}

// KeyBounds returns the smallest and largest row key the node is known
// to hold: keys a scan read or traffic touched. ok is false for a node
// that has seen neither.
func (n *Node) KeyBounds() (first, last Key, ok bool) {
	if n.Rows > 0 {
		first, last, ok = n.FirstKey, n.LastKey, true
	}
	if t := n.Traffic; t != nil && t.LastKey != "" {
		if !ok || t.FirstKey < first {
			first = t.FirstKey
		}
		if !ok || t.LastKey > last {
			last = t.LastKey
		}
		ok = true
	}
	return first, last, ok
}

// HasTrafficIn reports whether the recorded traffic under n reached the
// key range [start, end) (an empty end is the end of the table): a node
// inside the range was read, written or scanned, or a leaf across its
// bounds touched a key in it. Scans counted at a node wider than the
// range (of a range wider than any of its children) do not count: which
// keys they asked for is not kept.
func (n *Node) HasTrafficIn(start, end string) bool {
	t := n.Traffic
	if t == nil || (t.Ops == 0 && t.RowsRead == 0 && t.RowsWritten == 0) || !overlaps(n, start, end) {
		return false
	}
	if inside(string(n.Start), string(n.End), start, end) {
		return true
	}
	if n.IsLeaf() {
		return t.LastKey != "" && string(t.LastKey) >= start && (end == "" || string(t.FirstKey) < end)
	}
	return slices.ContainsFunc(n.Children, func(c *Node) bool { return c.HasTrafficIn(start, end) })
}

// Completeness says whether what the snapshot holds is complete: its scan
// finished and its recording, if any, was not cut off. why says what is
// incomplete and why, for every view to show ("" when complete).
func (s *Snapshot) Completeness() (complete bool, why string) {
	var reasons []string
	if !s.Scan.Complete && !s.TrafficOnly() {
		reasons = append(reasons, firstNonEmpty(s.Scan.Incomplete, "the scan stopped early"))
	}
	if s.Traffic != nil && (s.Traffic.Incomplete != "" || s.TrafficOnly() && !s.Scan.Complete) {
		reasons = append(reasons, firstNonEmpty(s.Traffic.Incomplete, s.Scan.Incomplete, IncompleteRecording))
	}
	return len(reasons) == 0, strings.Join(reasons, "; ")
}

// firstNonEmpty returns the first of texts that is not empty.
func firstNonEmpty(texts ...string) string {
	for _, t := range texts {
		if t != "" {
			return t
		}
	}
	return ""
}

// HasTraffic reports whether the snapshot holds a traffic recording.
func (s *Snapshot) HasTraffic() bool { return s != nil && s.Traffic != nil }

// TrafficOnly reports whether the snapshot is a traffic recording alone,
// with no scan of what the table stores joined to it: it has no rows,
// sizes or largest rows to show.
func (s *Snapshot) TrafficOnly() bool { return s.HasTraffic() && (s.Root == nil || s.Root.Rows == 0) }

// TrafficTotals returns the table's traffic totals (zero without a
// recording).
func (s *Snapshot) TrafficTotals() *OpCounts {
	if s.Root == nil || s.Root.Traffic == nil {
		return &OpCounts{}
	}
	return &s.Root.Traffic.OpCounts
}

// TrafficTime returns the start time of absolute traffic time bucket i.
func (s *Snapshot) TrafficTime(i int64) time.Time {
	if s.Traffic == nil {
		return time.Time{}
	}
	return time.UnixMicro(i * s.Traffic.BucketMicros).UTC()
}

func (t *Traffic) clone() *Traffic {
	if t == nil {
		return nil
	}
	c := *t
	c.Methods = slices.Clone(t.Methods)
	c.TopReads = slices.Clone(t.TopReads)
	c.TopWrites = slices.Clone(t.TopWrites)
	c.TopScans = slices.Clone(t.TopScans)
	if t.Merged != nil {
		m := *t.Merged
		m.Names, m.ClockOffsets, m.Notes = slices.Clone(m.Names), slices.Clone(m.ClockOffsets), slices.Clone(m.Notes)
		c.Merged = &m
	}
	return &c
}
