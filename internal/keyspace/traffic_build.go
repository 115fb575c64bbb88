package keyspace

import (
	"slices"
	"time"
)

// Traffic limits: the bucket width a recording starts with, and how many
// counters the hot-row and hot-scan finders keep (their reports list
// HotRowsReported of them).
const (
	initialTrafficBucketMicros = int64(time.Second / time.Microsecond)
	hotCounters                = 1024
	HotRowsReported            = 20
)

// trafficState is what a [Builder] keeps while it records traffic: the
// occupied span of the traffic time grid, the hot-key counters, and
// operations held back until the delimiters are known.
type trafficState struct {
	hasTime  bool
	min, max int64
	reads    hotCounter
	writes   hotCounter
	scans    hotCounter
	pending  []Op
	keys     int // keys in pending
	// opStamp numbers the calls whose latency is counted, so that a call
	// counts once per node ([Node.opStamp]).
	opStamp uint64
	// last is the key the last descent was for, and lastDepth how long
	// its path is (in the builder's path scratch): an op that names a row
	// and then reads or writes it descends once.
	last      string
	lastDepth int
	lastValid bool
}

// AddOp folds one recorded operation into the snapshot's traffic: the
// table's method counts, the traffic of every node on the path to each
// row it named, read or wrote (creating nodes as rows do), the scans of
// the deepest node holding each range it asked for (without creating
// any), and the hot-row and hot-scan counters. Memory grows with the tree
// and the counters, never with the number of operations. AddOp keeps no
// reference to op after it returns.
//
// Accounting: each named key counts one operation (a point read when the
// method is ReadRows); each range of a scan counts one operation and one
// scan at the deepest node that holds the whole range; each row a read
// returns counts one row read and its bytes, each row changed one row
// written and its bytes. A row counts as read once per call for the
// hot-row list, whether it was named or scanned. A ReadModifyWriteRow is
// a write that answers with the row it changed: it counts one row written,
// and the row it returns is not a row read (a counter incremented by every
// request is a hot row by writes, not by reads). A CheckAndMutateRow
// counts one row written when the branch it ran had mutations; its
// predicate's look at the row returns nothing and is not a read.
func (b *Builder) AddOp(op *Op) {
	if b.snap.Traffic == nil {
		b.snap.Traffic = &Traffic{BucketMicros: initialTrafficBucketMicros}
		// The root holds the table's totals from the first call on, also
		// when the calls name no key (SampleRowKeys).
		nodeTraffic(b.snap.Root)
		b.traffic.reads, b.traffic.writes, b.traffic.scans = newHotCounter(hotCounters), newHotCounter(hotCounters), newHotCounter(hotCounters)
	}
	op = b.cutOp(op)
	b.noteOpKeys(op)
	if !op.Part {
		errors := 0.0
		if op.Code != 0 {
			errors = 1
		}
		b.snap.Traffic.Methods = addMethod(b.snap.Traffic.Methods, op.Method, 1, errors)
	}
	if b.detecting {
		b.holdOp(op)
		return
	}
	b.addOp(op)
}

// holdOp keeps a copy of op until enough keys have arrived to detect the
// delimiters from.
func (b *Builder) holdOp(op *Op) {
	held := *op
	held.Keys = slices.Clone(op.Keys)
	held.Ranges = slices.Clone(op.Ranges)
	held.RowsRead = slices.Clone(op.RowsRead)
	held.RowsWritten = slices.Clone(op.RowsWritten)
	b.traffic.pending = append(b.traffic.pending, held)
	b.traffic.keys += len(op.Keys) + len(op.RowsRead) + len(op.RowsWritten)
	if b.traffic.keys >= b.opts.DetectRows {
		b.finishDetection()
	}
}

// pendingKeys returns the keys of the held-back operations.
func (t *trafficState) pendingKeys() []string {
	var keys []string
	for i := range t.pending {
		op := &t.pending[i]
		for _, k := range op.Keys {
			keys = append(keys, string(k))
		}
		for _, r := range op.RowsRead {
			keys = append(keys, string(r.Key))
		}
		for _, r := range op.RowsWritten {
			keys = append(keys, string(r.Key))
		}
	}
	return keys
}

// replayOps adds the held-back operations once the delimiters are known.
func (b *Builder) replayOps() {
	pending := b.traffic.pending
	b.traffic.pending, b.traffic.keys = nil, 0
	for i := range pending {
		b.addOp(&pending[i])
	}
}

func (b *Builder) addOp(op *Op) {
	b.addingOp = true
	b.traffic.lastValid = false // rows may have changed the tree
	defer func() { b.addingOp = false }()
	bucket := b.trafficBucket(op.Time)
	isRead := op.Method == MethodReadRows
	// A call names its rows and then reads or writes them, in the same
	// order (a point read's rows come back in key order, as it names
	// them; a MutateRows call's rows written are the entries the server
	// applied): each row that is the next named key is folded in on the
	// path found for the key, one descent for both.
	read, written := op.RowsRead, op.RowsWritten
	if op.Method == MethodReadModifyWriteRow {
		read = nil // its answer is the row it wrote, not a read
	}
	lat := b.startLatency(op, bucket)
	for _, key := range op.Keys {
		k := string(key)
		path := b.opPath(k)
		for _, n := range path {
			t := nodeTraffic(n)
			t.coverKey(k)
			t.Ops++
			t.Time.Ops.add(bucket, 1)
			t.Methods = addMethod(t.Methods, op.Method, 1, 0)
			if isRead {
				t.PointReads++
			}
			lat.count(n, t)
		}
		switch {
		case isRead && len(read) > 0 && read[0].Key == key:
			b.addRead(path, read[0], bucket, false, 1)
			read = read[1:]
		case isRead:
			b.traffic.reads.add(k, 1, 0)
		}
		if len(written) > 0 && written[0].Key == key {
			b.addWrite(path, written[0], bucket, false)
			written = written[1:]
		}
	}
	for _, r := range op.Ranges {
		// The prefix nodes the whole range lies under exist from its
		// first scan on, so that the scan is counted where it belongs
		// even before any row under them was touched.
		under := CommonPrefix(string(r.Start), string(r.End))
		if r.End != "" && string(r.End) == PrefixEnd(string(r.Start)) {
			under = string(r.Start) // a prefix scan: [P, PrefixEnd(P))
		}
		if p := b.wholeSegments(under); p != "" {
			b.opPath(p)
		}
		for _, n := range b.snap.Root.Find(string(r.Start)) {
			if !n.holdsRange(r) {
				break
			}
			t := nodeTraffic(n)
			t.Ops++
			t.Scans++
			t.Time.Ops.add(bucket, 1)
			t.Methods = addMethod(t.Methods, op.Method, 1, 0)
			lat.count(n, t)
		}
		rows := 0.0
		if len(op.Ranges) == 1 {
			rows = float64(max(op.CallRows, int64(len(op.RowsRead))))
		}
		b.traffic.scans.add(scanKey(r), 1, rows)
	}
	for _, r := range read {
		count := 1.0
		if isRead && slices.Contains(op.Keys, r.Key) {
			count = 0 // counted when it was named
		}
		b.addRead(b.opPath(string(r.Key)), r, bucket, true, count)
	}
	for _, r := range written {
		b.addWrite(b.opPath(string(r.Key)), r, bucket, true)
	}
}

// opLatency counts one call's latency in each node it touches, once per
// node however many of its rows lie there ([NodeLatency]).
type opLatency struct {
	on     bool
	stamp  uint64
	kind   string
	index  int
	ns     float64
	bucket int64
}

// startLatency returns the latency counter of op, which counts nothing
// for a Part or a call whose latency was not measured; a call counts at
// the root whether or not it names a key (SampleRowKeys does not).
func (b *Builder) startLatency(op *Op, bucket int64) opLatency {
	if op.Part || op.Latency <= 0 {
		return opLatency{}
	}
	b.traffic.opStamp++
	l := opLatency{on: true, stamp: b.traffic.opStamp, kind: op.Kind(), index: LatencyIndex(op.Latency), ns: float64(op.Latency), bucket: bucket}
	l.count(b.snap.Root, nodeTraffic(b.snap.Root))
	return l
}

// count counts the call at n (whose traffic is t), unless it already did.
func (l *opLatency) count(n *Node, t *NodeTraffic) {
	if !l.on || n.opStamp == l.stamp {
		return
	}
	n.opStamp = l.stamp
	if t.Latency == nil {
		t.Latency = &NodeLatency{}
	}
	t.Latency.add(l.kind, l.index, l.ns, l.bucket)
}

// addRead folds one row read into the nodes of its path, and count reads
// of it into the hot-row counter; cover says whether the nodes' key
// bounds have yet to hold its key.
func (b *Builder) addRead(path []*Node, r RowIO, bucket int64, cover bool, count float64) {
	foldRow(path, r, bucket, cover, false)
	b.traffic.reads.add(string(r.Key), count, float64(r.Bytes))
}

// addWrite folds one row written into the nodes of its path and the
// hot-row counter; cover as for [Builder.addRead].
func (b *Builder) addWrite(path []*Node, r RowIO, bucket int64, cover bool) {
	foldRow(path, r, bucket, cover, true)
	b.traffic.writes.add(string(r.Key), 1, float64(r.Bytes))
}

// foldRow counts one row and its bytes, read or written, in every node
// of path and in its time bucket.
func foldRow(path []*Node, r RowIO, bucket int64, cover, written bool) {
	for _, n := range path {
		t := nodeTraffic(n)
		if cover {
			t.coverKey(string(r.Key))
		}
		rows, bytes, rowHist, byteHist := &t.RowsRead, &t.BytesRead, &t.Time.RowsRead, &t.Time.BytesRead
		if written {
			rows, bytes, rowHist, byteHist = &t.RowsWritten, &t.BytesWritten, &t.Time.RowsWritten, &t.Time.BytesWritten
		}
		*rows++
		*bytes += float64(r.Bytes)
		rowHist.add(bucket, 1)
		byteHist.add(bucket, float64(r.Bytes))
	}
}

// opPath returns the nodes key belongs to, root first, creating nodes as
// rows do. The path of the key descended just before is reused: nothing
// can have changed the tree since (a descent that merges nodes is the
// only change, and it would have been this one).
func (b *Builder) opPath(key string) []*Node {
	t := &b.traffic
	if t.lastValid && t.last == key {
		return b.path[:t.lastDepth]
	}
	b.path = b.descend(key, b.path[:0])
	t.last, t.lastDepth, t.lastValid = key, len(b.path), true
	return b.path
}

// nodeTraffic returns n's traffic, creating it.
func nodeTraffic(n *Node) *NodeTraffic {
	if n.Traffic == nil {
		n.Traffic = &NodeTraffic{}
	}
	return n.Traffic
}

// holdsRange reports whether the whole key range r lies in n's range.
func (n *Node) holdsRange(r KeyRange) bool {
	return r.Start >= n.Start && !EndBefore(string(n.End), string(r.End))
}

// scanKey joins a range's bounds into one hot-counter key; [splitScanKey]
// reverses it. The bounds are escaped ([Printable]), so the NUL that
// separates them cannot occur in them.
func scanKey(r KeyRange) string { return r.Start.String() + "\x00" + r.End.String() }

// trafficBucket returns the traffic time bucket of t, widening the grid
// (doubling every bucket) until the whole recording fits in
// [MaxTimeBuckets] buckets.
func (b *Builder) trafficBucket(t time.Time) int64 {
	tr, st := b.snap.Traffic, &b.traffic
	us := t.UnixMicro()
	i := floorDiv(us, tr.BucketMicros)
	lo, hi := i, i
	if st.hasTime {
		lo, hi = min(lo, st.min), max(hi, st.max)
	}
	for hi-lo >= MaxTimeBuckets {
		b.coarsenTraffic()
		lo, hi = floorDiv(lo, 2), floorDiv(hi, 2)
	}
	st.hasTime, st.min, st.max = true, lo, hi
	return floorDiv(us, tr.BucketMicros)
}

// coarsenTraffic doubles the traffic grid's bucket width in every
// histogram.
func (b *Builder) coarsenTraffic() {
	b.snap.Traffic.BucketMicros *= 2
	b.snap.Root.Walk(func(n *Node) bool {
		if n.Traffic != nil {
			for _, h := range n.Traffic.hists() {
				h.coarsen()
			}
			if n.Traffic.Latency != nil {
				n.Traffic.Latency.Time.coarsen()
			}
		}
		return true
	})
}

// hotLists fills the snapshot's hot-row and hot-scan lists from the
// counters.
func (b *Builder) hotLists(t *Traffic) {
	reported := b.keys.listRows(HotRowsReported)
	rows := func(c *hotCounter) []HotRow {
		var out []HotRow
		for _, e := range c.top(reported) {
			out = append(out, HotRow{Key: Key(e.key), Count: e.count, Error: e.error, Bytes: e.extra})
		}
		return out
	}
	t.TopReads, t.TopWrites = rows(&b.traffic.reads), rows(&b.traffic.writes)
	t.TopScans = nil
	for _, e := range b.traffic.scans.top(reported) {
		start, end := splitScanKey(e.key)
		t.TopScans = append(t.TopScans, HotScan{Start: start, End: end, Count: e.count, Error: e.error, Rows: e.extra})
	}
}

// splitScanKey reverses [scanKey].
func splitScanKey(key string) (start, end Key) {
	for i := 0; i < len(key); i++ {
		if key[i] == 0 {
			s, _ := ParseKey(key[:i])
			e, _ := ParseKey(key[i+1:])
			return Key(s), Key(e)
		}
	}
	return "", ""
}

// wholeSegments returns the longest prefix of s that ends at a
// delimiter: the delimited segments s holds whole.
func (b *Builder) wholeSegments(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if b.splitter.isDelimiter[s[i]] {
			return s[:i+1]
		}
	}
	return ""
}

// splitFairFactor is how many times an even share of its parent's
// operations, rows read or rows written a range node may take before the next key that falls in it splits it:
// far below what a hotspot takes (a quarter of the table's traffic), so
// that a merged run of keys never reads as one, and far enough above an
// even share that a compaction's merged pair does not split at once.
const splitFairFactor = 4

// splitsAt reports whether range node n, a child of parent that holds
// key, is split at key: in a recording, a range (a run of keys merged to
// bound the tree) that takes more than [splitFairFactor] times an even
// share of its parent's traffic stops at the next key that falls in it,
// which gets a node of its own. So the tree re-splits where the traffic
// moves: keys written or read after the population shifted (new users,
// a new key prefix) spread over new nodes, instead of filling the range
// that lay next to them when they began, which would then read as a
// hotspot of half the traffic. What the range counted stays with it.
func (b *Builder) splitsAt(parent, n *Node, key string) bool {
	if n.Kind != KindRange || key <= string(n.Start) || parent.Rows > 0 || len(parent.Children) < 2 || n.Traffic == nil || parent.Traffic == nil {
		return false
	}
	// Its share of any of the three, against splitFairFactor over the
	// children: multiplied out, as this runs on every descent into a range.
	t, p, children := &n.Traffic.OpCounts, &parent.Traffic.OpCounts, float64(len(parent.Children))
	return t.Ops*children > splitFairFactor*p.Ops || t.RowsRead*children > splitFairFactor*p.RowsRead ||
		t.RowsWritten*children > splitFairFactor*p.RowsWritten
}
