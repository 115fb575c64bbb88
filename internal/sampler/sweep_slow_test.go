//go:build slow

package sampler

import (
	"context"
	"sync"
	"testing"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/tableshape"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// A tiny prefix between two large ones whose spans find nothing is swept
// (see [worker.sweepPiece]); where the line carries the parts its sweep
// cut short past every byte its tablet's reads did not hold, they are
// read on (see [worker.finishSweep]) rather than given what the tablet's
// other pieces leave. The generated shape of issue 26 at seed 64110823
// (mixed ids, 12 prefixes, 763,294 rows) holds such a prefix: 282 rows,
// 9,700 bytes, in a tablet of 6.8 MB. At 1% its line carried the cut
// parts to 947 GB, and the split gave the prefix 156 kB (16 times its
// bytes, about 4,000 rows too many). Of six scans at 1% (the shape's seed
// and seeds 1 to 5), those that sweep the prefix, the shape's seed among
// them, must have read its cut parts to their ends and give it between
// half and twice its bytes in the split, and its node in the snapshot
// between half and twice its rows (before: 16, 0.23 and 0.23 times its
// bytes; now exactly); every scan reads at most 1.5% of the table. A scan
// whose spans found the prefix is logged, not judged: they gave it 2.1–17
// times its bytes (seeds 1, 2 and 4), which is open (docs/MEASUREMENTS.md's
// "Accuracy on generated shapes").
func TestSweptPieceIsReadOnWhereItsLineRunsPastItsTablet(t *testing.T) {
	const seed, tiny, tinyRows = 64110823, "aahy3l6c5dpku4p3vu4sn3tw42yv#", 282
	shape := tableshape.ForSeed(seed, tableshape.MinRows, tableshape.MaxRows)
	addr, counter := loadShape(t, shape)
	conn := emutest.Open(t, emutest.Target(addr))
	var truth float64
	for _, tr := range shape.Truth() {
		if tr.Prefix == tiny && tr.Rows == tinyRows {
			truth = float64(tr.ValueBytes)
		}
	}
	if truth == 0 {
		t.Fatalf("shape %s holds no prefix %q of %d rows", shape, tiny, tinyRows)
	}
	for _, s := range []uint64{seed, 1, 2, 3, 4, 5} {
		counter.Reset()
		var mu sync.Mutex
		var got float64
		var swept, cut bool
		opts := Options{Fraction: 0.01, Seed: s}
		opts.debugPieces = func(_ int, pieces tabletPieces, _ []pieceBudget, found []pieceRead, _ []pieceEstimate, bytes []float64) {
			mu.Lock()
			defer mu.Unlock()
			for h, pc := range pieces {
				if pc.prefix == tiny {
					got += bytes[h]
					swept = swept || found[h].swept
					cut = cut || len(found[h].cuts) > 0
				}
			}
		}
		snap, err := Scan(context.Background(), conn, "t", opts)
		if err != nil {
			t.Fatal(err)
		}
		rows := -1.0
		for _, n := range snap.Root.Children {
			if n.Contains(tiny) {
				rows = n.Rows
			}
		}
		read := float64(counter.Rows()) / float64(shape.TotalRows())
		t.Logf("seed %d: %q came out at %.0f bytes of %.0f, %.0f rows of %d (swept %v, parts left cut short %v); the server read %.3f%% of the rows",
			s, tiny, got, truth, rows, tinyRows, swept, cut, 100*read)
		if s == seed && !swept {
			t.Errorf("seed %d: %q was not swept; the test no longer reaches what it checks", s, tiny)
		}
		if swept && (cut || got > 2*truth || got < truth/2 || rows > 2*tinyRows || rows < tinyRows/2) {
			t.Errorf("seed %d: %q, swept, came out at %.0f bytes (%.2f times its %.0f) and %.0f rows of %d, with parts left cut short: %v",
				s, tiny, got, got/truth, truth, rows, tinyRows, cut)
		}
		if read > 0.015 {
			t.Errorf("seed %d: the server read %.3f%% of the rows, want at most 1.5%%", s, 100*read)
		}
	}
}

// A tablet whose spans read a few rows, far fewer bytes than it holds, is
// swept (see [worker.sweepTablet]) rather than read again in full: so few
// rows say nothing of an oversized row, and on names, whose keys cluster
// where the line gives them little room, they are the common case at
// 0.1% when the first names are not read first (noNameMarks: read, none
// of these tablets' spans reads so few rows, and no tablet is swept on
// them; see [scanner.markNames]). The generated shape of issue 26 at
// seed 64110870 (names, five prefixes, 944,484 rows) has tablets of up
// to 33.6 MB inside one prefix whose spans read 1 to 7 rows at 0.1%
// without the marks. Of four scans at 0.1% (the
// shape's seed and seeds 1 to 3), the shape's own must sweep a tablet
// whose spans read some rows, none may re-read a range or leave one
// unexplained, and each reads at most 1% of the rows. Read again in
// full, one scan read 14.2% of the table (with a run of keys counted
// once per key in a map of names, see [keyMap.learnRun]) or three read
// 5.5–14.1% (counted once per run); swept, they read 0.20–0.28%.
func TestFewSpanRowsSweepTheirTabletNotReadItAgain(t *testing.T) {
	const seed = 64110870
	sweptNotReadAgain(t, seed, Options{Fraction: 0.001, noNameMarks: true}, 1, 0.01)
}

// Spans on a line of names that read more than a few rows, but far fewer
// bytes than their tablet holds (short of a row Bigtable's large-row
// limit flags), most likely missed where its names' users cluster: the
// tablet is swept too (see [judgeLine]). The generated shape of issue 26
// at seed 64111231 (mixed ids, 77 prefixes, 948,042 rows) holds a tablet
// of 51,257 rows inside one prefix of names whose 4 spans read 19 rows
// at 1% (the plan's 180) and put it at 2.2 MB of its 19.3 MB, 3.4 MB at
// the top of their 95% interval. Read again in full,
// the scan read 6.60% of the table; swept, 1.23%. Of four scans at 1%
// (the shape's seed and seeds 1 to 3), the shape's own must sweep a
// tablet whose spans read fewSpanRows rows or more, none may re-read a
// range or leave one unexplained, and each reads at most 1.5% of the
// rows.
func TestSpansOnNamesThatMissTheirBytesSweepTheirTablet(t *testing.T) {
	const seed = 64111231
	sweptNotReadAgain(t, seed, Options{Fraction: 0.01}, fewSpanRows, 0.015)
}

// sweptNotReadAgain loads issue 26's generated shape of seed and scans it
// with opts at the shape's seed and seeds 1 to 3: the shape's own scan
// must sweep a tablet whose spans read at least least rows, and none may
// re-read a range, leave one unexplained, or read more than most of the
// table's rows.
func sweptNotReadAgain(t *testing.T, seed uint64, opts Options, least int64, most float64) {
	t.Helper()
	eachSampleSeed(t, seed, func(conn *connect.Conn, s uint64, read func() float64) {
		var mu sync.Mutex
		few := 0 // tablets swept though their spans read least rows or more
		opts.Seed = s
		opts.debugSweep = func(_ int, spanRows int64) {
			mu.Lock()
			defer mu.Unlock()
			if spanRows >= least {
				few++
			}
		}
		snap, err := Scan(context.Background(), conn, "t", opts)
		if err != nil {
			t.Fatal(err)
		}
		rescanned, unexplained := 0, 0
		for _, r := range snap.Ranges {
			if r.Rescanned {
				rescanned++
			}
			if r.Unexplained {
				unexplained++
			}
		}
		share := read()
		t.Logf("shape %d, sample seed %d at %g%%: %d tablets swept whose spans read %d rows or more, %d ranges re-read in full, %d unexplained; the server read %.3f%% of the rows",
			seed, s, 100*opts.Fraction, few, least, rescanned, unexplained, 100*share)
		if s == seed && few == 0 {
			t.Errorf("shape %d, sample seed %d: no tablet swept whose spans read %d rows or more; the test no longer reaches what it checks", seed, s, least)
		}
		if rescanned > 0 || unexplained > 0 || share > most {
			t.Errorf("shape %d, sample seed %d: %d ranges re-read in full, %d unexplained and %.3f%% of the rows read, want none, none and at most %g%%", seed, s, rescanned, unexplained, 100*share, 100*most)
		}
	})
}

// eachSampleSeed loads issue 26's generated shape of seed behind a
// Cloud-like emulator and calls scan for the shape's seed and sample
// seeds 1 to 3 in turn; read returns the share of the table's rows the
// server has read since scan was called.
func eachSampleSeed(t *testing.T, seed uint64, scan func(conn *connect.Conn, s uint64, read func() float64)) {
	t.Helper()
	shape := tableshape.ForSeed(seed, tableshape.MinRows, tableshape.MaxRows)
	addr, counter := loadShape(t, shape)
	conn := emutest.Open(t, emutest.Target(addr))
	for _, s := range []uint64{seed, 1, 2, 3} {
		counter.Reset()
		scan(conn, s, func() float64 { return float64(counter.Rows()) / float64(shape.TotalRows()) })
	}
}

// A piece whose spans find no row is swept within twice its even share
// of its tablet's planned reads (see [sweepBudget]). The generated shape
// of issue 26 at seed 107068213838 (names, 195 prefixes over 21 uneven
// tablets, 720,805 rows) crowds about ten prefixes of names into each
// tablet; their pieces plan for their even share of the tablet's bytes
// in rows of their heads' sizes, and where their spans found nothing
// their sweeps read up to twice that: 3.13% of the table at 1%, 14,850
// rows of it in sweeps. Of four scans at 1% (the shape's seed and seeds
// 1 to 3), each must sweep some piece and read at most 1.5% of the
// table's rows.
func TestSweepsOfCrowdedPiecesKeepToTheirTabletsPlan(t *testing.T) {
	eachSampleSeed(t, 107068213838, func(conn *connect.Conn, s uint64, read func() float64) {
		var mu sync.Mutex
		swept := 0
		opts := Options{Fraction: 0.01, Seed: s}
		opts.debugPieces = func(_ int, _ tabletPieces, _ []pieceBudget, found []pieceRead, _ []pieceEstimate, _ []float64) {
			mu.Lock()
			defer mu.Unlock()
			for h := range found {
				if found[h].swept {
					swept++
				}
			}
		}
		if _, err := Scan(context.Background(), conn, "t", opts); err != nil {
			t.Fatal(err)
		}
		share := read()
		t.Logf("seed %d: %d pieces swept; the server read %.3f%% of the rows", s, swept, 100*share)
		if swept == 0 {
			t.Errorf("seed %d: no piece was swept; the test no longer reaches what it checks", s)
		}
		if share > 0.015 {
			t.Errorf("seed %d: the server read %.3f%% of the rows, want at most 1.5%%", s, 100*share)
		}
	})
}
