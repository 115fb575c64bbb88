package keyspace

import (
	"cmp"
	"slices"
)

// hotCounter finds the most frequent keys of a stream in bounded memory
// with the Space-Saving algorithm (Metwally, Agrawal and El Abbadi, 2005):
// it keeps at most capacity counters; a new key takes over the smallest
// counter and inherits its count as its error bound. Every key whose true
// count exceeds total/capacity is guaranteed a counter, each count
// over-estimates the true one by at most its error, and memory does not
// grow with the stream. Counters live in a binary min-heap by count, so
// an update costs O(log capacity).
type hotCounter struct {
	capacity int
	index    map[string]int // key → position in heap
	heap     []hotEntry
}

// hotEntry is one counter: its key (a row key, or a scanned range's
// bounds joined by [scanKey]), count, error bound and a second measure
// (bytes, or rows returned).
type hotEntry struct {
	key          string
	count, error float64
	extra        float64
}

func newHotCounter(capacity int) hotCounter {
	return hotCounter{capacity: capacity, index: make(map[string]int, capacity)}
}

// add counts weight occurrences of key, with extra added to its second
// measure.
func (h *hotCounter) add(key string, weight, extra float64) {
	if i, ok := h.index[key]; ok {
		h.heap[i].count += weight
		h.heap[i].extra += extra
		h.down(i)
		return
	}
	if len(h.heap) < h.capacity {
		h.heap = append(h.heap, hotEntry{key: key, count: weight, extra: extra})
		h.index[key] = len(h.heap) - 1
		h.up(len(h.heap) - 1)
		return
	}
	// Replace the smallest counter: its count becomes the new key's
	// error bound.
	min := &h.heap[0]
	delete(h.index, min.key)
	*min = hotEntry{key: key, count: min.count + weight, error: min.count, extra: extra}
	h.index[key] = 0
	h.down(0)
}

// top returns the k largest counters, largest first (ties by key).
func (h *hotCounter) top(k int) []hotEntry {
	entries := slices.Clone(h.heap)
	slices.SortFunc(entries, func(a, b hotEntry) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	return entries[:min(k, len(entries))]
}

func (h *hotCounter) less(i, j int) bool { return h.heap[i].count < h.heap[j].count }

func (h *hotCounter) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.index[h.heap[i].key] = i
	h.index[h.heap[j].key] = j
}

func (h *hotCounter) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

func (h *hotCounter) down(i int) {
	for {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < len(h.heap) && h.less(left, smallest) {
			smallest = left
		}
		if right < len(h.heap) && h.less(right, smallest) {
			smallest = right
		}
		if smallest == i {
			return
		}
		h.swap(i, smallest)
		i = smallest
	}
}
