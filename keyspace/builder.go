package keyspace

import (
	"slices"
	"sort"
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

	// The occupied span of the time grid, in absolute bucket indexes.
	hasTime          bool
	minTime, maxTime int64

	largest, mostVersioned, nodeLargest topRows

	sample sampler

	// Per-row scratch, reused to keep Add allocation-free.
	summary    rowSummary
	rowBuckets []timeCount
	path       []*Node
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
		sample:        newSampler(opts.SampleSize, opts.Seed),
	}
	for i, family := range meta.Families {
		b.familyIndex[family] = i
	}
	meta.TimeBucketMicros = initialBucketMicros
	meta.Root = &Node{Kind: KindPrefix}
	b.nodes = 1
	sort.Slice(meta.Ranges, func(i, j int) bool { return meta.Ranges[i].Start < meta.Ranges[j].Start })
	if opts.Delimiters != "" {
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
	if b.detecting {
		b.pending = append(b.pending, Row{Key: row.Key, Weight: row.Weight, Cells: slices.Clone(row.Cells)})
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
	b.snap.Ranges[i].Scanned = true
	b.snap.Ranges[i].Rescanned = b.snap.Ranges[i].Rescanned || rescanned
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
	return snap
}

func (b *Builder) finishDetection() {
	keys := make([]string, len(b.pending))
	for i := range b.pending {
		keys[i] = b.pending[i].Key
	}
	b.setDelimiters(DetectDelimiters(keys))
	b.detecting = false
	for i := range b.pending {
		b.add(&b.pending[i])
	}
	b.pending = nil
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
			s := rowStat()
			s.TopColumns = nil
			node.Top = b.nodeLargest.insert(node.Top, s)
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
	node := b.snap.Root
	path = append(path, node)
	for offset := 0; offset < len(key) && node.Kind == KindPrefix && node.Depth < b.opts.MaxDepth; {
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
		return parent.Children[i]
	}
	end := offset + b.splitter.Next(key, offset)
	child := &Node{Depth: parent.Depth + 1}
	if end == len(key) && !b.endsWithDelimiter(key) {
		child.Kind, child.Prefix, child.Start, child.End = KindRow, Key(key), Key(key), Key(key+"\x00")
	} else {
		prefix := key[:end]
		child.Kind, child.Prefix, child.Start, child.End = KindPrefix, Key(prefix), Key(prefix), Key(PrefixEnd(prefix))
	}
	i, _ := parent.childIndex(key)
	if b.nodes >= b.opts.MaxNodes {
		return b.foldInto(parent, i, child)
	}
	// Keep siblings disjoint even for keys the splitter cannot separate.
	if i > 0 && parent.Children[i-1].End != "" && child.Start < parent.Children[i-1].End {
		child.Start = parent.Children[i-1].End
	}
	if i < len(parent.Children) && EndBefore(string(parent.Children[i].Start), string(child.End)) {
		child.End = parent.Children[i].Start
	}
	parent.Children = slices.Insert(parent.Children, i, child)
	b.nodes++
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

// foldInto widens the sibling next to insertion point i so that it covers
// the would-be child, turning it into a range; used once the node budget
// is spent.
func (b *Builder) foldInto(parent *Node, i int, child *Node) *Node {
	if len(parent.Children) == 0 {
		return nil
	}
	var sibling *Node
	if i > 0 {
		sibling = parent.Children[i-1]
		sibling.End = child.End
		if i < len(parent.Children) && EndBefore(string(parent.Children[i].Start), string(sibling.End)) {
			sibling.End = parent.Children[i].Start
		}
	} else {
		sibling = parent.Children[0]
		sibling.Start = child.Start
	}
	b.toRange(sibling)
	return sibling
}

// toRange turns n into a leaf range, releasing its subtree.
func (b *Builder) toRange(n *Node) {
	b.nodes -= n.Count() - 1
	n.Children = nil
	n.Kind = KindRange
	n.Prefix = Key(CommonPrefix(string(n.FirstKey), string(n.LastKey)))
}

// compact merges adjacent children of parent, the pair with the fewest
// rows first, until it is back under its fan-out cap. Hot children stay
// separate; cold runs become ranges.
func (b *Builder) compact(parent *Node) {
	target := max(2, int(float64(b.opts.MaxChildren)*compactToShare))
	children := parent.Children
	for len(children) > target {
		best := 0
		for i := 1; i+1 < len(children); i++ {
			if children[i].Rows+children[i+1].Rows < children[best].Rows+children[best+1].Rows {
				best = i
			}
		}
		left, right := children[best], children[best+1]
		b.toRange(left)
		b.nodes -= right.Count()
		left.End = right.End
		left.Stats.merge(&right.Stats)
		left.Writes.merge(&right.Writes)
		left.Top = b.nodeLargest.merge(left.Top, right.Top)
		left.Prefix = Key(CommonPrefix(string(left.FirstKey), string(left.LastKey)))
		children = slices.Delete(children, best+1, best+2)
	}
	parent.Children = children
}
