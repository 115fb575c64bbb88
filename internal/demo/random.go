package demo

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// newRand returns the deterministic random source of a data set. Scenarios
// that show the same data two ways (bad and good key) share a seed name.
func newRand(seedName string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(seedName))
	seed := h.Sum64()
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// randomTime returns a millisecond-granular time uniformly in [start, end).
func randomTime(r *rand.Rand, start, end time.Time) time.Time {
	spanMillis := end.Sub(start).Milliseconds()
	return start.Add(time.Duration(r.Int64N(spanMillis)) * time.Millisecond)
}

// zipfWeights returns cumulative weights of n items where item k (from 0)
// has weight 1/(k+1)^s: s near 0 is uniform, s = 1 is the classic Zipf skew.
func zipfWeights(n int, s float64) []float64 {
	cumulative := make([]float64, n)
	total := 0.0
	for k := range n {
		total += 1 / math.Pow(float64(k+1), s)
		cumulative[k] = total
	}
	return cumulative
}

// pickWeighted returns an index drawn from cumulative weights.
func pickWeighted(r *rand.Rand, cumulative []float64) int {
	x := r.Float64() * cumulative[len(cumulative)-1]
	lo, hi := 0, len(cumulative)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cumulative[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// pick returns a random element of items.
func pick[T any](r *rand.Rand, items []T) T {
	return items[r.IntN(len(items))]
}

// round1 rounds to one decimal, for readable JSON values.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// distinctTimes returns n distinct millisecond-granular times in [start,
// end), sorted from oldest to newest.
func distinctTimes(r *rand.Rand, n int, start, end time.Time) []time.Time {
	seen := make(map[time.Time]bool, n)
	times := make([]time.Time, 0, n)
	for len(times) < n {
		t := randomTime(r, start, end)
		if !seen[t] {
			seen[t] = true
			times = append(times, t)
		}
	}
	slices.SortFunc(times, time.Time.Compare)
	return times
}

// measure returns the length of the value a real writer would store,
// formatted as fmt.Sprintf(format, args...): generators describe values
// by their size alone, and formatting them (drawing the same random
// numbers) keeps every size, and so every byte count of the demo, exact.
func measure(format string, args ...any) int {
	n, _ := fmt.Fprintf(io.Discard, format, args...) // io.Discard never fails
	return n
}
