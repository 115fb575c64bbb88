package heatmap

import (
	"errors"
	"fmt"
	"strings"

	"github.com/btviz/btviz/keyspace"
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

// Build makes the matrix of view v over snap. It fails on a nil or empty
// snapshot, an invalid view, or [BucketTablets] on a snapshot without a
// tablet map ([ErrNoTablets]).
func Build(snap *keyspace.Snapshot, v View) (*Matrix, error) {
	if snap == nil || snap.Root == nil {
		return nil, errors.New("building a heatmap: the snapshot has no prefix tree; scan the table again")
	}
	v, err := v.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("building a heatmap of table %q: %w", snap.Table, err)
	}
	sc := resolve(snap.Root, v)
	grid := newTimeGrid(snap)
	table := snap.Totals()

	var units []unit
	var starts []int
	switch v.Bucketing {
	case BucketPrefix:
		units = prefixUnits(sc, v.Depth)
		starts = mergeSmallest(unitValues(units, v.Metric, table), v.Metric.additive(), v.Rows)
	case BucketEven:
		units = evenUnits(sc, v.Rows)
		starts = evenStarts(units, v.Rows)
	case BucketHeat:
		units = prefixUnits(sc, v.Depth)
		starts = heatStarts(unitValues(units, v.Metric, table), v.Metric.additive(), v.Rows)
	case BucketTablets:
		units, err = tabletUnits(snap, sc, grid)
		if err != nil {
			return nil, fmt.Errorf("building a heatmap: %w", err)
		}
		starts = mergeSmallest(unitValues(units, v.Metric, table), v.Metric.additive(), v.Rows)
	}
	if len(units) == 0 {
		empty := &keyspace.Stats{}
		units = []unit{{kind: unitEmpty, start: sc.start, end: sc.end, stats: empty, writes: &keyspace.TimeHist{}}}
		starts = []int{0}
	}

	m := &Matrix{View: v, Table: snap.Table, Anchor: sc.anchor, Start: keyspace.Key(sc.start), End: keyspace.Key(sc.end),
		SharedPrefix: keyspace.Key(sharedPrefix(sc, units))}
	if v.Metric.Timed() && v.Columns > 0 && grid.buckets > 0 {
		m.Time = grid.axis(v.Columns)
	}
	m.Buckets = makeBuckets(units, starts, sc, string(m.SharedPrefix), m.Columns())
	fillValues(m, units, starts, grid, snap)
	return m, nil
}

// unitValues returns the metric of each unit, the weights the prefix,
// heat and tablet bucketings merge by.
func unitValues(units []unit, metric Metric, table *keyspace.Stats) []float64 {
	values := make([]float64, len(units))
	for i := range units {
		values[i] = metric.scalar(units[i].stats, table)
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
// labels keep before where the keys differ, so that "…x0042[0-3]" still
// shows what the digits follow.
const sharedPrefixContext = 4

// sharedPrefix returns the prefix the view's short labels are written
// without (see [Matrix.SharedPrefix]).
func sharedPrefix(sc scope, units []unit) string {
	var first, last string
	seen := false
	for i := range units {
		s := units[i].stats
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
// starts[k]) into a bucket whose range tiles the scope, with short labels
// written without viewPrefix.
func makeBuckets(units []unit, starts []int, sc scope, viewPrefix string, columns int) []Bucket {
	buckets := make([]Bucket, len(starts))
	values := make([]float64, len(starts)*columns)
	for k := range buckets {
		group := units[starts[k]:groupEnd(starts, k, len(units))]
		b := &buckets[k]
		for i := range group {
			b.Stats.Merge(group[i].stats)
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
		b.Label, b.ShortLabel = bucketLabels(group, &b.Stats, start, viewPrefix, string(sc.anchor.Prefix))
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
func fillValues(m *Matrix, units []unit, starts []int, grid timeGrid, snap *keyspace.Snapshot) {
	metric := m.View.Metric
	if m.Timed() {
		rebin := newRebinner(grid.buckets, m.Time.Columns)
		dense := make([]float64, grid.buckets)
		var tableColumns []float64
		if metric == MetricWriteShare {
			grid.accumulate(dense, &snap.Root.Writes)
			tableColumns = make([]float64, m.Time.Columns)
			rebin.apply(dense, tableColumns)
		}
		for k := range m.Buckets {
			clear(dense)
			for _, u := range units[starts[k]:groupEnd(starts, k, len(units))] {
				grid.accumulate(dense, u.writes)
			}
			values := m.Buckets[k].Values
			rebin.apply(dense, values)
			for j := range tableColumns {
				values[j] = share(values[j], tableColumns[j])
			}
		}
	} else {
		for k := range m.Buckets {
			m.Buckets[k].Values[0] = metric.scalar(&m.Buckets[k].Stats, snap.Totals())
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
