package keyspace

// remainderSlack is the relative row count below which a node's children
// are taken to hold all its rows (float sums of weighted rows drift).
const remainderSlack = 1e-9

// RemainderRows returns the rows of n that none of its children holds:
// rows whose key is the node's prefix itself, or that the tree's depth
// limit kept at n. It is 0 for a leaf.
func (n *Node) RemainderRows() float64 {
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

// HasRemainder reports whether n holds rows or traffic that none of its
// children does: rows keyed by its prefix itself, rows the depth limit
// kept there, or scans of ranges wider than one child.
func (n *Node) HasRemainder() bool {
	if n.IsLeaf() {
		return false
	}
	if n.RemainderRows() > 0 {
		return true
	}
	if n.Traffic == nil {
		return false
	}
	ops := n.Traffic.Ops
	for _, c := range n.Children {
		if c.Traffic != nil {
			ops -= c.Traffic.Ops
		}
	}
	return ops > remainderSlack*max(n.Traffic.Ops, 1)
}

// Remainder returns the aggregate, the write histogram and the traffic of
// the rows of n that none of its children holds (see
// [Node.RemainderRows]): n's counts minus its children's, clamped at 0
// against float drift. The traffic left (nil without a recording) also
// holds the scans that asked for a range wider than any one child. A
// maximum of n's is kept only where it exceeds every child's (then it
// must be the remainder's); otherwise it is unknown but no larger than
// the children's, reported as 0. Its first and last key are n's prefix,
// where a row keyed by the prefix itself sorts.
func (n *Node) Remainder() (Stats, TimeHist, *NodeTraffic) {
	stats := Stats{
		Rows: n.Rows, Cells: n.Cells, Bytes: n.Bytes, ValueBytes: n.ValueBytes, KeyBytes: n.KeyBytes, Columns: n.Columns,
		FirstWrite: n.FirstWrite, LastWrite: n.LastWrite, FamilyMask: append([]uint64(nil), n.FamilyMask...),
	}
	var childMax Stats
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
	clampZero(&stats.Rows, &stats.Cells, &stats.Bytes, &stats.ValueBytes, &stats.KeyBytes, &stats.Columns)
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
	if len(n.Children) > 0 && first >= n.Children[0].Start {
		first = n.Prefix
	}
	stats.FirstKey, stats.LastKey = first, first

	writes := n.Writes.clone()
	for _, c := range n.Children {
		writes.subtract(&c.Writes)
	}
	return stats, writes, n.remainderTraffic()
}

// remainderTraffic returns the traffic of n that none of its children
// holds: n's minus its children's, clamped at 0 against float drift; all
// of a leaf's; nil without a recording.
func (n *Node) remainderTraffic() *NodeTraffic {
	traffic := n.Traffic.clone()
	if traffic == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Traffic != nil {
			traffic.subtract(c.Traffic)
		}
	}
	return traffic
}

// subtract takes other's counts away from h's, bucket by bucket, within
// h's span, clamping at 0.
func (h *TimeHist) subtract(other *TimeHist) {
	for j, count := range other.Counts {
		if k := other.First + int64(j) - h.First; k >= 0 && k < int64(len(h.Counts)) {
			h.Counts[k] = max(h.Counts[k]-count, 0)
		}
	}
}

// clampZero sets values that float subtraction left slightly negative to 0.
func clampZero(values ...*float64) {
	for _, v := range values {
		*v = max(*v, 0)
	}
}
