package keyspace

import "sort"

// RangeStats aggregates the rows of the tree under root whose keys lie in
// [start, end) (an empty end is the end of the table), using only what
// the tree recorded: whole nodes that lie inside the range, and nodes
// whose rows read (FirstKey to LastKey) all lie inside it. exact is false
// when some rows could not be placed: a merged range, or rows a prefix
// node holds beyond its children, that straddle a bound of the range. The
// counts are then a lower bound, missing those rows.
func RangeStats(root *Node, start, end string) (stats Stats, exact bool) {
	exact = true
	if root == nil {
		return stats, exact
	}
	var visit func(n *Node)
	visit = func(n *Node) {
		if n.Rows == 0 || !overlaps(n, start, end) {
			return
		}
		if inside(string(n.Start), string(n.End), start, end) || rowsInside(n, start, end) {
			stats.merge(&n.Stats)
			return
		}
		if !rowsMeet(n, start, end) {
			return
		}
		if n.IsLeaf() {
			exact = false
			return
		}
		var held float64
		for _, child := range n.Children {
			held += child.Rows
		}
		if n.Rows-held > rowsTolerance {
			exact = false // rows that no child represents may lie on either side
		}
		for _, child := range childrenMeeting(n, start, end) {
			visit(child)
		}
	}
	visit(root)
	return stats, exact
}

// rowsTolerance absorbs the rounding of weighted (sampled) row counts when
// a node's rows are compared with the sum of its children's.
const rowsTolerance = 1e-6

// overlaps reports whether the node's key range meets [start, end).
func overlaps(n *Node, start, end string) bool {
	return (end == "" || string(n.Start) < end) && (n.End == "" || start < string(n.End))
}

// inside reports whether [lo, hi) lies within [start, end), "" ends
// meaning the end of the table.
func inside(lo, hi, start, end string) bool {
	return lo >= start && !EndBefore(end, hi)
}

// rowsInside reports whether every row the node read lies in [start, end).
func rowsInside(n *Node, start, end string) bool {
	return InRange(string(n.FirstKey), start, end) && InRange(string(n.LastKey), start, end)
}

// rowsMeet reports whether the span of keys the node read, from FirstKey
// to LastKey, meets [start, end): when it does not, none of its rows is
// in the range.
func rowsMeet(n *Node, start, end string) bool {
	return (end == "" || string(n.FirstKey) < end) && string(n.LastKey) >= start
}

// childrenMeeting returns the run of n's children (sorted and disjoint)
// whose ranges meet [start, end).
func childrenMeeting(n *Node, start, end string) []*Node {
	children := n.Children
	first := sort.Search(len(children), func(i int) bool {
		return children[i].End == "" || start < string(children[i].End)
	})
	last := first
	for last < len(children) && (end == "" || string(children[last].Start) < end) {
		last++
	}
	return children[first:last]
}
