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
	if n.CPU != nil {
		cpu := n.CPU.Total()
		for _, c := range n.Children {
			if c.CPU != nil {
				cpu -= c.CPU.Total()
			}
		}
		if cpu > remainderSlack*max(n.CPU.Total(), 1) {
			return true
		}
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
	stats := n.Stats.clone()
	writes := n.Writes.clone()
	for _, c := range n.Children {
		stats.subtract(&c.Stats)
		writes.subtract(&c.Writes)
	}
	first := n.FirstKey
	if len(n.Children) > 0 && first >= n.Children[0].Start {
		first = n.Prefix
	}
	stats.FirstKey, stats.LastKey = first, first
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

// ChildTraffic returns each child's recorded traffic with its part of the
// traffic n holds beyond its children, when that traffic is all n holds
// of its own (no rows keyed by its prefix): scans of ranges wider than
// one child, divided among the children over which the scans' rows went,
// in proportion to the rows each returned to scans (rows read beyond its
// point reads), or, where no child returned any, to their operations, in
// whole units ([apportioner.splitTraffic]). A view then draws a wide
// scan's operations over the keys it covered instead of as a range of
// its own before the first child. ok is false when n has no such traffic
// or has rows of its own.
func (n *Node) ChildTraffic() (traffic []*NodeTraffic, ok bool) {
	if n.IsLeaf() || n.RemainderRows() > 0 || !n.HasRemainder() {
		return nil, false
	}
	own := n.remainderTraffic()
	if own == nil || own.Ops == 0 {
		return nil, false
	}
	weights := make([]float64, len(n.Children))
	for i, c := range n.Children {
		if c.Traffic != nil {
			weights[i] = max(c.Traffic.RowsRead-c.Traffic.PointReads, 0)
		}
	}
	if allZero(weights) {
		for i, c := range n.Children {
			if c.Traffic != nil {
				weights[i] = c.Traffic.Ops
			}
		}
	}
	if allZero(weights) {
		return nil, false
	}
	parts := newApportioner(weights).splitTraffic(own)
	traffic = make([]*NodeTraffic, len(n.Children))
	for i, c := range n.Children {
		traffic[i] = c.Traffic.clone()
		if traffic[i] == nil {
			traffic[i] = &NodeTraffic{}
		}
		traffic[i].Merge(parts[i])
	}
	return traffic, true
}
