package keyspace

// MaxTimeBuckets bounds the time axis: the snapshot's whole cell-timestamp
// span always fits in this many buckets of [Snapshot.TimeBucketMicros].
const MaxTimeBuckets = 128

// initialBucketMicros is the bucket width a build starts with (1 ms, the
// granularity Bigtable keeps timestamps at); it doubles as the span grows.
const initialBucketMicros = 1000

// TimeHist counts cells by write time on the snapshot-wide grid: bucket i
// covers cell timestamps [ (First+i)·W, (First+i+1)·W ) microseconds, where
// W is [Snapshot.TimeBucketMicros]. Every histogram in a snapshot shares W,
// so histograms add up bucket by bucket. Counts are estimates (sampled rows
// count 1/fraction each).
type TimeHist struct {
	First  int64     `json:"first"`
	Counts []float64 `json:"counts"`
}

// Total returns the sum of all buckets.
func (h *TimeHist) Total() float64 {
	var total float64
	for _, c := range h.Counts {
		total += c
	}
	return total
}

// At returns the count of absolute bucket index i (0 outside the histogram).
func (h *TimeHist) At(i int64) float64 {
	j := i - h.First
	if j < 0 || j >= int64(len(h.Counts)) {
		return 0
	}
	return h.Counts[j]
}

// Last returns the absolute index one past the last bucket.
func (h *TimeHist) Last() int64 { return h.First + int64(len(h.Counts)) }

// add counts weight cells in absolute bucket i, growing the histogram.
func (h *TimeHist) add(i int64, weight float64) {
	if len(h.Counts) == 0 {
		h.First = i
		h.Counts = append(h.Counts, weight)
		return
	}
	switch {
	case i < h.First:
		grown := make([]float64, h.Last()-i)
		copy(grown[h.First-i:], h.Counts)
		h.Counts, h.First = grown, i
	case i >= h.Last():
		h.Counts = append(h.Counts, make([]float64, i-h.Last()+1)...)
	}
	h.Counts[i-h.First] += weight
}

// merge adds every bucket of other into h.
func (h *TimeHist) merge(other *TimeHist) {
	for j, c := range other.Counts {
		if c != 0 {
			h.add(other.First+int64(j), c)
		}
	}
}

// coarsen re-bins h onto a grid twice as wide.
func (h *TimeHist) coarsen() {
	if len(h.Counts) == 0 {
		return
	}
	first := floorDiv(h.First, 2)
	last := floorDiv(h.Last()-1, 2)
	counts := make([]float64, last-first+1)
	for j, c := range h.Counts {
		counts[floorDiv(h.First+int64(j), 2)-first] += c
	}
	h.First, h.Counts = first, counts
}

func (h *TimeHist) clone() TimeHist {
	return TimeHist{First: h.First, Counts: append([]float64(nil), h.Counts...)}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
