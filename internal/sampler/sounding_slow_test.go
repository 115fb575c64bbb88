//go:build slow

package sampler

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/btviz/btviz/internal/tableshape"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// A table none of whose tablets lies inside one prefix measures how
// unevenly its prefixes' keys lie from the pieces of a few boundary
// tablets read first (see refinement), behind Cloud-like tablets: of
// epoch-millisecond keys, whose density follows the day's cycle, every
// other tablet's pieces then read shorter spans, and the sounding ones'
// spans of pieceSpanRows; of random hex ids every tablet keeps spans of
// pieceSpanRows. The shapes are the first of each family, from a fixed
// seed, of even prefixes at least three to a tablet (so that no tablet
// lies inside one), of tableshape.MinRows rows, read at 1%: the server
// reads at most ciReadAtOnePercent of them, as in
// TestSampleAccuracyOnGeneratedShapes (a table of 150,000 rows in as
// many prefixes reads 5%, on the pieces' heads and fewest spans). Seeds
// fixed, the scans replay exactly; about 6 s.
func TestSoundingTabletsMeasureASpreadNoTabletInsideAPrefixCould(t *testing.T) {
	for _, tc := range []struct {
		family  tableshape.Family
		shorter bool
	}{
		{tableshape.Family(tableshape.Timestamp), true},
		{tableshape.Family(tableshape.Hex), false},
	} {
		var shape tableshape.Shape
		for seed := uint64(1); ; seed++ {
			shape = tableshape.Draw(seed, tc.family, tableshape.MinRows)
			if !shape.Zipf && !shape.Uneven && len(shape.Prefixes) >= 3*len(shape.TabletSizes) {
				break
			}
		}
		t.Run(string(tc.family), func(t *testing.T) {
			addr, counter := loadShape(t, shape)
			conn := emutest.Open(t, emutest.Target(addr))
			var mu sync.Mutex
			aims := map[int]float64{} // per tablet, the shortest spans its pieces aimed at
			opts := Options{Fraction: 0.01, Seed: shape.Seed}
			opts.debugPieces = func(tablet int, pieces tabletPieces, budgets []pieceBudget, _ []pieceRead, _ []pieceEstimate, _ []float64) {
				mu.Lock()
				defer mu.Unlock()
				aim := float64(pieceSpanRows)
				for _, b := range budgets {
					if b.spanRows > 0 {
						aim = min(aim, b.spanRows)
					}
				}
				aims[tablet] = aim
			}
			snap, err := Scan(context.Background(), conn, "t", opts)
			if err != nil {
				t.Fatal(err)
			}
			// The tablets of pieces in key order are the boundary tablets
			// orderUnits sounds from.
			var then []unit
			for _, i := range slices.Sorted(maps.Keys(aims)) {
				then = append(then, unit{i, i + 1})
			}
			sound := soundingTablets(then)
			shorter := 0
			for i, aim := range aims {
				if aim < pieceSpanRows {
					shorter++
				}
				if want := tc.shorter && !sound[i]; (aim < pieceSpanRows) != want {
					t.Errorf("tablet %d (sounding: %v): its pieces' spans aim at %.0f rows; shorter than %d: %v, want %v", i, sound[i], aim, pieceSpanRows, aim < pieceSpanRows, want)
				}
			}
			acc := tableshape.Judge(snap, shape.Truth())
			read := float64(counter.Rows()) / float64(shape.TotalRows())
			t.Logf("%s: %d of %d tablets of pieces, %d of them sounding, read spans shorter than %d rows; worst %.3f pp at %s; the server read %.2f%% of the rows",
				shape, shorter, len(aims), len(sound), pieceSpanRows, acc.Worst, acc.WorstPrefix, 100*read)
			if len(sound) == 0 {
				t.Fatalf("%d tablets of pieces: none sounds", len(aims))
			}
			if read > ciReadAtOnePercent {
				t.Errorf("the server read %.2f%% of the rows at 1%%, bound %.1f%%", 100*read, 100*ciReadAtOnePercent)
			}
		})
	}
}
