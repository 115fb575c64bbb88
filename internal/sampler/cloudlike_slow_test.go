//go:build slow

package sampler

import (
	"context"
	"math"
	"testing"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// cloudTable is a table behind an emulator that answers SampleRowKeys
// with tablets, with the server's count of rows read.
type cloudTable struct {
	addr    string
	counter *cloudlike.Counter
	rows    []testRow
}

// zipfPrefixes are twelve top-level prefixes whose shares of rows fall
// as 1/rank.
var zipfPrefixes = []string{"acct", "user", "ordr", "cart", "sess", "evnt", "item", "inv", "ship", "pay", "rfnd", "revw"}

func zipfWeights() []int {
	weights := make([]int, len(zipfPrefixes))
	for i := range weights {
		weights[i] = 1000 / (i + 1)
	}
	return weights
}

func startCloudTable(t testing.TB, n int, layout cloudlike.Layout) *cloudTable {
	t.Helper()
	counter := &cloudlike.Counter{}
	srv := emutest.Start(t, cloudlike.ServerOptions(layout, counter)...)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "t", "m", "meta")
	rows := prefixedRows(n, zipfPrefixes, zipfWeights())
	load(t, conn, "t", rows)
	return &cloudTable{addr: srv.Addr, counter: counter, rows: rows}
}

// topShares returns each top-level prefix's share of the rows.
func topShares(snap *keyspace.Snapshot) map[string]float64 {
	shares := map[string]float64{}
	total := snap.Root.Rows
	for _, child := range snap.Root.Children {
		shares[string(child.Prefix)] = child.Rows / total
	}
	return shares
}

func TestCloudLikeSampleReadsLittleAndEstimatesWell(t *testing.T) {
	table := startCloudTable(t, 200_000, cloudlike.Uneven(50, 5, 0.2))
	conn := emutest.Open(t, emutest.Target(table.addr))
	ctx := context.Background()
	full, err := Scan(ctx, conn, "t", Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if full.Scan.Concurrency != DefaultEmulatorConcurrency {
		t.Errorf("a full scan of an emulator reads %d at once, want %d", full.Scan.Concurrency, DefaultEmulatorConcurrency)
	}
	if !full.RangesAreTablets || len(full.Ranges) < 40 {
		t.Fatalf("full scan: tablets %v, %d ranges", full.RangesAreTablets, len(full.Ranges))
	}
	want := topShares(full)
	for _, fraction := range []float64{0.05, 0.01} {
		for seed := range uint64(3) {
			table.counter.Reset()
			snap, err := Scan(ctx, conn, "t", Options{Fraction: fraction, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			read := table.counter.Rows()
			scan := snap.Scan
			t.Logf("%v seed %d: %s; %d rows read at the server (%.2f%%), estimate %d [%d, %d] of %d",
				fraction, seed, scan.ModeText(), read, 100*float64(read)/float64(len(table.rows)),
				scan.RowsEstimated, scan.RowsEstimatedLow, scan.RowsEstimatedHigh, len(table.rows))
			if scan.Method != keyspace.MethodPositions {
				t.Errorf("method %q, want positions", scan.Method)
			}
			if scan.Concurrency != DefaultConcurrency {
				t.Errorf("%d reads in flight, want %d as on Cloud Bigtable: tablets are read at positions on any server", scan.Concurrency, DefaultConcurrency)
			}
			if float64(read) > 1.5*fraction*float64(len(table.rows))+1000 {
				t.Errorf("%v: the server read %d rows", fraction, read)
			}
			got := topShares(snap)
			worst := 0.0
			for prefix, share := range want {
				worst = math.Max(worst, math.Abs(got[prefix]-share))
			}
			t.Logf("worst top-level share error %.2f pp", 100*worst)
			n := int64(len(table.rows))
			if !(scan.RowsEstimatedLow < scan.RowsEstimated && scan.RowsEstimated < scan.RowsEstimatedHigh) {
				t.Errorf("%v: estimate %d outside its own interval [%d, %d]", fraction, scan.RowsEstimated, scan.RowsEstimatedLow, scan.RowsEstimatedHigh)
			}
			// A sample this small (40 to 200 rows a tablet) estimates the
			// total to a few percent. Tablets that hold the end of one
			// prefix and the start of the next are cut into pieces, so
			// at 5% the prefixes' shares hold (before the pieces, 1.5 to
			// 2.1 pp off); at 1%, 40 rows a tablet, only the gross errors
			// fail here: the benchmark's larger table has the finer marks
			// (see the README's Cloud-like figures).
			if math.Abs(float64(scan.RowsEstimated-n)) > 0.1*float64(n) {
				t.Errorf("%v: estimated %d rows of %d", fraction, scan.RowsEstimated, n)
			}
			limit := 0.08
			if fraction >= 0.05 {
				limit = 0.015
			}
			if worst > limit {
				t.Errorf("%v: a top-level prefix's share is %.2f pp off (want ≤ %.1f pp)", fraction, 100*worst, 100*limit)
			}
		}
	}
}
