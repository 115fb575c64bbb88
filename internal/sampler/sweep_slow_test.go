//go:build slow

package sampler

import (
	"context"
	"testing"

	"github.com/btviz/btviz/internal/tableshape"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// A tiny prefix between two large ones whose spans find nothing is swept
// (see [worker.sweepPiece]); where the line carries the parts its sweep
// cut short past every byte its tablet's reads did not hold, they are
// read on (see [worker.finishSweep]) rather than given what the tablet's
// other pieces leave. The generated shape of issue 26 at seed 64110823
// (mixed ids, 12 prefixes, 763,294 rows) holds such a prefix: 250 rows,
// 9,700 bytes, in a tablet of 6.8 MB. At 1% its line carried the cut
// parts to 947 GB, and the split gave the prefix 156 kB (16 times its
// bytes, +3,800 rows). Of six scans at 1% (the shape's seed and seeds 1
// to 5), those that sweep the prefix must give it between half and
// twice its bytes (before: 16, 0.23 and 0.23 times; now exactly), and
// every scan reads at most 1.5% of the table. A scan whose spans found
// the prefix is logged, not judged: they gave it 2.1–17 times its bytes
// (seeds 1, 2 and 4), which is open (the README's "Accuracy on
// generated shapes").
func TestSweptPieceIsReadOnWhereItsLineRunsPastItsTablet(t *testing.T) {
	const seed, tiny = 64110823, "aahy3l6c5dpku4p3vu4sn3tw42yv#"
	shape := tableshape.ForSeed(seed, tableshape.MinRows, tableshape.MaxRows)
	addr, counter := loadShape(t, shape)
	conn := emutest.Open(t, emutest.Target(addr))
	var truth float64
	for _, tr := range shape.Truth() {
		if tr.Prefix == tiny {
			truth = float64(tr.ValueBytes)
		}
	}
	if truth == 0 {
		t.Fatalf("shape %s holds no prefix %q", shape, tiny)
	}
	for _, s := range []uint64{seed, 1, 2, 3, 4, 5} {
		counter.Reset()
		var got float64
		var swept bool
		opts := Options{Fraction: 0.01, Seed: s}
		opts.debugPieces = func(_ int, pieces tabletPieces, _ []pieceBudget, found []pieceRead, _ []pieceEstimate, bytes []float64) {
			for h, pc := range pieces {
				if pc.prefix == tiny {
					got += bytes[h]
					swept = swept || found[h].swept
				}
			}
		}
		if _, err := Scan(context.Background(), conn, "t", opts); err != nil {
			t.Fatal(err)
		}
		read := float64(counter.Rows()) / float64(shape.TotalRows())
		t.Logf("seed %d: %q came out at %.0f bytes of %.0f (swept %v); the server read %.3f%% of the rows", s, tiny, got, truth, swept, 100*read)
		if swept && (got > 2*truth || got < truth/2) {
			t.Errorf("seed %d: %q, swept, came out at %.0f bytes, %.2f times its %.0f", s, tiny, got, got/truth, truth)
		}
		if read > 0.015 {
			t.Errorf("seed %d: the server read %.3f%% of the rows, want at most 1.5%%", s, 100*read)
		}
	}
}
