package keyspace

import (
	"cmp"
	"hash/maphash"
	"slices"
)

// hotCounter finds the most frequent keys of a stream in bounded memory
// with Filtered Space-Saving (Homem and Carvalho, 2010), Space-Saving
// (Metwally, Agrawal and El Abbadi, 2005) behind a filter. It keeps at
// most capacity counters in a binary min-heap by count (an update costs
// O(log capacity)); a key without a counter is first counted in one of
// filterPerCounter·capacity hashed buckets, and takes over the smallest
// counter only once its bucket's count reaches it, inheriting the
// bucket's count as its error bound (the evicted key's count goes back to
// its own bucket). Each bucket's count is at least the true count of
// every key in it without a counter, so each counter over-estimates its
// key's true count by at most its error, as in Space-Saving; but a key
// seen once costs a hash and an addition instead of a heap update and two
// map writes, which is most keys of a write-heavy recording.
type hotCounter struct {
	capacity int
	index    map[string]*hotEntry
	heap     []*hotEntry
	filter   []float64 // the buckets of keys without a counter
	// held counts the keys with a counter in each bucket: a key whose
	// bucket holds none has none, and needs no look in index.
	held []uint16
	seed maphash.Seed
}

// filterPerCounter is how many filter buckets a hotCounter keeps per
// counter: with 16, uniformly random writes to 100,000 rows hand a
// counter over for one row in six (with 4, for three in seven), and the
// three counters of a recording take 480 KB.
const filterPerCounter = 16

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
	return hotCounter{
		capacity: capacity,
		index:    make(map[string]*hotEntry, capacity),
		filter:   make([]float64, filterPerCounter*capacity),
		held:     make([]uint16, filterPerCounter*capacity),
		seed:     maphash.MakeSeed(),
	}
}

// add counts weight occurrences of key, with extra added to its second
// measure (lost while the key has no counter).
func (h *hotCounter) add(key string, weight, extra float64) {
	bucket := h.bucket(key)
	if h.held[bucket] > 0 {
		if e, ok := h.index[key]; ok {
			e.count += weight
			e.extra += extra
			h.down(e.at)
			return
		}
	}
	if len(h.heap) < h.capacity {
		e := &hotEntry{key: key, count: weight, extra: extra, at: len(h.heap)}
		h.heap = append(h.heap, e)
		h.index[key] = e
		h.held[bucket]++
		h.up(e.at)
		return
	}
	seen := h.filter[bucket]
	min := h.heap[0]
	if weight == 0 || seen+weight < min.count {
		h.filter[bucket] = seen + weight
		return
	}
	// Replace the smallest counter; its count goes back to its bucket,
	// which must stay at least the true count of every key in it.
	evicted := h.bucket(min.key)
	h.filter[evicted] = max(h.filter[evicted], min.count)
	h.held[evicted]--
	delete(h.index, min.key)
	*min = hotEntry{key: key, count: seen + weight, error: seen, extra: extra, at: 0}
	h.index[key] = min
	h.held[bucket]++
	h.down(0)
}

// bucket returns key's filter bucket.
func (h *hotCounter) bucket(key string) int {
	return int(maphash.String(h.seed, key) % uint64(len(h.filter)))
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
