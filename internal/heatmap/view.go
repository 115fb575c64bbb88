package heatmap

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
)

// View asks for one matrix: which key range, how to bucket it, what to
// measure and how large. The zero value of each field picks a default, so
// View{Rows: 40, Columns: 120} is the whole table's writes over time in
// even buckets.
type View struct {
	// Node is the tree node whose key range the view shows. When nil the
	// view is the explicit range [Start, End) (empty End: the end of the
	// table); both empty is the whole table.
	Node       *keyspace.Node
	Start, End keyspace.Key
	// Depth is how many prefix levels below the view's node the units of
	// [BucketPrefix] and [BucketHeat] lie (default 1: the children). A
	// node with a single child does not count as a level, so a table
	// whose keys all start with "user#" shows its users at depth 1.
	Depth int
	// Bucketing picks how key ranges become rows (default [BucketEven]).
	Bucketing Bucketing
	// Metric picks what a cell measures (default [MetricWrites]).
	Metric Metric
	// Rows is the most key buckets wanted; it must be at least 1.
	Rows int
	// Columns is the number of time columns wanted for a timed metric
	// ([Metric.Timed]); 0, or an untimed metric, gives one column.
	Columns int
}

// withDefaults fills the zero fields and checks the rest.
func (v View) withDefaults() (View, error) {
	if v.Bucketing == "" {
		v.Bucketing = BucketEven
	}
	if v.Metric == "" {
		v.Metric = MetricWrites
	}
	if v.Depth <= 0 {
		v.Depth = 1
	}
	if !v.Metric.valid() {
		_, err := ParseMetric(string(v.Metric))
		return v, err
	}
	if !v.Bucketing.valid() {
		_, err := ParseBucketing(string(v.Bucketing))
		return v, err
	}
	if v.Rows < 1 {
		return v, fmt.Errorf("view of %d key rows: ask for at least one row", v.Rows)
	}
	if v.Columns < 0 {
		return v, fmt.Errorf("view of %d time columns: ask for zero (no time axis) or more", v.Columns)
	}
	if v.Node == nil && v.End != "" && v.Start >= v.End {
		return v, fmt.Errorf("key range [%v, %v) is empty: the start must come before the end", v.Start, v.End)
	}
	return v, nil
}

// scope is a resolved view: the node the units come from and the key range
// the buckets tile.
type scope struct {
	anchor     *keyspace.Node
	start, end string
	// clipped is true for an explicit range narrower than the anchor:
	// units straddling its bounds are split further.
	clipped bool
}

// resolve finds the node a view hangs from. A node view skips down single
// child chains; a range view picks the deepest node holding the range.
func resolve(root *keyspace.Node, v View) scope {
	if v.Node != nil {
		n := skipChain(v.Node)
		return scope{anchor: n, start: string(n.Start), end: string(n.End)}
	}
	start, end := string(v.Start), string(v.End)
	anchor := root
	for _, n := range root.Find(start) {
		if string(n.Start) <= start && !keyspace.EndBefore(string(n.End), end) {
			anchor = n
		}
	}
	if start <= string(anchor.Start) && end == string(anchor.End) {
		anchor = skipChain(anchor)
		return scope{anchor: anchor, start: string(anchor.Start), end: string(anchor.End)}
	}
	return scope{anchor: anchor, start: start, end: end, clipped: true}
}

// skipChain descends while a node's only content is one child that can
// itself be split: such a level adds a row that says nothing.
func skipChain(n *keyspace.Node) *keyspace.Node {
	for len(n.Children) == 1 && !n.Children[0].IsLeaf() && !n.HasRemainder() {
		n = n.Children[0]
	}
	return n
}
