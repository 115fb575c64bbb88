package heatmap

import (
	"github.com/btviz/btviz/keyspace"
)

// unitKind says what a [unit] stands for.
type unitKind uint8

const (
	unitNode      unitKind = iota // a tree node
	unitRemainder                 // rows of a node that none of its children holds
	unitTablet                    // a SampleRowKeys range
	unitEmpty                     // a key range without rows
)

// unit is the smallest piece of key space a bucketing mode places: its key
// range starts at start and ends where the next unit starts.
type unit struct {
	kind   unitKind
	node   *keyspace.Node // the node, or the remainder's parent
	start  string
	end    string // the unit's own end ("" for the end of the table)
	stats  *keyspace.Stats
	writes *keyspace.TimeHist
}

func nodeUnit(n *keyspace.Node) unit {
	return unit{kind: unitNode, node: n, start: string(n.Start), end: string(n.End), stats: &n.Stats, writes: &n.Writes}
}

// remainderSlack is the relative row count below which a node's children
// are taken to hold all its rows (float sums of weighted rows drift).
const remainderSlack = 1e-9

// remainderRows returns the rows of n that no child holds: rows whose key
// is the node's prefix itself, or that the tree's depth limit kept there.
func remainderRows(n *keyspace.Node) float64 {
	if n.IsLeaf() {
		return 0
	}
	rows := n.Rows
	for _, c := range n.Children {
		rows -= c.Rows
	}
	if rows <= remainderSlack*max(n.Rows, 1) {
		return 0
	}
	return rows
}

// remainderUnit builds the unit for the rows of n that no child holds. Its
// rows are placed before the first child, where a row keyed by the prefix
// itself sorts.
func remainderUnit(n *keyspace.Node) unit {
	stats := keyspace.Stats{
		Rows: n.Rows, Cells: n.Cells, Bytes: n.Bytes, ValueBytes: n.ValueBytes, KeyBytes: n.KeyBytes, Columns: n.Columns,
		FirstWrite: n.FirstWrite, LastWrite: n.LastWrite, FamilyMask: append([]uint64(nil), n.FamilyMask...),
	}
	var childMax keyspace.Stats
	for _, c := range n.Children {
		stats.Rows -= c.Rows
		stats.Cells -= c.Cells
		stats.Bytes -= c.Bytes
		stats.ValueBytes -= c.ValueBytes
		stats.KeyBytes -= c.KeyBytes
		stats.Columns -= c.Columns
		childMax.MaxRowBytes = max(childMax.MaxRowBytes, c.MaxRowBytes)
		childMax.MaxRowCells = max(childMax.MaxRowCells, c.MaxRowCells)
		childMax.MaxRowColumns = max(childMax.MaxRowColumns, c.MaxRowColumns)
		childMax.MaxCellBytes = max(childMax.MaxCellBytes, c.MaxCellBytes)
		childMax.MaxVersions = max(childMax.MaxVersions, c.MaxVersions)
		childMax.MaxKeyBytes = max(childMax.MaxKeyBytes, c.MaxKeyBytes)
	}
	clampZero(&stats.Cells, &stats.Bytes, &stats.ValueBytes, &stats.KeyBytes, &stats.Columns)
	// A maximum above every child's must be the remainder's; otherwise it
	// is unknown but no larger than the children's, so 0 keeps it honest.
	keepIfAbove := func(parent, child int64) int64 {
		if parent > child {
			return parent
		}
		return 0
	}
	stats.MaxRowBytes = keepIfAbove(n.MaxRowBytes, childMax.MaxRowBytes)
	stats.MaxRowCells = keepIfAbove(n.MaxRowCells, childMax.MaxRowCells)
	stats.MaxRowColumns = keepIfAbove(n.MaxRowColumns, childMax.MaxRowColumns)
	stats.MaxCellBytes = keepIfAbove(n.MaxCellBytes, childMax.MaxCellBytes)
	stats.MaxVersions = keepIfAbove(n.MaxVersions, childMax.MaxVersions)
	stats.MaxKeyBytes = keepIfAbove(n.MaxKeyBytes, childMax.MaxKeyBytes)
	first := n.FirstKey
	if first >= n.Children[0].Start {
		first = n.Prefix
	}
	stats.FirstKey, stats.LastKey = first, first

	writes := keyspace.TimeHist{First: n.Writes.First, Counts: append([]float64(nil), n.Writes.Counts...)}
	for _, c := range n.Children {
		for j, count := range c.Writes.Counts {
			if k := c.Writes.First + int64(j) - writes.First; k >= 0 && k < int64(len(writes.Counts)) {
				writes.Counts[k] -= count
			}
		}
	}
	for j := range writes.Counts {
		clampZero(&writes.Counts[j])
	}
	return unit{kind: unitRemainder, node: n, start: string(n.Start), end: string(n.Children[0].Start), stats: &stats, writes: &writes}
}

// clampZero sets values that float subtraction left slightly negative to 0.
func clampZero(values ...*float64) {
	for _, v := range values {
		if *v < 0 {
			*v = 0
		}
	}
}

// childUnits returns the units n splits into: the remainder (if any) and
// the children, in key order.
func childUnits(n *keyspace.Node, out []unit) []unit {
	if remainderRows(n) > 0 {
		out = append(out, remainderUnit(n))
	}
	for _, c := range n.Children {
		out = append(out, nodeUnit(c))
	}
	return out
}

// collectUnits lists the units under the scope's anchor in key order. A
// unit with children is split further when split says so, or when it
// straddles a bound of a clipped scope; units outside the scope are left
// out. level is 1 for the anchor's children.
func collectUnits(sc scope, split func(u *unit, level int) bool) []unit {
	if sc.anchor.IsLeaf() {
		return []unit{nodeUnit(sc.anchor)}
	}
	var units []unit
	var walk func(n *keyspace.Node, level int)
	walk = func(n *keyspace.Node, level int) {
		for _, u := range childUnits(n, nil) {
			if !overlaps(u.start, u.end, sc.start, sc.end) {
				continue
			}
			inside := !sc.clipped || (u.start >= sc.start && !keyspace.EndBefore(sc.end, u.end))
			if u.kind == unitNode && !u.node.IsLeaf() && (!inside || split(&u, level)) {
				walk(u.node, level+1)
				continue
			}
			units = append(units, u)
		}
	}
	walk(sc.anchor, 1)
	return units
}

// overlaps reports whether [aStart, aEnd) and [bStart, bEnd) share a key,
// with "" as an end meaning the end of the table.
func overlaps(aStart, aEnd, bStart, bEnd string) bool {
	return (bEnd == "" || aStart < bEnd) && (aEnd == "" || bStart < aEnd)
}
