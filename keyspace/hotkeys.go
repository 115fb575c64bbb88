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
	index    map[string]*hotEntry
	heap     []*hotEntry
}

// hotEntry is one counter: its key (a row key, or a scanned range's
// bounds joined by [scanKey]), count, error bound and a second measure
// (bytes, or rows returned), and where it is in the heap (so that moving
// it costs no map update).
type hotEntry struct {
	key          string
	count, error float64
	extra        float64
	at           int
}

func newHotCounter(capacity int) hotCounter {
	return hotCounter{capacity: capacity, index: make(map[string]*hotEntry, capacity)}
}

// add counts weight occurrences of key, with extra added to its second
// measure.
func (h *hotCounter) add(key string, weight, extra float64) {
	if e, ok := h.index[key]; ok {
		e.count += weight
		e.extra += extra
		h.down(e.at)
		return
	}
	if len(h.heap) < h.capacity {
		e := &hotEntry{key: key, count: weight, extra: extra, at: len(h.heap)}
		h.heap = append(h.heap, e)
		h.index[key] = e
		h.up(e.at)
		return
	}
	// Replace the smallest counter: its count becomes the new key's
	// error bound.
	min := h.heap[0]
	delete(h.index, min.key)
	*min = hotEntry{key: key, count: min.count + weight, error: min.count, extra: extra, at: 0}
	h.index[key] = min
	h.down(0)
}

// top returns the k largest counters, largest first (ties by key).
func (h *hotCounter) top(k int) []hotEntry {
	entries := make([]hotEntry, len(h.heap))
	for i, e := range h.heap {
		entries[i] = *e
	}
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
	h.heap[i].at, h.heap[j].at = i, j
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
