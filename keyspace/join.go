package keyspace

import (
	"fmt"
	"slices"
)

// Join returns a copy of storage, a scan of a table, with the traffic of
// recording, a traffic recording of the same table, added to its tree:
// the heatmap can then show operations beside rows and bytes on one key
// axis. Each recorded node's traffic goes to the deepest node of the
// scan's tree that holds its whole key range; a recorded key range that no
// node of the scan holds (keys the traffic touched but the scan did not
// find: rows read before they were written, or written after the scan)
// becomes a node of its own beside the scan's nodes. Neither input
// changes. Join fails for two different tables.
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
	from := recording.Root
	if from.Traffic != nil {
		addTraffic(out.Root, from.Traffic)
	}
	for _, child := range from.Children {
		graft(out.Root, child)
	}
	return out, nil
}

// graft places the traffic of t, a node of a recording's tree lying in
// n's range (n's counts already include it), as deep in n's subtree as one
// node holds t's whole range. Where no child of n holds it, t's children
// are placed one by one, and a t that overlaps no child of n becomes a
// child of n, with its subtree.
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
	for _, c := range n.Children {
		if (c.End == "" || t.Start < c.End) && (t.End == "" || c.Start < t.End) {
			return true
		}
	}
	return false
}

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
