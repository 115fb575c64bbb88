package keyspace

// RangeTraffic returns the recorded traffic of the tree under root in the
// key range [start, end) (an empty end is the end of the table): every
// node inside the range whole; of a leaf across a bound, all of it when
// the keys its traffic touched lie inside, none when they lie outside,
// and half (in whole units) when they lie on both sides. It returns nil
// when nothing under root has traffic there.
func RangeTraffic(root *Node, start, end string) *NodeTraffic {
	var sum *NodeTraffic
	add := func(t *NodeTraffic) {
		if sum == nil {
			sum = &NodeTraffic{}
		}
		sum.Merge(t)
	}
	var visit func(n *Node)
	visit = func(n *Node) {
		t := n.Traffic
		if t == nil || !overlaps(n, start, end) {
			return
		}
		if inside(string(n.Start), string(n.End), start, end) {
			add(t)
			return
		}
		if !n.IsLeaf() {
			for _, c := range childrenMeeting(n, start, end) {
				visit(c)
			}
			return
		}
		switch {
		case t.LastKey == "":
		case InRange(string(t.FirstKey), start, end) && InRange(string(t.LastKey), start, end):
			add(t)
		case (end == "" || string(t.FirstKey) < end) && string(t.LastKey) >= start:
			add(newApportioner([]float64{1, 1}).splitTraffic(t)[0])
		}
	}
	if root != nil {
		visit(root)
	}
	return sum
}
