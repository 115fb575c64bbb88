package keyspace

import (
	"cmp"
	"hash/maphash"
	"math/bits"
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
// seen once costs a hash and an addition instead of a heap update, which
// is most keys of a write-heavy recording.
//
// The buckets also index the counters: each holds a chain of the
// counters whose keys hash to it (almost always none or one), so that
// finding, adding and evicting a counter costs no map operation, and the
// heap holds each count next to its counter's number, so that sifting
// reads one array.
type hotCounter struct {
	capacity int
	entries  []hotEntry // the counters, at most capacity
	heap     []heapSlot // a min-heap of the counters by count
	filter   []float64  // the buckets of keys without a counter (nil until every counter is taken)
	// first is, per bucket, 1 + the number of the first counter in its
	// chain (0: none).
	first []int32
	seed  maphash.Seed
}

// filterPerCounter is how many filter buckets a hotCounter keeps per
// counter: with 16, uniformly random writes to 100,000 rows hand a
// counter over for one row in six (with 4, for three in seven), and the
// three counters of a recording take 768 KB, their counters included.
const filterPerCounter = 16

// hotEntry is one counter: its key (a row key, or a scanned range's
// bounds joined by [scanKey]), error bound and a second measure (bytes,
// or rows returned); its slot in the heap, which holds its count; its
// filter bucket and the next counter in the bucket's chain (1 + its
// number; 0: none).
type hotEntry struct {
	key          string
	error, extra float64
	at, bucket   int32
	next         int32
}

// heapSlot is one place in the heap: a count and the counter it is of.
type heapSlot struct {
	count float64
	entry int32
}

// hotCount is a counter as [hotCounter.top] reports it.
type hotCount struct {
	key                 string
	count, error, extra float64
}

func newHotCounter(capacity int) hotCounter {
	return hotCounter{capacity: capacity, first: make([]int32, hotStartBuckets), seed: maphash.MakeSeed()}
}

// hotStartBuckets is how many buckets a hotCounter starts with: until its
// counters are all taken the filter counts nothing, and the buckets only
// chain the counters, so they grow with them (a table with a few calls
// costs a few hundred bytes, not the 768 KB of three full counters).
const hotStartBuckets = 16

// add counts weight occurrences of key, with extra added to its second
// measure (lost while the key has no counter).
func (h *hotCounter) add(key string, weight, extra float64) {
	bucket := h.bucket(key)
	for next := h.first[bucket]; next != 0; {
		e := &h.entries[next-1]
		if e.key == key {
			h.heap[e.at].count += weight
			e.extra += extra
			h.down(int(e.at))
			return
		}
		next = e.next
	}
	if len(h.entries) < h.capacity {
		if h.growBuckets() {
			bucket = h.bucket(key)
		}
		n := int32(len(h.entries))
		h.entries = append(h.entries, hotEntry{key: key, extra: extra, at: int32(len(h.heap)), bucket: bucket, next: h.first[bucket]})
		h.first[bucket] = n + 1
		h.heap = append(h.heap, heapSlot{count: weight, entry: n})
		h.up(len(h.heap) - 1)
		return
	}
	if h.filter == nil {
		h.filter = make([]float64, len(h.first))
	}
	seen := h.filter[bucket]
	min := h.heap[0]
	if weight == 0 || seen+weight < min.count {
		h.filter[bucket] = seen + weight
		return
	}
	// Replace the smallest counter; its count goes back to its bucket,
	// which must stay at least the true count of every key in it.
	e := &h.entries[min.entry]
	h.filter[e.bucket] = max(h.filter[e.bucket], min.count)
	h.unchain(min.entry)
	*e = hotEntry{key: key, error: seen, extra: extra, at: 0, bucket: bucket, next: h.first[bucket]}
	h.first[bucket] = min.entry + 1
	h.heap[0].count = seen + weight
	h.down(0)
}

// growBuckets makes room for one more counter: the buckets double while
// they are fewer than twice the counters, and take their full number,
// filterPerCounter per counter, with the last counter, before the filter
// starts counting. It rechains the counters and reports whether it did.
func (h *hotCounter) growBuckets() bool {
	full := filterPerCounter * h.capacity
	want := len(h.first)
	for want < full && want < 2*(len(h.entries)+1) {
		want *= 2
	}
	if len(h.entries)+1 == h.capacity {
		want = full
	}
	want = min(want, full)
	if want == len(h.first) {
		return false
	}
	h.first = make([]int32, want)
	for i := range h.entries {
		e := &h.entries[i]
		e.bucket = h.bucket(e.key)
		e.next, h.first[e.bucket] = h.first[e.bucket], int32(i)+1
	}
	return true
}

// unchain takes counter n out of its bucket's chain.
func (h *hotCounter) unchain(n int32) {
	link := &h.first[h.entries[n].bucket]
	for *link != n+1 {
		link = &h.entries[*link-1].next
	}
	*link = h.entries[n].next
}

// bucket returns key's filter bucket.
func (h *hotCounter) bucket(key string) int32 {
	hi, _ := bits.Mul64(maphash.String(h.seed, key), uint64(len(h.first)))
	return int32(hi)
}

// top returns the k largest counters, largest first (ties by key).
func (h *hotCounter) top(k int) []hotCount {
	counts := make([]hotCount, len(h.heap))
	for i, slot := range h.heap {
		e := &h.entries[slot.entry]
		counts[i] = hotCount{key: e.key, count: slot.count, error: e.error, extra: e.extra}
	}
	slices.SortFunc(counts, func(a, b hotCount) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	return counts[:min(k, len(counts))]
}

func (h *hotCounter) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.entries[h.heap[i].entry].at, h.entries[h.heap[j].entry].at = int32(i), int32(j)
}

func (h *hotCounter) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h.heap[i].count >= h.heap[parent].count {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

func (h *hotCounter) down(i int) {
	for {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < len(h.heap) && h.heap[left].count < h.heap[smallest].count {
			smallest = left
		}
		if right < len(h.heap) && h.heap[right].count < h.heap[smallest].count {
			smallest = right
		}
		if smallest == i {
			return
		}
		h.swap(i, smallest)
		i = smallest
	}
}
