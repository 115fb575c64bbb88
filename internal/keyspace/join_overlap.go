package keyspace

// KeyOverlap says how much of a recording's traffic falls on keys a scan
// of the table found, before the two are joined ([Join]): a recording
// and a scan of different tables that share a name (another instance, a
// table recreated with other keys) share few keys or none, and drawn on
// one key axis the traffic lands where the scan has no rows.
type KeyOverlap struct {
	// Ops counts the recorded operations, OnStored those on key ranges
	// where the scan found rows (a node's traffic counts as on stored
	// keys when a stored row lies between the first and last key it
	// touched).
	Ops, OnStored float64
	// Touched bounds the keys the traffic touched, Stored the keys the
	// scan found ([First, Last], inclusive; empty when there were none).
	TouchedFirst, TouchedLast Key
	StoredFirst, StoredLast   Key
}

// Share returns the share of the recorded operations on stored keys (1
// when the recording holds none).
func (o KeyOverlap) Share() float64 {
	if o.Ops == 0 {
		return 1
	}
	return o.OnStored / o.Ops
}

// JoinMinOverlap is the share of a recording's operations that must fall
// on keys the scan found for a join to be taken as of one table without a
// warning: traffic on keys written after the scan (new rows, the end of a
// time series) falls outside it, and is expected; most of it is not.
const JoinMinOverlap = 0.5

// Overlap measures how much of recording's traffic falls on keys storage,
// a scan of the table, found ([KeyOverlap]). Each node's traffic beyond
// its children's (every leaf's, and an inner node's scans wider than one
// child) is placed by the keys it touched.
func Overlap(storage, recording *Snapshot) KeyOverlap {
	var o KeyOverlap
	if storage == nil || storage.Root == nil || recording == nil || recording.Root == nil {
		return o
	}
	if storage.Root.Rows > 0 {
		o.StoredFirst, o.StoredLast = storage.Root.FirstKey, storage.Root.LastKey
	}
	if t := recording.Root.Traffic; t != nil {
		o.TouchedFirst, o.TouchedLast = t.FirstKey, t.LastKey
	}
	recording.Root.Walk(func(n *Node) bool {
		t := n.Traffic
		if t == nil {
			return false
		}
		own := t.Ops
		for _, c := range n.Children {
			if c.Traffic != nil {
				own -= c.Traffic.Ops
			}
		}
		if own <= 0 {
			return true
		}
		o.Ops += own
		first, last := t.FirstKey, t.LastKey
		if last == "" && first == "" { // scans that touched no key: their node's range
			first, last = n.Start, n.End
		}
		if storedBetween(storage.Root, string(first), string(last)) {
			o.OnStored += own
		}
		return true
	})
	return o
}

// storedBetween reports whether the scan's tree under n holds a row with
// a key in [first, last] (an empty last is the end of the table), as far
// as its nodes' key bounds tell.
func storedBetween(n *Node, first, last string) bool {
	if n.Rows == 0 || last != "" && string(n.FirstKey) > last || string(n.LastKey) < first {
		return false
	}
	if n.IsLeaf() || string(n.FirstKey) >= first && (last == "" || string(n.LastKey) <= last) {
		return true
	}
	for _, c := range n.Children {
		if storedBetween(c, first, last) {
			return true
		}
	}
	// Rows of n that no child holds (a node's remainder): only its bounds
	// are known, and they overlap.
	return n.RemainderRows() > 0
}
