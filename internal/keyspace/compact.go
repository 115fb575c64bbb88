package keyspace

// compact merges adjacent children of parent, the pair with the least
// [heat] first, until it is back to compactToShare of its fan-out cap. Hot
// children stay separate; cold runs become ranges. The first and the last
// child are never merged: when a table is built in key-ordered chunks
// (see [Builder.Append]) they are the ones whose rows may still be
// arriving, from the chunk before or after, so their totals are not yet
// known. Pairs are kept in a
// min-heap over a linked list of the children, so a compaction costs
// O(merges · log fan-out) rather than a scan of all pairs per merge.
func (b *Builder) compact(parent *Node) {
	children := parent.Children
	target := max(2, int(float64(b.opts.MaxChildren)*compactToShare))
	if len(children) <= target {
		return
	}
	n := len(children)
	c := &b.compactor
	c.reset(n)
	for i := 1; i+2 < n; i++ {
		c.pairs = append(c.pairs, pairCandidate{left: i, heat: heat(children[i], parent) + heat(children[i+1], parent)})
	}
	c.pairs.init()
	for remaining := n; remaining > target && len(c.pairs) > 0; {
		p := c.pairs.pop()
		right := c.next[p.left]
		if !c.alive[p.left] || right < 0 || p.version != c.version[p.left] {
			continue // stale: one side was merged since the pair was pushed
		}
		b.mergeSiblings(children[p.left], children[right])
		c.alive[right] = false
		c.next[p.left] = c.next[right]
		if c.next[right] >= 0 {
			c.prev[c.next[right]] = p.left
		}
		remaining--
		// The merged node's pairs with both neighbours changed.
		c.version[p.left]++
		if after := c.next[p.left]; after >= 0 && after != n-1 {
			c.pairs.push(pairCandidate{left: p.left, version: c.version[p.left], heat: heat(children[p.left], parent) + heat(children[after], parent)})
		}
		if before := c.prev[p.left]; before > 0 {
			c.version[before]++
			c.pairs.push(pairCandidate{left: before, version: c.version[before], heat: heat(children[before], parent) + heat(children[p.left], parent)})
		}
	}
	kept := children[:0]
	for i, child := range children {
		if c.alive[i] {
			kept = append(kept, child)
		}
	}
	clear(children[len(kept):])
	parent.Children = kept
}

// mergeSiblings folds right into its left neighbour, which becomes a
// range covering both, and recycles right.
func (b *Builder) mergeSiblings(left, right *Node) {
	b.toRange(left)
	left.End = right.End
	b.mergeNodeData(left, right)
	first, last, _ := left.KeyBounds()
	left.Prefix = Key(CommonPrefix(string(first), string(last)))
	b.release(right)
}

// compactor is the scratch state of [Builder.compact], reused across
// compactions.
type compactor struct {
	pairs      pairHeap
	prev, next []int
	alive      []bool
	version    []int
}

func (c *compactor) reset(n int) {
	c.pairs = c.pairs[:0]
	c.prev, c.next = resize(c.prev, n), resize(c.next, n)
	c.alive, c.version = resize(c.alive, n), resize(c.version, n)
	for i := range n {
		c.prev[i], c.next[i], c.alive[i], c.version[i] = i-1, i+1, true, 0
	}
	c.next[n-1] = -1
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// pairCandidate is the pair (left, next(left)) with their combined heat
// when it was pushed; version tells a stale entry from a current one.
type pairCandidate struct {
	left, version int
	heat          float64
}

// pairHeap is a binary min-heap of pairs by heat, then by position so
// that equal pairs merge left to right, deterministically. It is typed
// rather than container/heap so that pushing and popping do not allocate.
type pairHeap []pairCandidate

func (h pairHeap) less(i, j int) bool {
	if h[i].heat != h[j].heat {
		return h[i].heat < h[j].heat
	}
	return h[i].left < h[j].left
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p pairCandidate) {
	*h = append(*h, p)
	h.up(len(*h) - 1)
}

func (h *pairHeap) pop() pairCandidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h pairHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h pairHeap) down(i int) {
	for {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < len(h) && h.less(left, smallest) {
			smallest = left
		}
		if right < len(h) && h.less(right, smallest) {
			smallest = right
		}
		if smallest == i {
			return
		}
		h[i], h[smallest] = h[smallest], h[i]
		i = smallest
	}
}
