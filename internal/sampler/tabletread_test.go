package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// A part of a line that starts at its first place starts at its first
// key: the key a place rounds to can lie past it (a key longer than the
// map's precision), and a tablet whose one row is its first key (a row
// of 125 MB, a tablet of its own) was swept past it 23 times in 60.
func TestSpanKeysStartAtTheLinesFirstKey(t *testing.T) {
	m := newKeyMap("media#")
	for i := range 200 {
		m.learn(fmt.Sprintf("media#user%04d#photo-%08x", i*37%1000, i*2654435761))
	}
	m.judge()
	rounded := 0
	for i := range 1000 {
		from := fmt.Sprintf("media#user%04d#photo-%08x-2026103%d", i, i*40503, i%10)
		to := fmt.Sprintf("media#user%04d#photo-%08x", i+3, i)
		line := m.segmentOf(from, to)
		if line.at(0) > from {
			rounded++
		}
		if start, _, _ := spanKeys(line.at, 0, 0.01, from, to, ""); start != from {
			t.Fatalf("the first part of [%q, %q) starts at %q (its first place rounds to %q)", from, to, start, line.at(0))
		}
		if start, _, _ := spanKeys(line.at, 0, 0.01, from, to, from+"x"); start != from+"x" {
			t.Fatalf("the first part of [%q, %q) after %q starts at %q", from, to, from+"x", start)
		}
	}
	if rounded == 0 {
		t.Fatal("no first place rounded past its key: the test no longer shows the case it guards")
	}
	t.Logf("%d of 1000 lines' first places round past their first keys", rounded)
}

// TestCutSpansAreUnbiased reads a span of a line whose rows fall at
// random (Poisson), with a limit of 16 rows, 20,000 times: the rows it
// stands for, its own when its limit did not cut it and factor times
// them when it did, average what it holds to within 1%. With 32 rows in
// the span, the width over the width read alone averaged 6.2% over; with
// 16, the limit its mean, the factor's floor of 1 adds about 0.2% (the
// seeds are fixed, the spread of the mean is 0.2%).
func TestCutSpansAreUnbiased(t *testing.T) {
	const (
		draws = 20_000
		limit = 16
	)
	for _, mean := range []float64{32, 16} {
		rng := rand.New(rand.NewPCG(26, 1))
		var sum float64
		for range draws {
			// The places of the span's rows on [0, 1), in order, up to the limit.
			var at float64
			var returned int64
			for returned < limit {
				at += rng.ExpFloat64() / mean
				if at >= 1 {
					break
				}
				returned++
			}
			if returned < limit {
				sum += float64(returned)
				continue
			}
			sum += float64(returned) * cutFactor(0, 1, at, returned)
		}
		got := sum / draws
		t.Logf("a span of %.0f rows cut at %d stands for %.2f on average (%d draws, seed 26)", mean, limit, got, draws)
		if math.Abs(got/mean-1) > 0.01 {
			t.Errorf("a span of %.0f rows cut at %d stands for %.2f on average, want %.0f within 1%%", mean, limit, got, mean)
		}
	}
}
