package heatmap

import (
	"errors"
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Matrix is a heatmap's data: key buckets (rows, in key order, tiling the
// view's key range) against time columns or a single metric column. It is
// a plain value made by [Build] and read by the renderers and the TUI.
type Matrix struct {
	// View is the view as built, with defaults filled in.
	View View
	// Table names the snapshot's table.
	Table string
	// Anchor is the tree node the view's units come from: the view's node
	// after single-child chains are skipped, or the deepest node holding
	// an explicit range.
	Anchor *keyspace.Node
	// Start and End are the key range the buckets tile.
	Start, End keyspace.Key
	// SharedPrefix is what the buckets' short labels are written
	// without: the anchor's prefix, or, when every key in the view shares
	// [longSharedPrefix] or more bytes beyond it (a 110-byte namespace,
	// say), that shared prefix but its last few bytes, so that the labels
	// show where the keys differ; such labels start with "…".
	SharedPrefix keyspace.Key
	Buckets      []Bucket
	// Time is the time axis; Time.Columns is 0 when the matrix has one
	// column per bucket.
	Time TimeAxis
	// Max is the largest value and MinPositive the smallest value above
	// zero (both 0 when every value is 0).
	Max, MinPositive float64
	// Traffic is set when the metric reads the snapshot's traffic
	// recording rather than what a scan stored ([Metric.FromTraffic]).
	Traffic bool
	// CallTime is set when the time axis is the time of calls or of hot
	// tablets' samples, not the write time of stored cells
	// ([Metric.OnCallTime]).
	CallTime bool
	// MetricText says what a cell holds ([Metric.DescriptionFor]).
	MetricText string
}

// Description says what a cell holds ([Metric.DescriptionFor]).
func (m *Matrix) Description() string {
	if m.MetricText != "" {
		return m.MetricText
	}
	return m.View.Metric.DescriptionOn(m.Traffic)
}

// Columns returns the number of values per bucket.
func (m *Matrix) Columns() int { return max(m.Time.Columns, 1) }

// Timed reports whether the matrix has a time axis.
func (m *Matrix) Timed() bool { return m.Time.Columns > 0 }

// Value returns bucket b's value in column c (0 outside the matrix).
func (m *Matrix) Value(b, c int) float64 {
	if b < 0 || b >= len(m.Buckets) || c < 0 || c >= len(m.Buckets[b].Values) {
		return 0
	}
	return m.Buckets[b].Values[c]
}

// BucketTotal returns bucket b's value over the whole time axis: the sum
// of its columns, or their mean for [MetricWriteShare] (a share of each
// column's writes); its one value when the matrix has no time axis.
func (m *Matrix) BucketTotal(b int) float64 {
	if b < 0 || b >= len(m.Buckets) {
		return 0
	}
	values := m.Buckets[b].Values
	if !m.Timed() {
		return m.Value(b, 0)
	}
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	if m.View.Metric == MetricWriteShare {
		return sum / float64(max(len(values), 1))
	}
	return sum
}

// Build makes the matrix of view v over snap. It fails on a nil or empty
// snapshot, an invalid view, or [BucketTablets] on a snapshot without a
// tablet map ([ErrNoTablets]).
func Build(snap *keyspace.Snapshot, v View) (*Matrix, error) {
	if snap == nil || snap.Root == nil {
		return nil, errors.New("building a heatmap: the snapshot has no prefix tree; scan the table again")
	}
	v, err := v.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("building a heatmap of table %s: %w", escape.Quote(snap.Table), err)
	}
	if why := v.Metric.Unavailable(snap); why != "" {
		return nil, fmt.Errorf("building a heatmap of table %s: %s; this snapshot's metrics are %s",
			escape.Quote(snap.Table), why, units.OrList(MetricsFor(snap)))
	}
	ms := v.Metric.on(snap)
	sc := resolve(snap.Root, v)
	grid := newTimeGrid(snap, ms)
	table := tableAmounts(snap, ms)

	var us []unit
	var starts []int
	switch v.Bucketing {
	case BucketPrefix:
		us = prefixUnits(sc, v.Depth, v.Rows)
		starts = mergeSmallest(unitValues(us, ms, table), v.Metric.additive(), v.Rows)
	case BucketEven:
		us = evenUnits(sc, v.Rows, ms.traffic)
		starts = evenStarts(us, v.Rows, ms.traffic)
	case BucketHeat:
		us = prefixUnits(sc, v.Depth, v.Rows)
		starts = heatStarts(unitValues(us, ms, table), v.Metric.additive(), v.Rows)
	case BucketTablets:
		us, err = tabletUnits(snap, sc, grid, ms)
		if err != nil {
			return nil, fmt.Errorf("building a heatmap: %w", err)
		}
		starts = mergeSmallest(unitValues(us, ms, table), v.Metric.additive(), v.Rows)
	}
	if len(us) == 0 {
		empty := &keyspace.Stats{}
		us = []unit{{kind: unitEmpty, start: sc.start, end: sc.end, stats: empty, writes: &keyspace.TimeHist{}}}
		starts = []int{0}
	}

	m := &Matrix{View: v, Table: snap.Table, Anchor: sc.anchor, Start: keyspace.Key(sc.start), End: keyspace.Key(sc.end), Traffic: ms.traffic,
		CallTime: v.Metric.OnCallTime(snap), MetricText: v.Metric.DescriptionFor(snap),
		SharedPrefix: keyspace.Key(sharedPrefix(sc, us))}
	if v.Metric.Timed() && v.Columns > 0 && grid.buckets > 0 {
		columns := v.Columns
		if ms.traffic || ms.cpu {
			// One column per traffic bucket while they fit: a live
			// recording gains a column on the right as each bucket of
			// time starts, as Key Visualizer's live view does.
			columns = min(columns, grid.buckets)
		}
		if v.Metric.Latency() {
			// Latencies are kept per cell of a few traffic buckets: a
			// column holds one or more cells, never a part of one.
			columns = min(columns, (grid.buckets+keyspace.LatencyCellBuckets-1)/keyspace.LatencyCellBuckets)
		}
		m.Time = grid.axis(columns)
	}
	m.Buckets = makeBuckets(us, starts, sc, m.Columns())
	labelBuckets(m, us, starts, snap.Delimiters)
	fillValues(m, us, starts, grid, ms, table)
	return m, nil
}

// tableAmounts returns the whole table's amounts and the measure's
// histogram of them, for shares.
func tableAmounts(snap *keyspace.Snapshot, ms measure) amounts {
	a := amounts{stats: snap.Totals()}
	if snap.HasTraffic() {
		a.traffic = snap.TrafficTotals()
	}
	root := nodeUnit(snap.Root)
	a.hist = ms.hist(&root)
	return a
}

// unitAmounts returns what measure ms reads of a unit.
func unitAmounts(u *unit, ms measure) amounts {
	a := amounts{stats: u.stats, cpu: u.cpuTotal()}
	if ms.metric.Latency() {
		a.latency = u.latency()
	}
	if u.traffic != nil {
		a.traffic = &u.traffic.OpCounts
	}
	return a
}

// unitValues returns the metric of each unit, the weights the prefix,
// heat and tablet bucketings merge by.
func unitValues(us []unit, ms measure, table amounts) []float64 {
	values := make([]float64, len(us))
	for i := range us {
		values[i] = ms.scalar(unitAmounts(&us[i], ms), table)
	}
	return values
}

// longSharedPrefix is how many bytes (escaped) the keys of a view must
// share beyond its anchor's prefix for labels to leave them out: a few
// shared bytes read as part of each key (the leading digits of a
// timestamp), a long run hides what tells the keys apart in a label
// gutter a couple of dozen cells wide.
const longSharedPrefix = 12

// sharedPrefixContext is how many bytes of a long shared prefix the
// labels keep before where the keys differ, so that "…x00420017" still
// shows what the digits follow.
const sharedPrefixContext = 4

// sharedPrefix returns the prefix the view's short labels are written
// without (see [Matrix.SharedPrefix]).
func sharedPrefix(sc scope, us []unit) string {
	var first, last string
	seen := false
	for i := range us {
		s := us[i].stats
		if s.Rows <= 0 {
			continue
		}
		if !seen || string(s.FirstKey) < first {
			first = string(s.FirstKey)
		}
		if !seen || string(s.LastKey) > last {
			last = string(s.LastKey)
		}
		seen = true
	}
	anchor := string(sc.anchor.Prefix)
	if !seen {
		return anchor
	}
	shared := keyspace.CommonPrefix(first, last)
	if !strings.HasPrefix(shared, anchor) || len(keyspace.Printable(shared[len(anchor):])) < longSharedPrefix {
		return anchor
	}
	return shared[:len(shared)-sharedPrefixContext]
}

// makeBuckets aggregates each group of units (group k starts at unit
// starts[k]) into a bucket whose range tiles the scope.
func makeBuckets(units []unit, starts []int, sc scope, columns int) []Bucket {
	buckets := make([]Bucket, len(starts))
	values := make([]float64, len(starts)*columns)
	for k := range buckets {
		group := units[starts[k]:groupEnd(starts, k, len(units))]
		b := &buckets[k]
		for i := range group {
			b.Stats.Merge(group[i].stats)
			if t := group[i].traffic; t != nil {
				b.Traffic.Add(&t.OpCounts)
			}
			if l := group[i].latency(); l != nil {
				b.Latency.Merge(l, keyspace.LatencyWholeBins)
			}
			b.CPU += group[i].cpuTotal()
		}
		b.Units = len(group)
		if len(group) == 1 && group[0].kind == unitNode {
			b.Node = group[0].node
		}
		start := sc.start
		if k > 0 {
			start = max(group[0].start, sc.start)
		}
		b.Start = keyspace.Key(start)
		b.Values = values[k*columns : (k+1)*columns : (k+1)*columns]
	}
	for k := range buckets {
		if k+1 < len(buckets) {
			buckets[k].End = buckets[k+1].Start
		} else {
			buckets[k].End = keyspace.Key(sc.end)
		}
	}
	return buckets
}

// groupEnd returns one past the last unit of group k.
func groupEnd(starts []int, k, units int) int {
	if k+1 < len(starts) {
		return starts[k+1]
	}
	return units
}

// fillValues computes every bucket's values and the matrix's extremes.
func fillValues(m *Matrix, us []unit, starts []int, grid timeGrid, ms measure, table amounts) {
	metric := m.View.Metric
	switch {
	case m.Timed() && metric.Latency():
		fillLatency(m, us, starts, grid)
	case m.Timed():
		rebin := newRebinner(grid.buckets, m.Time.Columns)
		dense := make([]float64, grid.buckets)
		var tableColumns []float64
		if metric == MetricWriteShare {
			grid.accumulate(dense, table.hist)
			tableColumns = make([]float64, m.Time.Columns)
			rebin.apply(dense, tableColumns)
		}
		var cpuMinutes []float64
		if ms.cpu && ms.minutes != nil {
			clear(dense)
			grid.accumulate(dense, ms.minutes)
			cpuMinutes = make([]float64, m.Time.Columns)
			rebin.apply(dense, cpuMinutes)
		}
		for k := range m.Buckets {
			clear(dense)
			for i := starts[k]; i < groupEnd(starts, k, len(us)); i++ {
				grid.accumulate(dense, ms.hist(&us[i]))
			}
			values := m.Buckets[k].Values
			rebin.apply(dense, values)
			for j := range tableColumns {
				values[j] = share(values[j], tableColumns[j])
			}
			for j := range cpuMinutes {
				// Percent-minutes to the mean percent over the
				// column's sampled minutes.
				if cpuMinutes[j] > 0 {
					values[j] /= cpuMinutes[j]
				}
			}
		}
	default:
		for k := range m.Buckets {
			b := &m.Buckets[k]
			var latency *keyspace.LatencySketch
			if !b.Latency.Empty() {
				latency = &b.Latency
			}
			m.Buckets[k].Values[0] = ms.scalar(amounts{stats: &b.Stats, traffic: &b.Traffic, latency: latency, cpu: b.CPU}, table)
		}
	}
	for k := range m.Buckets {
		for _, v := range m.Buckets[k].Values {
			m.Max = max(m.Max, v)
			if v > 0 && (m.MinPositive == 0 || v < m.MinPositive) {
				m.MinPositive = v
			}
		}
	}
}

// fillLatency sets each bucket's median (or maximum) latency per time
// column: the sketches of the bucket's units in the latency cells whose
// middle falls in the column, merged.
func fillLatency(m *Matrix, us []unit, starts []int, grid timeGrid) {
	columns := m.Time.Columns
	column := func(g int) int { return min((2*g+1)*columns/(2*grid.buckets), columns-1) }
	cells := make([]keyspace.LatencySketch, columns)
	for k := range m.Buckets {
		for j := range cells {
			cells[j] = keyspace.LatencySketch{}
		}
		for i := starts[k]; i < groupEnd(starts, k, len(us)); i++ {
			t := us[i].traffic
			if t == nil || t.Latency == nil {
				continue
			}
			h := &t.Latency.Time
			for j := range h.Cells {
				// The cell's middle, on the grid of traffic buckets.
				g := int(h.Cells[j].Bucket*keyspace.LatencyCellBuckets + keyspace.LatencyCellBuckets/2 - grid.first)
				g = min(max(g, 0), grid.buckets-1)
				if !h.Cells[j].Empty() {
					cells[column(g)].Merge(&h.Cells[j].LatencySketch, keyspace.LatencyCellBins)
				}
			}
		}
		values := m.Buckets[k].Values
		for j := range cells {
			switch {
			case cells[j].Empty():
				values[j] = 0
			case m.View.Metric == MetricLatencyMax:
				values[j] = cells[j].MaxNs
			default:
				values[j] = float64(cells[j].Median())
			}
		}
	}
}
