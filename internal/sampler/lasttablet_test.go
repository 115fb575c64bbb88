package sampler

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/tableshape"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// TestLastTabletOfManyPrefixesKeepsItsLastPrefix reads a table whose
// last tablet holds more top-level prefixes than a tablet is cut into
// (maxPieces; a table this small is read at its least sample, 200 rows
// of 11,600, not at the 0.1% asked): 80 prefixes of 15 rows, then "zz#"
// of 2,400 rows, 21% of the table. The rest of the tablet past its most
// pieces runs to the table's end; it was taken for a piece of the prefix
// it starts in, whose line ends where that prefix does, so no span
// landed in "zz#": it was missing from the snapshot (2 of 26 scans), or
// the tablet's bytes, which its spans could not explain, were read
// again in full (3,732–3,760 rows a scan); a generated table whose rest
// piece did seem to explain them lost a prefix of 7.5% (see
// restPieces). Over five seeds the last tablet's pieces end in one of
// "zz#", after a rest on the pooled map that ends where "zz#" starts;
// the last prefix is in every snapshot, its share within 3 points
// (0.06–1.88 over seeds 1–100, median 0.83), and no scan reads more than
// 1,500 rows (946 at most). How often its 95% interval held the truth is
// logged (100 of 100 measured; the generated shapes' tests hold the
// intervals).
func TestLastTabletOfManyPrefixesKeepsItsLastPrefix(t *testing.T) {
	const ids, small, smallRows, lastRows = 8_000, 80, 15, 2_400
	table := manySmallPrefixes(ids, small, smallRows)
	table.add("zz#", lastRows, func(k int) string { return fmt.Sprintf("%06d", k) })
	rows, truth := table.rows, table.truth
	// Ten tablets of "a#" (the ids are spread by a multiplicative hash,
	// so the loaded order is not the key order: the layout weighs bytes
	// in key order), and a last of the small prefixes and "zz#".
	sizes := make([]float64, 11)
	for i := range 10 {
		sizes[i] = 1
	}
	sizes[10] = float64(small*smallRows+lastRows) / (ids / 10)
	srv := emutest.Start(t, cloudlike.ServerOptions(cloudlike.Layout{Sizes: sizes}, nil)...)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "t", "m")
	load(t, conn, "t", rows)

	total := float64(ids + small*smallRows + lastRows)
	held, seeds := 0, 5
	for seed := range uint64(seeds) {
		// The last tablet's pieces, as its reads found them.
		var last tabletPieces
		opts := Options{Fraction: 0.001, Seed: seed + 1}
		opts.debugPieces = func(tablet int, pieces tabletPieces, _ []pieceBudget, _ []pieceRead, _ []pieceEstimate, _ []float64) {
			if tablet == len(sizes)-1 {
				last = slices.Clone(pieces)
			}
		}
		snap, err := Scan(context.Background(), conn, "t", opts)
		if err != nil {
			t.Fatal(err)
		}
		// The tablet holds more prefixes than it is cut into, and its
		// rest ends in a piece of "zz#" of its own.
		if n := len(last); n < 3 || n > minPieces+1 || last[n-1].prefix != "zz#" || last[n-2].prefix != "" || last[n-2].to != "zz#" {
			t.Fatalf("seed %d: the last tablet's pieces end in %+v", seed+1, last[max(0, len(last)-2):])
		}
		acc := tableshape.Judge(snap, truth)
		var share float64
		found := false
		for _, n := range snap.Root.Children {
			if n.Contains("zz#") {
				found = true
				low, high := snap.NodeRowsInterval(n)
				if low-0.5 <= lastRows && lastRows <= high+0.5 {
					held++
				}
				share = n.Rows / snap.Root.Rows
				t.Logf("seed %d: zz# %.0f rows [%.0f, %.0f] of %.0f, %.2f pp off; worst %.2f pp at %s; %d rows read", seed+1, n.Rows, low, high, snap.Root.Rows, 100*math.Abs(share-lastRows/total), acc.Worst, acc.WorstPrefix, snap.Scan.RowsRead)
			}
		}
		if !found {
			t.Fatalf("seed %d: zz# (%.0f%% of the rows) is not in the snapshot", seed+1, 100*lastRows/total)
		}
		if snap.Scan.RowsRead > 1_500 {
			t.Errorf("seed %d: the scan read %d rows of %.0f", seed+1, snap.Scan.RowsRead, total)
		}
		if e := 100 * math.Abs(share-lastRows/total); e > 3 {
			t.Errorf("seed %d: zz# holds %.1f%% of the rows by the sample, truly %.1f%%", seed+1, 100*share, 100*lastRows/total)
		}
	}
	t.Logf("zz#'s 95%% interval held its rows in %d of %d scans", held, seeds)
}

// TestTabletOfManyPrefixesStartsItsLastPrefixAtItsFirstRow reads a table
// of which one tablet holds more top-level prefixes than a tablet is cut
// into (80 of 15 rows), then the first 4,000 rows of "zz#", whose
// sequential ids count from 1,000,000; two tablets hold the next 8,000,
// and the last its last 4,000 and "zzzz#". The piece of "zz#" after the
// rest of that tablet was a line from "zz#" itself, its rows in the last
// 0.26%, and the tablets inside "zz#" gave it a model (their density
// times that line) that the scan trusted: 155 MB for a piece of 400 kB,
// so no head read moved the line's start and no span landed among its
// rows; "zz#" came out 2.5–3.3 points over in five scans (a generated
// shape of issue 26 came out 3.35 points short from such a line; see
// restPieces). Over five seeds the piece's first row is the prefix's,
// and "zz#"'s share is within a point (0.09 points off at the median of
// 100 seeds, 0.31 at most).
func TestTabletOfManyPrefixesStartsItsLastPrefixAtItsFirstRow(t *testing.T) {
	const ids, small, smallRows, zzRows, zzTablets, lastRows = 8_000, 80, 15, 16_000, 4, 1_000
	table := manySmallPrefixes(ids, small, smallRows)
	table.add("zz#", zzRows, func(k int) string { return fmt.Sprintf("%010d", 1_000_000+k) })
	table.add("zzzz#", lastRows, func(k int) string { return fmt.Sprintf("%06d", k) })
	rows, truth := table.rows, table.truth
	// Ten tablets of "a#", one of the small prefixes and the first
	// quarter of "zz#", two of its middle, one of its last quarter and
	// "zzzz#".
	perTablet := float64(ids / 10)
	zzTablet := float64(zzRows / zzTablets)
	sizes := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, (small*smallRows + zzTablet) / perTablet, zzTablet / perTablet, zzTablet / perTablet, (zzTablet + lastRows) / perTablet}
	const tablet = 10
	srv := emutest.Start(t, cloudlike.ServerOptions(cloudlike.Layout{Sizes: sizes}, nil)...)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "t", "m")
	load(t, conn, "t", rows)

	total := float64(len(rows))
	for seed := range uint64(5) {
		var pieces tabletPieces
		opts := Options{Fraction: 0.001, Seed: seed + 1}
		opts.debugPieces = func(i int, found tabletPieces, _ []pieceBudget, _ []pieceRead, _ []pieceEstimate, _ []float64) {
			if i == tablet {
				pieces = slices.Clone(found)
			}
		}
		snap, err := Scan(context.Background(), conn, "t", opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(pieces); n < 3 || pieces[n-1].prefix != "zz#" || pieces[n-2].prefix != "" || pieces[n-2].to != "zz#" {
			t.Fatalf("seed %d: tablet %d's pieces end in %+v", seed+1, tablet, pieces[max(0, len(pieces)-2):])
		}
		// Its line starts at its first row, or past a head read from it.
		if tail := pieces[len(pieces)-1]; tail.first != "zz#0001000000" || tail.from < tail.first {
			t.Errorf("seed %d: zz#'s piece starts at %q, its first row %q; want the first row zz#0001000000", seed+1, tail.from, tail.first)
		}
		var share float64
		for _, n := range snap.Root.Children {
			if n.Contains("zz#") {
				share = n.Rows / snap.Root.Rows
			}
		}
		acc := tableshape.Judge(snap, truth)
		t.Logf("seed %d: zz# %.2f%% of the rows, truly %.2f%%; worst %.2f pp at %s; %d rows read", seed+1, 100*share, 100*zzRows/total, acc.Worst, acc.WorstPrefix, snap.Scan.RowsRead)
		if e := 100 * math.Abs(share-zzRows/total); e > 1 {
			t.Errorf("seed %d: zz# holds %.1f%% of the rows by the sample, truly %.1f%%", seed+1, 100*share, 100*zzRows/total)
		}
	}
}

// prefixTable is a table of top-level prefixes whose rows each hold one
// value of 100 bytes, and its exact counts.
type prefixTable struct {
	rows  []testRow
	truth []tableshape.Truth
}

// add appends n rows of prefix, its ids id(0) to id(n-1) in key order.
func (pt *prefixTable) add(prefix string, n int, id func(int) string) {
	for k := range n {
		pt.rows = append(pt.rows, testRow{key: prefix + id(k), cells: []testCell{{"m", "v", fixtureBase, 100}}})
	}
	pt.truth = append(pt.truth, tableshape.Truth{Prefix: prefix, Rows: n, ValueBytes: int64(100 * n)})
}

// manySmallPrefixes returns a table of "a#" with ids rows (ids spread by
// a multiplicative hash, so the loaded order is not the key order), then
// small prefixes "p00#", "p01#" … of smallRows rows each.
func manySmallPrefixes(ids, small, smallRows int) *prefixTable {
	pt := &prefixTable{}
	pt.add("a#", ids, func(k int) string { return fmt.Sprintf("%08x", uint32(k)*2654435761) })
	for p := range small {
		pt.add(fmt.Sprintf("p%02d#", p), smallRows, func(k int) string { return fmt.Sprintf("%04d", k) })
	}
	return pt
}
