package sampler

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The least key shaped like a tablet's end key, after its first segment:
// where fixed-width ids of that prefix start.
func TestLeastLike(t *testing.T) {
	want := map[string]string{
		"geo#0010273":  "geo#0000000",
		"user#ab12-Zq": "user#aa00-Aa",
		"x#":           "x#",
	}
	for key, least := range want {
		if got := leastLike(key, strings.IndexByte(key, '#')+1); got != least {
			t.Errorf("leastLike(%q) = %q, want %q", key, got, least)
		}
	}
}

// The windows a tablet's first piece is read back in, for its last rows,
// step back from its estimated end, each twice as wide, and end with one
// that starts at the piece's first row: also where the line's start lies
// above that row (the key map's precision runs out on long keys, such as
// e-mail addresses), where they used to shrink to one empty window read
// again for ever (a sampled scan of pii-login-keys spun for 14 minutes).
func TestBackWindowsEndAtThePiecesFirstRow(t *testing.T) {
	even := func(u float64) string { return fmt.Sprintf("k%07.0f", u*1e6) }
	// A line whose keys below 0.4 all round to one key above the first
	// row: from 0.37 back, the windows stop moving.
	stuck := func(u float64) string { return max(even(u), "k0400000") }
	for _, c := range []struct {
		name        string
		at          func(float64) string
		end, margin float64
		want        int // windows, the last from the first row
	}{
		{"an even line", even, 0.9, 0.05, 6},                    // from 0.85, 0.8, 0.7, 0.5, 0.1, the first row
		{"its start above the first row", stuck, 0.45, 0.01, 5}, // 0.44, 0.43, 0.41, 0.4 (for 0.37), the first row
		{"an end past the line", even, 2, 0.05, 1},
		{"an end of NaN", even, math.NaN(), 0.05, 1},
	} {
		const first = "k0000100"
		var windows [][2]string
		for from, to := range backWindows(c.at, first, "k1000000", c.end, c.margin) {
			windows = append(windows, [2]string{from, to})
			if len(windows) > 100 {
				break
			}
		}
		if len(windows) != c.want {
			t.Errorf("%s: %d windows %q, want %d", c.name, len(windows), windows, c.want)
			continue
		}
		to := "k1000000"
		for i, w := range windows {
			if w[1] != to || w[0] >= w[1] {
				t.Errorf("%s: window %d is %q after one starting at %q", c.name, i, w, to)
			}
			to = w[0]
		}
		if last := windows[len(windows)-1]; last[0] != first {
			t.Errorf("%s: the last window %q does not start at the first row %q", c.name, last, first)
		}
	}
}

// A piece of names holds at least its even share of its tablet's bytes
// in rows of its own head's size: rows a twentieth the size of the
// plan's are twenty times as many, and a head that read nothing leaves
// the plan's even share.
func TestEvenShareRowsAtTheHeadsRowSize(t *testing.T) {
	plan := tabletPlan{rows: 6000, rowBytes: 400}
	for _, c := range []struct {
		name      string
		pieces    int
		headBytes float64
		returned  int64
		want      float64
	}{
		{"rows of the plan's size", 3, 32 * 400, 32, 2000},
		{"rows a twentieth of it", 3, 32 * 20, 32, 40_000},
		{"rows twice its size", 4, 16 * 800, 16, 750},
		{"a head of no rows", 3, 0, 0, 2000},
	} {
		if got := evenShareRows(plan, c.pieces, c.headBytes, c.returned); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %g rows, want %g", c.name, got, c.want)
		}
	}
}

// A sweep reads at most sweepShare times its piece's even share of its
// tablet's planned reads, in at least minTabletSpans parts of
// 2·minSpanRows rows; a sweep within it keeps its piece's budget. The
// first case is a piece of the trace in sweepBudget's comment: 77 parts
// of 34 rows in a tablet that plans about 1,000 rows among ten pieces.
func TestSweepBudgetKeepsToTheTabletsPlan(t *testing.T) {
	for _, c := range []struct {
		name      string
		b         pieceBudget
		plan      float64
		n         int
		wantParts int
		wantRows  int64
	}{
		{"a crowded piece of small rows", pieceBudget{spans: 77, limit: spanLimitFactor * 17}, 1000, 10, 25, 8},
		{"within its share", pieceBudget{spans: 4, limit: spanLimitFactor * 20}, 1000, 10, 4, 40},
		{"at its share", pieceBudget{spans: 5, limit: spanLimitFactor * 20}, 1000, 10, 5, 40},
		{"a share of a few rows", pieceBudget{spans: 9, limit: spanLimitFactor * 30}, 40, 10, minTabletSpans, 2 * minSpanRows},
		{"a share of wide parts", pieceBudget{spans: 6, limit: spanLimitFactor * 400}, 3000, 2, 6, 500},
		{"fewer spans than a sweep's parts", pieceBudget{spans: 2, limit: spanLimitFactor * 100}, 1000, 10, minTabletSpans, 50},
	} {
		got := sweepBudget(c.b, c.plan, c.n)
		parts, rows := got.sweep()
		if parts != c.wantParts || rows != c.wantRows {
			t.Errorf("%s: %d parts of %d rows, want %d of %d", c.name, parts, rows, c.wantParts, c.wantRows)
		}
		if most := sweepShare * c.plan / float64(c.n); float64(parts)*float64(rows) > max(most, float64(minTabletSpans*2*minSpanRows)) {
			t.Errorf("%s: %d parts of %d rows read past %.0f", c.name, parts, rows, most)
		}
	}
}

// How many pieces a tablet is cut into: one for every pieceRows rows its
// plan reads or every pieceTabletRows rows it holds, minPieces to
// maxPieces.
func TestPiecesOf(t *testing.T) {
	for _, c := range []struct {
		name string
		plan tabletPlan
		want int
	}{
		{"a small tablet at a small sample", tabletPlan{rows: 3_600, spans: 4, budget: 15}, minPieces},
		{"a plan that reads 600 rows", tabletPlan{rows: 40_000, spans: 20, budget: 30}, 50},
		{"a tablet of 100,000 rows", tabletPlan{rows: 100_000, spans: 4, budget: 50}, 50},
		{"a tablet of 213,378 rows at 0.1%", tabletPlan{rows: 213_378, spans: 8, budget: 27}, maxPieces},
		{"a plan that reads 6,000 rows", tabletPlan{rows: 60_000, spans: 200, budget: 30}, maxPieces},
	} {
		p := &plan{tablets: []tabletPlan{c.plan}}
		if got := p.piecesOf(0); got != c.want {
			t.Errorf("%s: %d pieces, want %d", c.name, got, c.want)
		}
	}
}
