package keyspace

import (
	"fmt"
	"slices"
)

// Append folds sub into b: the rows of another chunk of the scan, built
// from its own rows by another builder. Totals, histograms, top rows and
// the sample come out as if b had taken sub's rows itself, whatever the
// chunks' key ranges. When chunks are contiguous key ranges appended in
// key order, the tree is also the one a single builder fed the rows in
// key order would build, which a parallel scan cannot give one builder
// fed interleaved rows: every node is judged on complete data, because an
// entity that spans two chunks is the last child of one and the first
// child of the next, and compaction never merges those (see
// [Builder.compact]). sub must split keys at the same delimiters; its
// tablet map may be the part of b's that its rows fall in (each of its
// ranges is added to the range of b that holds its start). sub must not
// be used afterwards.
func (b *Builder) Append(sub *Builder) error {
	if b.detecting {
		b.finishDetection()
	}
	if sub.detecting {
		sub.finishDetection()
	}
	if b.splitter.Delimiters() != sub.splitter.Delimiters() {
		return fmt.Errorf("appending a chunk split at %s to a build split at %s: give both the same delimiters", quotedKey(sub.splitter.Delimiters()), quotedKey(b.splitter.Delimiters()))
	}
	b.adoptFamilies(sub)
	b.alignTime(sub)

	b.appendNode(b.snap.Root, sub.snap.Root)
	for i := range sub.snap.Ranges {
		from := &sub.snap.Ranges[i]
		j, ok := b.rangeOf(string(from.Start))
		if !ok {
			continue // outside b's tablet map: the chunk's rows are in the tree
		}
		to := &b.snap.Ranges[j]
		to.Stats.merge(&from.Stats)
		to.Writes.merge(&from.Writes)
		to.Scanned = to.Scanned || from.Scanned
		to.Rescanned = to.Rescanned || from.Rescanned
		to.Unexplained = to.Unexplained || from.Unexplained
	}
	b.snap.Largest = b.largest.merge(b.snap.Largest, sub.snap.Largest)
	b.snap.MostVersioned = b.mostVersioned.merge(b.snap.MostVersioned, sub.snap.MostVersioned)
	b.sample.absorb(&sub.sample)
	b.longKeys = mergeLongKeys(b.longKeys, sub.longKeys)
	if sub.keys.longest > b.keys.longest {
		b.keys.longest = sub.keys.longest
		b.applyKeyBudget()
	}
	b.snap.Scan.RowsRead += sub.snap.Scan.RowsRead
	b.snap.Scan.CellsRead += sub.snap.Scan.CellsRead
	if sub.sharedKnown {
		b.narrowShared(sub.shared)
	}
	if sub.depth < b.depth {
		b.collapseTo(sub.depth)
	}
	if b.nodes > b.maxNodes() {
		b.prune()
	}
	return nil
}

// adoptFamilies renumbers sub's family bits into b's family list.
func (b *Builder) adoptFamilies(sub *Builder) {
	remap := make([]int, len(sub.snap.Families))
	same := true
	for i, name := range sub.snap.Families {
		remap[i] = b.familyOf(name)
		same = same && remap[i] == i
	}
	if same {
		return
	}
	move := func(s *Stats) {
		old := s.FamilyMask
		s.FamilyMask = nil
		for i := range remap {
			if i/64 < len(old) && old[i/64]&(1<<(i%64)) != 0 {
				s.setFamily(remap[i])
			}
		}
	}
	sub.snap.Root.Walk(func(n *Node) bool { move(&n.Stats); return true })
	for i := range sub.snap.Ranges {
		move(&sub.snap.Ranges[i].Stats)
	}
}

// alignTime brings b and sub onto one time grid wide enough for both.
func (b *Builder) alignTime(sub *Builder) {
	for b.snap.TimeBucketMicros < sub.snap.TimeBucketMicros {
		b.coarsen()
		b.minTime, b.maxTime = floorDiv(b.minTime, 2), floorDiv(b.maxTime, 2)
	}
	for sub.snap.TimeBucketMicros < b.snap.TimeBucketMicros {
		sub.coarsen()
		sub.minTime, sub.maxTime = floorDiv(sub.minTime, 2), floorDiv(sub.maxTime, 2)
	}
	if !sub.hasTime {
		return
	}
	lo, hi := sub.minTime, sub.maxTime
	if b.hasTime {
		lo, hi = min(lo, b.minTime), max(hi, b.maxTime)
	}
	for hi-lo >= MaxTimeBuckets {
		b.coarsen()
		sub.coarsen()
		lo, hi = floorDiv(lo, 2), floorDiv(hi, 2)
	}
	b.hasTime, b.minTime, b.maxTime = true, lo, hi
}

// appendNode folds src, the same key prefix as dst in a chunk that
// follows it, into dst.
func (b *Builder) appendNode(dst, src *Node) {
	b.mergeNodeData(dst, src)
	if dst.Kind != KindPrefix || dst.Depth >= b.limit() {
		return // a leaf: the totals are all it keeps
	}
	for _, child := range src.Children {
		i, found := dst.childIndex(string(child.Start))
		if !found {
			if !b.foldCold(dst, i, child) {
				b.adoptChild(dst, i, child)
			}
			continue
		}
		target := dst.Children[i]
		if target.Kind == KindPrefix && child.Kind == KindPrefix && target.Prefix == child.Prefix {
			b.appendNode(target, child) // an entity that spans both chunks
			continue
		}
		// The chunk's first child starts inside dst's last one without
		// being the same prefix (a merged range): widen dst's child to
		// cover it, keeping the totals exact.
		b.mergeNodeData(target, child)
		if EndBefore(string(target.End), string(child.End)) && target.Kind != KindPrefix {
			target.End = child.End
			if i+1 < len(dst.Children) && EndBefore(string(dst.Children[i+1].Start), string(target.End)) {
				target.End = dst.Children[i+1].Start
			}
			b.toRange(target)
		}
	}
	if len(dst.Children) > b.opts.MaxChildren {
		b.compact(dst)
	}
}

// foldCold folds a leaf child (a row or range) of a chunk into the cold
// leaf before it, as [Builder.coldNeighbour] does for a row arriving in a
// builder of its own, rather than adopt it only for compaction to merge
// it later; it reports whether it did. Prefix nodes are always adopted,
// so an entity keeps its node.
func (b *Builder) foldCold(dst *Node, i int, child *Node) bool {
	half := b.opts.MaxChildren / 2
	if child.Kind == KindPrefix || i == 0 || len(dst.Children) < half {
		return false
	}
	coldLimit := heatDimensions / float64(half)
	neighbour := dst.Children[i-1]
	if neighbour.Kind == KindPrefix || heat(neighbour, dst)+heat(child, dst) > coldLimit {
		return false
	}
	b.mergeNodeData(neighbour, child)
	neighbour.End = child.End
	if i < len(dst.Children) && EndBefore(string(dst.Children[i].Start), string(neighbour.End)) {
		neighbour.End = dst.Children[i].Start
	}
	b.toRange(neighbour)
	return true
}

// adoptChild moves child (and its subtree) from a chunk into dst at
// insertion point i.
func (b *Builder) adoptChild(dst *Node, i int, child *Node) {
	if i > 0 && dst.Children[i-1].End != "" && child.Start < dst.Children[i-1].End {
		child.Start = dst.Children[i-1].End
	}
	if i < len(dst.Children) && EndBefore(string(dst.Children[i].Start), string(child.End)) {
		child.End = dst.Children[i].Start
	}
	dst.Children = slices.Insert(dst.Children, i, child)
	b.nodes += child.Count()
}

// collapseTo keeps levels levels below the shared prefix and gives up
// every level deeper.
func (b *Builder) collapseTo(levels int) {
	b.depth = levels
	limit := b.limit()
	if !b.sharedKnown {
		b.snap.TreeDepth = levels
		return
	}
	b.snap.TreeDepth = limit
	b.snap.Root.Walk(func(n *Node) bool {
		if n.Depth < limit {
			return true
		}
		b.dropChildren(n)
		return false
	})
}
