package sampler

import (
	"context"
	"testing"

	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/emulator"
	"github.com/btviz/btviz/keyspace"
)

// TestSampledScanOfASmallTableFindsTheRewrittenRow: a 5% sample of the
// memusage scenario (20,001 rows, too few key spans for a span sample)
// reads rows with RowSampleFilter and would miss its one row rewritten
// 5,000 times 95 times in 100; the row makes its range's SampleRowKeys
// bytes jump by ~100 KB, a twentieth of this small table, so the range
// is read again in full and the row is found every time.
func TestSampledScanOfASmallTableFindsTheRewrittenRow(t *testing.T) {
	ctx := context.Background()
	srv := startEmulator(t)
	conn := openEmulator(t, srv.Addr, "")
	scenarios, err := demo.Lookup("memusage-single-row")
	if err != nil {
		t.Fatal(err)
	}
	if err := emulator.Seed(ctx, conn.Admin, conn.Client, scenarios, nil); err != nil {
		t.Fatal(err)
	}
	for run := range 5 {
		snap, err := Scan(ctx, conn, "memusage-single-row", Options{Fraction: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Scan.Method != keyspace.MethodRows {
			t.Fatalf("method %q, want a row sample", snap.Scan.Method)
		}
		if len(snap.MostVersioned) == 0 || snap.MostVersioned[0].Key != "4c410523#memusage" || snap.MostVersioned[0].MaxVersions != 5000 {
			t.Fatalf("run %d: most versioned rows %+v", run, snap.MostVersioned)
		}
		if snap.Scan.RowsRead > 20001/5 {
			t.Fatalf("run %d: read %d rows for a 5%% sample", run, snap.Scan.RowsRead)
		}
	}
}
