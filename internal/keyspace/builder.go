package keyspace

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// Builder aggregates rows into a [Snapshot] as they stream in. Its memory
// grows with the number of tree nodes (bounded by [Options.MaxNodes]),
// never with the number of rows. A Builder is not safe for concurrent use:
// feed it from one goroutine.
type Builder struct {
	opts     Options
	snap     *Snapshot
	splitter Splitter

	detecting bool
	pending   []Row // rows held back until delimiters are detected

	familyIndex map[string]int
	nodes       int
	// depth is how many levels the tree splits below the shared prefix:
	// it starts at MaxDepth and drops when the node budget forces the
	// tree to give up its deepest level (see prune).
	depth int
	// shared is the depth of the deepest prefix node that every row so
	// far lies under (0: the root), once sharedKnown: a prefix that all
	// keys share spends none of the depth budget, so that 200,000 keys
	// behind one long common prefix still split into many nodes.
	shared      int
	sharedKnown bool

	// The occupied span of the time grid, in absolute bucket indexes.
	hasTime          bool
	minTime, maxTime int64

	largest, mostVersioned, nodeLargest, nodeVersioned topRows

	sample sampler

	// free holds nodes released by merges, reused with their slices.
	free      []*Node
	compactor compactor

	// Per-row scratch, reused to keep Add allocation-free.
	summary    rowSummary
	rowBuckets []timeCount
	path       []*Node

	// traffic is the state of traffic recording ([Builder.AddOp]).
	traffic trafficState
	// addingOp is set while an operation, not a row, descends the tree.
	addingOp bool

	// rangeIndex maps a range of the tablet map the builder was given
	// to the range that holds it once long keys were cut and neighbours
	// merged ([Builder.cutMeta]); nil when none were.
	rangeIndex []int

	// keys follows the longest key kept, which bounds the nodes and
	// sample rows the builder keeps ([TreeKeyBytes], [SampleKeyBytes]);
	// longKeys notes the keys cut to [KeptKeyBytes].
	keys     keyBudget
	longKeys []LongKey
}

type timeCount struct {
	bucket int64
	cells  float64
}

// NewBuilder starts a build. meta carries what is known before the first
// row: source, table, families, the tablet map (Ranges, with Start, End and
// SampledBytes) and the scan settings; the builder owns it from now on.
func NewBuilder(meta *Snapshot, opts Options) *Builder {
	opts = opts.withDefaults()
	b := &Builder{
		opts:          opts,
		snap:          meta,
		familyIndex:   make(map[string]int),
		largest:       topRows{k: opts.TopRows, measure: byBytes},
		mostVersioned: topRows{k: opts.TopRows, measure: byVersions},
		nodeLargest:   topRows{k: opts.NodeTopRows, measure: byBytes},
		nodeVersioned: topRows{k: opts.NodeTopRows, measure: byVersions},
		sample:        newSampler(opts.SampleSize, opts.Seed),
	}
	for i, family := range meta.Families {
		b.familyIndex[family] = i
	}
	meta.TimeBucketMicros = initialBucketMicros
	meta.Root = &Node{Kind: KindPrefix}
	b.nodes = 1
	b.depth = opts.MaxDepth
	meta.TreeDepth = opts.MaxDepth
	sort.Slice(meta.Ranges, func(i, j int) bool { return meta.Ranges[i].Start < meta.Ranges[j].Start })
	b.cutMeta(meta)
	if opts.Delimiters != "" || opts.DelimitersDecided {
		b.setDelimiters(opts.Delimiters)
	} else {
		b.detecting = true
	}
	return b
}

// Add folds one row into the snapshot. Add keeps no reference to row or its
// cells after it returns.
func (b *Builder) Add(row *Row) {
	b.snap.Scan.RowsRead++
	b.snap.Scan.CellsRead += int64(len(row.Cells))
	if len(row.Key) > KeptKeyBytes {
		row = b.cutRow(row)
	}
	if b.keys.note(row.Key) {
		b.applyKeyBudget()
	}
	if b.detecting {
		b.pending = append(b.pending, Row{Key: row.Key, Weight: row.Weight, Cells: slices.Clone(row.Cells), keyBytes: row.keyBytes})
		if len(b.pending) >= b.opts.DetectRows {
			b.finishDetection()
		}
		return
	}
	b.add(row)
}

// Rows returns the number of rows added so far.
func (b *Builder) Rows() int64 { return b.snap.Scan.RowsRead }

// MarkRange records that tablet-map range i was scanned in full, and
// whether it was re-read at full resolution after sampling.
func (b *Builder) MarkRange(i int, rescanned bool) {
	i = b.keptRange(i)
	b.snap.Ranges[i].Scanned = true
	b.snap.Ranges[i].Rescanned = b.snap.Ranges[i].Rescanned || rescanned
}

// MarkUnexplained records that tablet-map range i holds far more bytes
// than a sampled scan saw of it and was not re-read in full, the read cap
// spent: an oversized row may hide in it.
func (b *Builder) MarkUnexplained(i int) {
	b.snap.Ranges[b.keptRange(i)].Unexplained = true
}

// Snapshot returns a deep copy of the snapshot built so far; the builder
// can go on taking rows. The first call fixes the delimiters if they were
// still being detected.
func (b *Builder) Snapshot() *Snapshot {
	if b.detecting {
		b.finishDetection()
	}
	snap := b.snap.Clone()
	snap.Sample = b.sample.rows()
	snap.LongKeys = slices.Clone(b.longKeys[:min(len(b.longKeys), b.keys.listRows(LongKeysKept))])
	snap.cutTexts()
	if snap.Traffic != nil {
		b.hotLists(snap.Traffic)
	}
	return snap
}

func (b *Builder) finishDetection() {
	keys := make([]string, len(b.pending), len(b.pending)+b.traffic.keys)
	for i := range b.pending {
		keys[i] = b.pending[i].Key
	}
	keys = append(keys, b.traffic.pendingKeys()...)
	b.setDelimiters(DetectDelimiters(keys))
	b.detecting = false
	for i := range b.pending {
		b.add(&b.pending[i])
	}
	b.pending = nil
	b.replayOps()
}

func (b *Builder) setDelimiters(delimiters string) {
	b.splitter = NewSplitter(delimiters)
	b.snap.Delimiters = delimiters
}

func (b *Builder) familyOf(name string) int {
	if i, ok := b.familyIndex[name]; ok {
		return i
	}
	i := len(b.snap.Families)
	b.snap.Families = append(b.snap.Families, name)
	b.familyIndex[name] = i
	return i
}

func (b *Builder) add(row *Row) {
	weight := row.Weight
	if weight <= 0 {
		weight = 1
	}
	summarize(row, b.familyOf, &b.summary)
	b.bucketCells(row, weight)

	var stat *RowStat // built lazily: most rows enter no top list
	rowStat := func() RowStat {
		if stat == nil {
			s := b.summary.stat()
			stat = &s
		}
		return *stat
	}
	bytes, versions := b.summary.bytes, b.summary.maxVersions

	b.path = b.descend(row.Key, b.path[:0])
	for _, node := range b.path {
		node.addRow(&b.summary, weight)
		b.addWrites(&node.Writes)
		if b.nodeLargest.qualifies(node.Top, bytes) {
			node.Top = b.nodeLargest.insert(node.Top, b.summary.brief())
		}
		if versions > 1 && b.nodeVersioned.qualifies(node.TopVersioned, versions) {
			node.TopVersioned = b.nodeVersioned.insert(node.TopVersioned, b.summary.brief())
		}
	}
	if i, ok := b.rangeOf(row.Key); ok {
		r := &b.snap.Ranges[i]
		r.addRow(&b.summary, weight)
		b.addWrites(&r.Writes)
	}
	if b.largest.qualifies(b.snap.Largest, bytes) {
		b.snap.Largest = b.largest.insert(b.snap.Largest, rowStat())
	}
	if versions > 1 && b.mostVersioned.qualifies(b.snap.MostVersioned, versions) {
		b.snap.MostVersioned = b.mostVersioned.insert(b.snap.MostVersioned, rowStat())
	}
	b.sample.offer(SampledRow{
		Key: Key(row.Key), Weight: weight, Bytes: bytes, Cells: b.summary.cells,
		Columns: b.summary.columns, MaxVersions: versions,
		FirstWrite: b.summary.firstWrite, LastWrite: b.summary.lastWrite,
	})
}

// bucketCells fills b.rowBuckets with the row's cells per time bucket,
// widening the snapshot's time grid first if the row falls outside it.
func (b *Builder) bucketCells(row *Row, weight float64) {
	b.rowBuckets = b.rowBuckets[:0]
	if len(row.Cells) == 0 {
		return
	}
	b.coverTime(b.summary.firstWrite, b.summary.lastWrite)
	width := b.snap.TimeBucketMicros
	for i := range row.Cells {
		bucket := floorDiv(row.Cells[i].Timestamp, width)
		j := len(b.rowBuckets) - 1
		for ; j >= 0 && b.rowBuckets[j].bucket != bucket; j-- {
		}
		if j < 0 {
			b.rowBuckets = append(b.rowBuckets, timeCount{bucket: bucket})
			j = len(b.rowBuckets) - 1
		}
		b.rowBuckets[j].cells += weight
	}
}

func (b *Builder) addWrites(h *TimeHist) {
	for _, tc := range b.rowBuckets {
		h.add(tc.bucket, tc.cells)
	}
}

// coverTime widens the time grid until [first, last] microseconds fits in
// MaxTimeBuckets buckets together with everything seen before.
func (b *Builder) coverTime(first, last int64) {
	width := b.snap.TimeBucketMicros
	lo, hi := floorDiv(first, width), floorDiv(last, width)
	if b.hasTime {
		lo, hi = min(lo, b.minTime), max(hi, b.maxTime)
	}
	b.hasTime = true
	for hi-lo >= MaxTimeBuckets {
		b.coarsen()
		lo, hi = floorDiv(lo, 2), floorDiv(hi, 2)
	}
	b.minTime, b.maxTime = lo, hi
}

// coarsen doubles the time-bucket width of every histogram.
func (b *Builder) coarsen() {
	b.snap.TimeBucketMicros *= 2
	b.snap.Root.Walk(func(n *Node) bool { n.Writes.coarsen(); return true })
	for i := range b.snap.Ranges {
		b.snap.Ranges[i].Writes.coarsen()
	}
}

// rangeOf returns the index of the tablet-map range holding key.
func (b *Builder) rangeOf(key string) (int, bool) {
	ranges := b.snap.Ranges
	i := sort.Search(len(ranges), func(i int) bool {
		return ranges[i].End == "" || key < string(ranges[i].End)
	})
	if i < len(ranges) && key >= string(ranges[i].Start) {
		return i, true
	}
	return 0, false
}

// descend returns the nodes a row belongs to, root first, creating and
// merging nodes as the key needs.
func (b *Builder) descend(key string, path []*Node) []*Node {
	// Before the path is built, so that no node of it is given up.
	if under := b.sharedUnder(key); !b.sharedKnown || under < b.shared {
		b.narrowShared(under)
	}
	node := b.snap.Root
	path = append(path, node)
	for offset := 0; offset < len(key) && node.Kind == KindPrefix && node.Depth < b.limit(); {
		child := b.childFor(node, key, offset)
		if child == nil {
			break
		}
		path = append(path, child)
		offset += b.splitter.Next(key, offset)
		node = child
	}
	return path
}

// childFor returns the child of parent that holds key (whose first offset
// bytes are parent's prefix), creating it if needed; nil when the node
// budget is spent and parent has no child to fold the row into.
func (b *Builder) childFor(parent *Node, key string, offset int) *Node {
	if i, ok := parent.childIndex(key); ok {
		child := parent.Children[i]
		if !b.addingOp || !b.splitsAt(parent, child, key) {
			return child
		}
		// A hot range keeps what it counted and ends at key; key gets a
		// node of its own, as the keys after it will.
		child.End = Key(key)
	}
	end := offset + b.splitter.Next(key, offset)
	var kind NodeKind
	var prefix, start, stop string
	if end == len(key) && !b.endsWithDelimiter(key) {
		kind, prefix, start, stop = KindRow, key, key, key+"\x00"
	} else {
		kind, prefix, start, stop = KindPrefix, key[:end], key[:end], PrefixEnd(key[:end])
	}
	if b.nodes >= b.maxNodes() {
		b.prune()
		if parent.Depth >= b.limit() {
			return nil // the row stays with parent, now a leaf level
		}
	}
	i, _ := parent.childIndex(key)
	if b.nodes >= b.maxNodes() {
		return b.foldInto(parent, i, start, stop)
	}
	if kind == KindRow {
		if neighbour := b.coldNeighbour(parent, i); neighbour != nil {
			return b.foldInto(parent, i, start, stop)
		}
	}
	child := b.newNode(parent.Depth + 1)
	child.Kind, child.Prefix, child.Start, child.End = kind, Key(prefix), Key(start), Key(stop)
	// Keep siblings disjoint even for keys the splitter cannot separate.
	if i > 0 && parent.Children[i-1].End != "" && child.Start < parent.Children[i-1].End {
		child.Start = parent.Children[i-1].End
	}
	if i < len(parent.Children) && EndBefore(string(parent.Children[i].Start), string(child.End)) {
		child.End = parent.Children[i].Start
	}
	parent.Children = slices.Insert(parent.Children, i, child)
	if len(parent.Children) > b.opts.MaxChildren {
		b.compact(parent)
		j, _ := parent.childIndex(key)
		return parent.Children[j]
	}
	return child
}

func (b *Builder) endsWithDelimiter(key string) bool {
	return len(key) > 0 && b.splitter.isDelimiter[key[len(key)-1]]
}

// coldNeighbour returns the sibling a new row at insertion point i should
// join instead of becoming a node of its own: once parent is half full, an
// ordinary row next to a cold leaf (a row or range whose [heat] is no more
// than an even split over half the fan-out) is folded into it, as a
// compaction would soon do anyway. Prefix nodes are never folded this way,
// so a hot entity keeps its node, and neither is a row that is itself hot
// (a huge or many-versioned row). It returns nil when the row should be a
// node.
func (b *Builder) coldNeighbour(parent *Node, i int) *Node {
	half := b.opts.MaxChildren / 2
	if len(parent.Children) < half {
		return nil
	}
	coldLimit := heatDimensions / float64(half)
	rowHeat := b.incomingHeat(parent)
	if rowHeat > coldLimit {
		return nil
	}
	isCold := func(n *Node) bool { return n.Kind != KindPrefix && heat(n, parent)+rowHeat <= coldLimit }
	switch {
	case i > 0 && isCold(parent.Children[i-1]):
		return parent.Children[i-1]
	case i == 0 && isCold(parent.Children[0]):
		return parent.Children[0]
	}
	return nil
}

// incomingHeat is the [heat] in parent of what is being added: the row
// being added, or one operation on a key.
func (b *Builder) incomingHeat(parent *Node) float64 {
	if b.addingOp {
		if parent.Traffic == nil {
			return heatDimensions
		}
		t := &parent.Traffic.OpCounts
		return share(1, t.Ops) + share(1, t.RowsRead) + share(1, t.RowsWritten)
	}
	r := &b.summary
	return share(1, parent.Rows) + share(float64(r.bytes), parent.Bytes) + share(float64(r.cells), parent.Cells)
}

// heatDimensions is how many shares [heat] adds up.
const heatDimensions = 3

// heat measures how much of parent a child holds: in a scan, its share of
// the parent's rows plus its share of bytes plus its share of cells; in a
// traffic recording, its share of the parent's operations, rows read and
// rows written. A hot entity (many rows, many calls), a huge row (bytes),
// a row rewritten thousands of times (cells) and a row every client
// reads all score high, so merging the coolest siblings first keeps every
// kind of outlier a node of its own.
func heat(n, parent *Node) float64 {
	if parent.Rows == 0 && parent.Traffic != nil {
		if n.Traffic == nil {
			return 0
		}
		t, p := &n.Traffic.OpCounts, &parent.Traffic.OpCounts
		return share(t.Ops, p.Ops) + share(t.RowsRead, p.RowsRead) + share(t.RowsWritten, p.RowsWritten)
	}
	return share(n.Rows, parent.Rows) + share(n.Bytes, parent.Bytes) + share(n.Cells, parent.Cells)
}

// mergeNodeData folds src's totals, histograms, top rows and traffic into
// dst, as when two siblings become one range or two chunks meet.
func (b *Builder) mergeNodeData(dst, src *Node) {
	dst.Stats.merge(&src.Stats)
	dst.Writes.merge(&src.Writes)
	b.mergeTops(dst, src)
	if src.Traffic != nil {
		if dst.Traffic == nil {
			dst.Traffic = &NodeTraffic{}
		}
		dst.Traffic.Merge(src.Traffic)
	}
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// foldInto widens the sibling next to insertion point i so that it covers
// the would-be child [start, end), turning it into a range; used once the
// node budget is spent.
func (b *Builder) foldInto(parent *Node, i int, start, end string) *Node {
	if len(parent.Children) == 0 {
		return nil
	}
	var sibling *Node
	if i > 0 {
		sibling = parent.Children[i-1]
		sibling.End = Key(end)
		if i < len(parent.Children) && EndBefore(string(parent.Children[i].Start), end) {
			sibling.End = parent.Children[i].Start
		}
	} else {
		sibling = parent.Children[0]
		sibling.Start = Key(start)
	}
	b.toRange(sibling)
	return sibling
}

// toRange turns n into a leaf range, recycling its subtree.
func (b *Builder) toRange(n *Node) {
	b.dropChildren(n)
	n.Kind = KindRange
	first, last, _ := n.KeyBounds()
	n.Prefix = Key(CommonPrefix(string(first), string(last)))
}

// pruneToShare is the share of the node budget a prune frees the tree
// down to, so that prunes are rare.
const pruneToShare = 0.75

// limit returns the deepest level the tree splits now: depth levels below
// the shared prefix (unbounded until the first row sets it).
func (b *Builder) limit() int {
	if !b.sharedKnown {
		return math.MaxInt
	}
	return b.shared + b.depth
}

// sharedUnder returns the depth of the deepest node of the shared prefix
// that key lies under; before the first key, the depth of key's own
// deepest prefix node (its segments that end in a delimiter).
func (b *Builder) sharedUnder(key string) int {
	if !b.sharedKnown {
		prefixes := 0
		for offset := 0; offset < len(key); {
			offset += b.splitter.Next(key, offset)
			if b.splitter.isDelimiter[key[offset-1]] {
				prefixes++
			}
		}
		return prefixes
	}
	n := b.snap.Root
	for depth := 0; depth < b.shared; depth++ {
		if len(n.Children) != 1 || !strings.HasPrefix(key, string(n.Children[0].Prefix)) {
			return depth
		}
		n = n.Children[0]
	}
	return b.shared
}

// narrowShared updates the shared prefix once keys arrive that lie under
// no shared node deeper than most (a key's [Builder.sharedUnder], or an
// appended chunk's shared prefix): it is the deepest prefix node every
// key lies under, found by walking down from the root while each node
// has a single prefix child, no deeper than before nor than most; the
// first key sets it to most. When it moves up, the levels now beyond the
// depth budget are given up, as if the tree had known the shared prefix
// from the start.
func (b *Builder) narrowShared(most int) {
	if b.sharedKnown {
		most = min(most, b.shared)
	}
	shared, n := 0, b.snap.Root
	if !b.sharedKnown && len(n.Children) == 0 {
		shared = most // nothing is built yet
	}
	for shared < most && len(n.Children) == 1 && n.Children[0].Kind == KindPrefix {
		n = n.Children[0]
		shared++
	}
	if b.sharedKnown && shared == b.shared {
		return
	}
	b.shared, b.sharedKnown = shared, true
	b.collapseTo(b.depth)
}

// prune gives up the tree's deepest levels until it is back under
// pruneToShare of the node budget: nodes at the new deepest level keep
// their totals, histograms and top rows but lose their children, and no
// row splits below that level any more. Spending the budget on depth
// everywhere alike, rather than refusing new nodes once it is spent,
// keeps every entity at the shallower levels whatever the order rows
// arrive in (a late salt bucket keeps its hot user). The shared prefix's
// children are never given up.
func (b *Builder) prune() {
	for b.depth > 1 && float64(b.nodes) > pruneToShare*float64(b.maxNodes()) {
		b.collapseTo(b.depth - 1)
	}
}

// mergeTops folds src's top rows into dst's.
func (b *Builder) mergeTops(dst, src *Node) {
	dst.Top = b.nodeLargest.merge(dst.Top, src.Top)
	dst.TopVersioned = b.nodeVersioned.merge(dst.TopVersioned, src.TopVersioned)
}

// newNode returns an empty node at depth, recycled when one is free.
func (b *Builder) newNode(depth int) *Node {
	b.nodes++
	if last := len(b.free) - 1; last >= 0 {
		n := b.free[last]
		b.free = b.free[:last]
		n.Depth = depth
		return n
	}
	return &Node{Depth: depth}
}

// dropChildren recycles n's subtree, leaving n a leaf.
func (b *Builder) dropChildren(n *Node) {
	for _, child := range n.Children {
		b.release(child)
	}
	clear(n.Children)
	n.Children = n.Children[:0]
}

// release recycles n and its subtree; nothing may refer to them after.
func (b *Builder) release(n *Node) {
	for _, child := range n.Children {
		b.release(child)
	}
	b.recycle(n)
}

// recycle resets n, keeping its slices' memory, and puts it on the free
// list.
func (b *Builder) recycle(n *Node) {
	b.nodes--
	*n = Node{
		Stats:        Stats{FamilyMask: n.FamilyMask[:0]},
		Writes:       TimeHist{Counts: n.Writes.Counts[:0]},
		Top:          n.Top[:0],
		TopVersioned: n.TopVersioned[:0],
		Children:     n.Children[:0],
		Traffic:      nil,
	}
	b.free = append(b.free, n)
}
