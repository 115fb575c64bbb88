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

// What becomes of a tablet read on one line (judgeLine): a tablet like
// that of issue 26's shape seed 64111231 (19.3 MB of names, its 4 spans'
// 19 rows at 3.4 MB at the top of their interval; here 19 MB in a table
// of 300 MB) is swept, not re-read;
// the same shortfall on a line that is not names is re-read, and on a
// line of names a shortfall of 64 MB or more (below the 100 MB at which
// a row is flagged as large) is still re-read.
func TestJudgeLineSweepsNamesButNotAnOversizedRow(t *testing.T) {
	const mb = 1 << 20
	floor := rescanFloor(300 * mb) // a table of 300 MB: 15 MB
	cases := []struct {
		name     string
		bytes    int64
		top      float64
		spanRows int64
		names    bool
		strip    bool
		want     lineVerdict
	}{
		{"no bytes", 0, 0, 0, false, false, keepLine},
		{"no rows read", 19 * mb, 0, 0, false, false, sweepLine},
		{"explained", 19 * mb, 17 * mb, 180, true, false, keepLine},
		{"few rows", 90 * mb, 1 * mb, fewSpanRows - 1, false, false, sweepLine},
		{"ids, short", 19 * mb, 3.4 * mb, 19, false, false, rereadLine},
		{"names, short", 19 * mb, 3.4 * mb, 19, true, false, sweepLine},
		{"names, an oversized row", 3*mb + rescanMinUnexplainedBytes, 3 * mb, 400, true, false, rereadLine},
		{"names, just under", 3*mb + rescanMinUnexplainedBytes - 1, 3 * mb, 400, true, false, sweepLine},
		{"without values", 19 * mb, 3.4 * mb, 19, false, true, keepLine},
		{"without values, no rows read", 19 * mb, 0, 0, false, true, sweepLine},
		{"below the floor", 19 * mb, 4.5 * mb, 19, false, false, keepLine},
	}
	verdicts := map[lineVerdict]string{keepLine: "keep", sweepLine: "sweep", rereadLine: "re-read"}
	for _, c := range cases {
		if got := judgeLine(c.bytes, c.top, c.spanRows, c.names, c.strip, floor); got != c.want {
			t.Errorf("%s: %d bytes, top %.0f, %d span rows, names %v, strip %v: %s, want %s",
				c.name, c.bytes, c.top, c.spanRows, c.names, c.strip, verdicts[got], verdicts[c.want])
		}
	}
}
