package keyspace

import (
	"fmt"
	"slices"
	"strings"
)

// Join returns a copy of storage, a scan of a table, with the traffic of
// recording, a traffic recording of the same table, added to its tree:
// the heatmap can then show operations beside rows and bytes on one key
// axis. Each recorded node's traffic goes to the deepest node of the
// scan's tree that holds its whole key range; a recorded key range that no
// node of the scan holds (keys the traffic touched but the scan did not
// find: rows read before they were written, or written after the scan)
// becomes a node of its own beside the scan's nodes. A recorded node that
// spans several of the scan's nodes (a run of keys the recording merged
// into one range node to bound its size) is divided among them, down to
// the scan's leaves, in proportion to the rows the scan found in each, in
// whole units: every count adds up to the recording's exactly, and no
// node holds traffic that none of its children does unless the recording
// held it there too (scans wider than one child). Neither input changes.
// Join fails for two different tables.
func Join(storage, recording *Snapshot) (*Snapshot, error) {
	switch {
	case storage == nil || storage.Root == nil:
		return nil, fmt.Errorf("joining a recording with a scan: the scan has no prefix tree")
	case recording == nil || recording.Root == nil || recording.Traffic == nil:
		return nil, fmt.Errorf("joining a recording with a scan: the recording of %s holds no traffic", Printable(recording.Table))
	case storage.Table != recording.Table:
		return nil, fmt.Errorf("%w: the scan is of table %s and the recording of table %s; give a scan and a recording of the same table",
			ErrDifferentTables, Printable(storage.Table), Printable(recording.Table))
	}
	out := storage.Clone()
	out.Traffic = recording.Traffic.clone()
	splitAtRecording(out, recording.Root)
	from := recording.Root
	if from.Traffic != nil {
		addTraffic(out.Root, from.Traffic)
	}
	for _, child := range from.Children {
		graft(out.Root, child)
	}
	if out.HotTablets != nil {
		out.placeHotTablets() // on the nodes the recording added too
	}
	return out, nil
}

// graft places the traffic of t, a node of a recording's tree lying in
// n's range (n's counts already include it), as deep in n's subtree as one
// node holds t's whole range. Where no child of n holds it, t's children
// are placed one by one, and a t that overlaps no child of n becomes a
// child of n, with its subtree. A t that spans several of n's children (a
// recorded range node over several of the scan's prefixes) has its own
// traffic, what its children do not hold, spread over them ([spread]):
// left on n, it would be traffic of keys none of n's children holds, a
// bucket of its own with no rows in it.
func graft(n, t *Node) {
	if d := holdingChild(n, t); d != nil {
		if t.Traffic != nil {
			addTraffic(d, t.Traffic)
		}
		graft(d, t)
		return
	}
	if n.Kind == KindPrefix && !overlapsChild(n, t) && t.Start >= n.Start && !EndBefore(string(n.End), string(t.End)) && !n.IsLeaf() {
		adopted := t.clone()
		setDepth(adopted, n.Depth+1)
		i, _ := n.childIndex(string(adopted.Start))
		n.Children = slices.Insert(n.Children, i, adopted)
		return
	}
	for _, child := range t.Children {
		graft(n, child)
	}
	// Where n is t's own range, what t's children do not hold is n's own
	// too (scans wider than one child): it stays.
	if own := t.remainderTraffic(); own != nil && (n.Start != t.Start || n.End != t.End) {
		spread(n, own, t)
	}
}

// spread divides traffic, a part of n's that lies in t's key range, over
// the nodes below n that share keys with t, down to the leaves, in
// proportion to the rows the scan stored in each ([spreadWeights]); n's
// rows that none of its children holds take their share too, which stays
// on n. Every count is divided in whole units and adds up exactly
// ([apportioner.splitTraffic]). Where nothing below n shares a key with t
// (t's keys lie between n's children) the traffic becomes a child of n
// of its own, a range node between its neighbours.
func spread(n *Node, traffic *NodeTraffic, t *Node) {
	if n.IsLeaf() {
		return
	}
	var over []*Node
	for _, c := range n.Children {
		if overlaps(c, string(t.Start), string(t.End)) {
			over = append(over, c)
		}
	}
	ownRows := 0.0
	if t.holds(n) {
		ownRows = n.RemainderRows()
	}
	if len(over) == 0 {
		if ownRows == 0 && n.Kind == KindPrefix {
			adoptGap(n, traffic, t)
		}
		return
	}
	weights := append(spreadWeights(over, t), ownRows)
	if allZero(weights) { // no rows stored here: by the traffic already there
		for i, c := range over {
			if c.Traffic != nil {
				weights[i] = c.Traffic.Ops
			}
		}
	}
	if allZero(weights) { // nor traffic: share alike
		for i := range over {
			weights[i] = 1
		}
	}
	parts := newApportioner(weights).splitTraffic(traffic)
	for i, c := range over {
		addTraffic(c, parts[i])
		spread(c, parts[i], t)
	}
}

// spreadWeights returns how much of a spread traffic each node of over
// takes: its stored rows, counting only nodes whose stored keys reach
// into the keys t's traffic touched when any do (those are where the
// traffic was), else every node's rows. All are 0 when no node of over
// holds rows.
func spreadWeights(over []*Node, t *Node) []float64 {
	weights := make([]float64, len(over), len(over)+1)
	if tr := t.Traffic; tr != nil && tr.LastKey != "" {
		for i, c := range over {
			if c.Rows > 0 && c.FirstKey <= tr.LastKey && c.LastKey >= tr.FirstKey {
				weights[i] = c.Rows
			}
		}
		if !allZero(weights) {
			return weights
		}
	}
	for i, c := range over {
		weights[i] = c.Rows
	}
	return weights
}

// adoptGap makes traffic, which lies in t's range but between n's
// children, a range node of its own under n: the part of t's range that
// n holds, which no child of n shares a key with.
func adoptGap(n *Node, traffic *NodeTraffic, t *Node) {
	start, end := max(n.Start, t.Start), t.End
	if EndBefore(string(n.End), string(t.End)) {
		end = n.End
	}
	gap := &Node{Kind: KindRange, Prefix: Key(CommonPrefix(string(start), string(end))), Start: start, End: end, Depth: n.Depth + 1, Traffic: traffic}
	if !strings.HasPrefix(string(gap.Prefix), string(n.Prefix)) {
		gap.Prefix = n.Prefix
	}
	i, _ := n.childIndex(string(start))
	n.Children = slices.Insert(n.Children, i, gap)
}

// allZero reports whether every weight is 0.
func allZero(weights []float64) bool {
	for _, w := range weights {
		if w != 0 {
			return false
		}
	}
	return true
}

// holdingChild returns the child of n whose range holds t's whole range,
// or nil.
func holdingChild(n, t *Node) *Node {
	i, ok := n.childIndex(string(t.Start))
	if !ok {
		return nil
	}
	d := n.Children[i]
	if d.Start <= t.Start && !EndBefore(string(d.End), string(t.End)) {
		return d
	}
	return nil
}

// overlapsChild reports whether any child of n shares a key with t.
func overlapsChild(n, t *Node) bool {
	return slices.ContainsFunc(n.Children, func(c *Node) bool { return overlaps(c, string(t.Start), string(t.End)) })
}

// holds reports whether n's key range holds all of m's.
func (n *Node) holds(m *Node) bool { return n.holdsRange(KeyRange{Start: m.Start, End: m.End}) }

// addTraffic folds traffic into n's.
func addTraffic(n *Node, traffic *NodeTraffic) {
	if n.Traffic == nil {
		n.Traffic = &NodeTraffic{}
	}
	n.Traffic.Merge(traffic)
}

// setDepth renumbers a grafted subtree's depths from depth.
func setDepth(n *Node, depth int) {
	shift := depth - n.Depth
	n.Walk(func(m *Node) bool { m.Depth += shift; return true })
}
