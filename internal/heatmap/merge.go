package heatmap

import "container/heap"

// mergeSmallest cuts units into at most wanted groups of adjacent units by
// merging, again and again, the adjacent pair whose combined value is the
// smallest (leftmost first on ties): cold neighbours merge, hot units stay
// apart. It returns the index of each group's first unit.
func mergeSmallest(values []float64, additive bool, wanted int) []int {
	n := len(values)
	if n <= wanted {
		return identityStarts(n)
	}
	combine := func(a, b float64) float64 {
		if additive {
			return a + b
		}
		return max(a, b)
	}
	groups := make([]mergeGroup, n)
	for i, v := range values {
		groups[i] = mergeGroup{start: i, value: v, prev: i - 1, next: i + 1, alive: true}
	}
	groups[n-1].next = -1
	pairs := make(pairHeap, 0, n)
	for i := 0; i+1 < n; i++ {
		pairs = append(pairs, mergePair{left: i, right: i + 1, value: combine(values[i], values[i+1])})
	}
	heap.Init(&pairs)
	for count := n; count > wanted && pairs.Len() > 0; {
		p := heap.Pop(&pairs).(mergePair)
		left, right := &groups[p.left], &groups[p.right]
		if !left.alive || !right.alive || left.next != p.right || left.version != p.leftVersion || right.version != p.rightVersion {
			continue // stale: one side changed since the pair was queued
		}
		left.value = p.value
		left.version++
		right.alive = false
		left.next = right.next
		if right.next >= 0 {
			groups[right.next].prev = p.left
		}
		count--
		if left.prev >= 0 {
			prev := &groups[left.prev]
			heap.Push(&pairs, mergePair{left: left.prev, right: p.left, value: combine(prev.value, left.value), leftVersion: prev.version, rightVersion: left.version})
		}
		if left.next >= 0 {
			next := &groups[left.next]
			heap.Push(&pairs, mergePair{left: p.left, right: left.next, value: combine(left.value, next.value), leftVersion: left.version, rightVersion: next.version})
		}
	}
	var starts []int
	for i := 0; i >= 0; i = groups[i].next {
		starts = append(starts, groups[i].start)
	}
	return starts
}

func identityStarts(n int) []int {
	starts := make([]int, n)
	for i := range starts {
		starts[i] = i
	}
	return starts
}

type mergeGroup struct {
	start, prev, next int
	value             float64
	version           int
	alive             bool
}

type mergePair struct {
	left, right               int
	value                     float64
	leftVersion, rightVersion int
}

// pairHeap is a min-heap of adjacent pairs by combined value, then by
// position.
type pairHeap []mergePair

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	if h[i].value != h[j].value {
		return h[i].value < h[j].value
	}
	return h[i].left < h[j].left
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(mergePair)) }
func (h *pairHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}
