package keyspace

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// HotTabletSource says where a snapshot's hot tablets came from.
type HotTabletSource string

const (
	// HotTabletsBigtable are Cloud Bigtable's own: the instance admin
	// API's ListHotTablets.
	HotTabletsBigtable HotTabletSource = "bigtable"
	// HotTabletsSimulated are computed by btviz from recorded operations
	// on tablets cut the way Cloud Bigtable cuts them (the demo): every
	// view labels them simulated.
	HotTabletsSimulated HotTabletSource = "simulated"
)

// HotTablet is one sample of a hot tablet as ListHotTablets gives it: a
// tablet of a table on a cluster that used CPU percent of its node's CPU
// (reads and writes) on average from Start to End. StartKey and EndKey are
// both inclusive, as the API gives them; an empty EndKey is the end of the
// table. A tablet of one row ends at its key followed by a zero byte.
type HotTablet struct {
	Cluster  string    `json:"cluster"`
	Table    string    `json:"table"`
	StartKey Key       `json:"start_key"`
	EndKey   Key       `json:"end_key"`
	Start    time.Time `json:"start_time"`
	End      time.Time `json:"end_time"`
	CPU      float64   `json:"node_cpu_percent"`
}

// Range returns the tablet's key range as [start, end), end exclusive (""
// for the end of the table): the API's inclusive end key followed by a
// zero byte, the first key after it.
func (t *HotTablet) Range() (start, end string) {
	if t.EndKey == "" {
		return string(t.StartKey), ""
	}
	return string(t.StartKey), string(t.EndKey) + "\x00"
}

// OneRow returns the row of a tablet that holds one row: Cloud Bigtable
// gives such a tablet the row's key as its start and the key followed by
// a zero byte as its end.
func (t *HotTablet) OneRow() (Key, bool) {
	if t.EndKey != "" && string(t.EndKey) == string(t.StartKey)+"\x00" {
		return t.StartKey, true
	}
	return "", false
}

// Minutes returns how long the sample covers, at least a minute (the
// API's samples are one-minute averages).
func (t *HotTablet) Minutes() float64 {
	return max(t.End.Sub(t.Start).Minutes(), 1)
}

// HotTablets are the hot tablets of an instance (or, in a snapshot, of
// its table) over a window of time: what ListHotTablets answered for
// every cluster asked, or what the demo simulated.
type HotTablets struct {
	Source   HotTabletSource `json:"source"`
	Project  string          `json:"project"`
	Instance string          `json:"instance"`
	// Clusters are the clusters asked, sorted.
	Clusters []string `json:"clusters"`
	// From and To bound the window asked for.
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Note says how simulated hot tablets were computed.
	Note string `json:"note,omitempty"`
	// Tablets are the samples, the highest CPU first.
	Tablets []HotTablet `json:"tablets"`
}

// Simulated reports whether the hot tablets were simulated, not Cloud
// Bigtable's.
func (h *HotTablets) Simulated() bool { return h != nil && h.Source == HotTabletsSimulated }

// ForTable returns a copy of h holding only table's tablets.
func (h *HotTablets) ForTable(table string) *HotTablets {
	c := *h
	c.Clusters = slices.Clone(h.Clusters)
	c.Tablets = nil
	for _, t := range h.Tablets {
		if t.Table == table {
			c.Tablets = append(c.Tablets, t)
		}
	}
	return &c
}

// Tables returns the names of the tables with hot tablets, sorted.
func (h *HotTablets) Tables() []string {
	var names []string
	for _, t := range h.Tablets {
		names = append(names, t.Table)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Shown returns the cluster whose hot tablets the cpu metric draws: the
// only one, or the busiest (the most CPU-minutes over the window; by name
// on a tie). Node CPU is a share of one node of one cluster, so the
// clusters are drawn one at a time; the findings cover them all.
func (h *HotTablets) Shown() string {
	if h == nil {
		return ""
	}
	busy := map[string]float64{}
	for _, t := range h.Tablets {
		busy[t.Cluster] += t.CPU * t.Minutes()
	}
	best := ""
	for _, c := range slices.Sorted(maps.Keys(busy)) {
		if best == "" || busy[c] > busy[best] {
			best = c
		}
	}
	if best == "" && len(h.Clusters) > 0 {
		best = h.Clusters[0]
	}
	return best
}

// hotTabletBucketMicros is the width a hot-tablet time grid starts at:
// one minute, the API's sampling.
const hotTabletBucketMicros = int64(time.Minute / time.Microsecond)

// BucketMicros returns the width of the CPU time grid: a minute, doubled
// until the window fits [MaxTimeBuckets] buckets.
func (h *HotTablets) BucketMicros() int64 {
	from, to := h.window()
	span := max(to.Sub(from).Microseconds(), 1)
	w := hotTabletBucketMicros
	for (span+w-1)/w > MaxTimeBuckets-1 && w < maxTimeBucketMicros/2 {
		w *= 2
	}
	return w
}

// window returns the window asked for, widened to hold every sample.
func (h *HotTablets) window() (from, to time.Time) {
	from, to = h.From, h.To
	for _, t := range h.Tablets {
		if from.IsZero() || t.Start.Before(from) {
			from = t.Start
		}
		if end := t.Start.Add(time.Duration(t.Minutes() * float64(time.Minute))); end.After(to) {
			to = end
		}
	}
	return from, to
}

// cpuHist returns the sample's CPU on a grid of micros-wide buckets: per
// bucket, its CPU percent times the minutes of the sample in the bucket
// (percent-minutes, which add up over tablets and buckets).
func (t *HotTablet) cpuHist(micros int64) TimeHist {
	start := t.Start.UnixMicro()
	end := start + int64(t.Minutes()*float64(time.Minute/time.Microsecond))
	var h TimeHist
	for b := floorDiv(start, micros); b*micros < end; b++ {
		lo, hi := max(start, b*micros), min(end, (b+1)*micros)
		if hi > lo {
			h.add(b, t.CPU*float64(hi-lo)/float64(time.Minute/time.Microsecond))
		}
	}
	return h
}

// CPUSpan returns the absolute CPU time buckets [first, last) of the
// snapshot's hot tablets and the grid's width (all 0 without any).
func (s *Snapshot) CPUSpan() (first, last, micros int64) {
	if s.HotTablets == nil || s.Root == nil || s.Root.CPU == nil || len(s.Root.CPU.Counts) == 0 {
		return 0, 0, 0
	}
	return s.Root.CPU.First, s.Root.CPU.Last(), s.HotTablets.BucketMicros()
}

// CPUMinutes returns, on the grid of [Snapshot.CPUSpan], how many minutes
// of each bucket hold a sample of the shown cluster's hot tablets: the
// minutes the cpu metric averages over. Cloud Bigtable lists a tablet only
// for the minutes it was hot, and a window's samples may be sparse; a mean
// over every minute of a column would dilute a tablet that used 80% of its
// node in the sampled minutes to a few percent (nil without hot tablets).
func (s *Snapshot) CPUMinutes() *TimeHist {
	if s.HotTablets == nil {
		return nil
	}
	h := s.HotTablets
	cluster, micros := h.Shown(), h.BucketMicros()
	const minute = int64(time.Minute / time.Microsecond)
	sampled := map[int64]bool{}
	for i := range h.Tablets {
		t := &h.Tablets[i]
		if t.Cluster != cluster {
			continue
		}
		first := floorDiv(t.Start.UnixMicro(), minute)
		for m := range int64(math.Ceil(t.Minutes())) {
			sampled[first+m] = true
		}
	}
	hist := &TimeHist{}
	for _, m := range slices.Sorted(maps.Keys(sampled)) {
		hist.add(floorDiv(m*minute, micros), 1)
	}
	return hist
}

// HasHotTablets reports whether the snapshot holds hot tablets (whether
// or not any fell on its table).
func (s *Snapshot) HasHotTablets() bool { return s != nil && s.HotTablets != nil }

// HotTabletsOnly reports whether the snapshot holds hot tablets alone: no
// scan of what is stored, no recording; its tree is cut where the
// tablets begin and end.
func (s *Snapshot) HotTabletsOnly() bool {
	return s.HasHotTablets() && !s.HasTraffic() && (s.Root == nil || s.Root.Rows == 0)
}

// WithHotTablets returns a copy of snap holding hot's tablets of its table,
// with their CPU placed on its tree ([Node.CPU]): each tablet's on the
// nodes its key range meets, divided in proportion to the rows the scan
// found in each (the operations a recording saw, when there are no rows;
// alike, when there are neither), down to the leaves. Only the cluster
// [HotTablets.Shown] names is placed.
func WithHotTablets(snap *Snapshot, hot *HotTablets) *Snapshot {
	out := snap.Clone()
	out.HotTablets = hot.ForTable(snap.Table)
	out.placeHotTablets()
	return out
}

// placeHotTablets puts the CPU of the shown cluster's hot tablets on the
// tree, replacing what was there.
func (s *Snapshot) placeHotTablets() {
	if s.Root == nil || s.HotTablets == nil && s.Root.CPU == nil {
		return
	}
	s.Root.Walk(func(n *Node) bool { n.CPU = nil; return true })
	h := s.HotTablets
	if h == nil {
		return
	}
	s.Root.CPU = &TimeHist{}
	cluster, micros := h.Shown(), h.BucketMicros()
	for i := range h.Tablets {
		t := &h.Tablets[i]
		if t.Cluster != cluster {
			continue
		}
		hist := t.cpuHist(micros)
		start, end := t.Range()
		placeCPU(s.Root, start, end, &hist, 1)
	}
}

// placeCPU adds share of hist, the CPU of a tablet over [start, end), to
// n and divides it among n's children that meet the range.
func placeCPU(n *Node, start, end string, hist *TimeHist, share float64) {
	if n.CPU == nil {
		n.CPU = &TimeHist{}
	}
	for j, c := range hist.Counts {
		if c != 0 {
			n.CPU.add(hist.First+int64(j), c*share)
		}
	}
	if n.IsLeaf() {
		return
	}
	over := childrenMeeting(n, start, end)
	if len(over) == 0 {
		return // the tablet lies between n's children: n's own
	}
	weights := make([]float64, len(over)+1)
	for i, c := range over {
		weights[i] = rowsWithin(c, start, end)
	}
	if InRange(string(n.Prefix), start, end) {
		weights[len(over)] = n.RemainderRows() // rows keyed by the prefix itself
	}
	if allZero(weights) {
		for i, c := range over {
			if c.Traffic != nil {
				weights[i] = c.Traffic.Ops
			}
		}
	}
	if allZero(weights) {
		for i := range over {
			weights[i] = 1
		}
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	for i, c := range over {
		if weights[i] > 0 {
			placeCPU(c, start, end, hist, share*weights[i]/total)
		}
	}
}

// rowsWithin estimates the rows of n in [start, end): those of its nodes
// inside the range, and half of a leaf's whose rows straddle a bound
// (where they lie in it is not known).
func rowsWithin(n *Node, start, end string) float64 {
	switch {
	case n.Rows == 0 || !overlaps(n, start, end):
		return 0
	case inside(string(n.Start), string(n.End), start, end) || rowsInside(n, start, end):
		return n.Rows
	case !rowsMeet(n, start, end):
		return 0
	case n.IsLeaf():
		return n.Rows / 2
	}
	rows := n.RemainderRows()
	if !InRange(string(n.Prefix), start, end) {
		rows = 0
	}
	for _, c := range childrenMeeting(n, start, end) {
		rows += rowsWithin(c, start, end)
	}
	return rows
}

// RemainderCPU returns the CPU of n that none of its children holds (nil
// without hot tablets): a tablet that lies between its children, or its
// rows keyed by its prefix itself.
func (n *Node) RemainderCPU() *TimeHist {
	if n.CPU == nil {
		return nil
	}
	h := n.CPU.clone()
	for _, c := range n.Children {
		if c.CPU != nil {
			h.subtract(c.CPU)
		}
	}
	return &h
}

// HotTabletsSnapshot returns a snapshot of table that holds hot's tablets
// of it alone, with no scan: its tree is the table's key space cut where
// the tablets begin and end (a range node per piece, no rows), and each
// tablet's CPU is shared alike among the pieces it covers. It gives the
// cpu metric a key axis of its own; joined with a scan ([WithHotTablets]
// on the scan) the tablets are drawn on the scan's.
func HotTabletsSnapshot(hot *HotTablets, table string, source Source) *Snapshot {
	mine := hot.ForTable(table)
	var cuts []string
	for i := range mine.Tablets {
		start, end := mine.Tablets[i].Range()
		cuts = append(cuts, start)
		if end != "" {
			cuts = append(cuts, end)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	root := &Node{Kind: KindPrefix}
	for i, start := range cuts {
		end := ""
		if i+1 < len(cuts) {
			end = cuts[i+1]
		}
		// A gap between tablets has no node; the keys before the first
		// have one, so that the first tablet's label is its key, not
		// the table's start.
		if i == 0 && start != "" {
			root.Children = append(root.Children, &Node{Kind: KindRange, Start: "", End: Key(start), Depth: 1})
		}
		if !coveredByTablet(mine.Tablets, start, end) {
			continue
		}
		prefix := start
		if end != "" {
			prefix = CommonPrefix(start, end)
		}
		root.Children = append(root.Children, &Node{Kind: KindRange, Prefix: Key(prefix), Start: Key(start), End: Key(end), Depth: 1})
	}
	snap := &Snapshot{
		Source: source, Project: hot.Project, Instance: hot.Instance, Table: table,
		Scan:             ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true, Started: hot.To},
		TimeBucketMicros: initialBucketMicros,
		Root:             root,
		HotTablets:       mine,
	}
	snap.placeHotTablets()
	return snap
}

// coveredByTablet reports whether some tablet holds the piece [start, end).
func coveredByTablet(tablets []HotTablet, start, end string) bool {
	return slices.ContainsFunc(tablets, func(t HotTablet) bool {
		s, e := t.Range()
		return s <= start && !EndBefore(e, end)
	})
}

// sortHotTablets orders samples the highest CPU first, then by cluster,
// table, key and time, so that every list of them reads the same.
func sortHotTablets(tablets []HotTablet) {
	slices.SortStableFunc(tablets, func(a, b HotTablet) int {
		return cmp.Or(cmp.Compare(b.CPU, a.CPU), strings.Compare(a.Cluster, b.Cluster), strings.Compare(a.Table, b.Table),
			strings.Compare(string(a.StartKey), string(b.StartKey)), a.Start.Compare(b.Start))
	})
}

// NewHotTablets returns the hot tablets of a window with their samples
// sorted (the highest CPU first) and kept within [HotTabletsKept], their
// keys within [KeptKeyBytes] and their names within [MaxTextBytes]: what
// a snapshot file holds.
func NewHotTablets(h HotTablets) *HotTablets {
	h.Clusters = slices.Clone(h.Clusters)
	slices.Sort(h.Clusters)
	h.Clusters = slices.Compact(h.Clusters)
	h.Tablets = slices.Clone(h.Tablets)
	sortHotTablets(h.Tablets)
	if len(h.Tablets) > HotTabletsKept {
		h.Tablets = h.Tablets[:HotTabletsKept]
	}
	keyBytes := 0
	for i := range h.Tablets {
		t := &h.Tablets[i]
		t.Cluster, t.Table = cutText(t.Cluster), cutText(t.Table)
		t.StartKey, t.EndKey = Key(cutKey(string(t.StartKey))), Key(cutKey(string(t.EndKey)))
		if keyBytes += fileKeyBytes(string(t.StartKey)) + fileKeyBytes(string(t.EndKey)); keyBytes > RangeKeyBytes {
			h.Tablets = h.Tablets[:i] // the coolest samples of long keys go
			break
		}
	}
	for i := range h.Clusters {
		h.Clusters[i] = cutText(h.Clusters[i])
	}
	h.Project, h.Instance, h.Note = cutText(h.Project), cutText(h.Instance), cutText(h.Note)
	return &h
}

func (h *HotTablets) clone() *HotTablets {
	if h == nil {
		return nil
	}
	c := *h
	c.Clusters = slices.Clone(h.Clusters)
	c.Tablets = slices.Clone(h.Tablets)
	return &c
}
