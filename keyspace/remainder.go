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
