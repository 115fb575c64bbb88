//go:build slow

package sampler

import (
	"context"
	"testing"

	"github.com/btviz/btviz/internal/testkit/cbtemulator"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

func TestOfficialEmulatorBinary(t *testing.T) {
	addr := cbtemulator.Start(t)
	conn := emutest.Open(t, emutest.Target(addr))
	rows := prefixedRows(6000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	want := totalsOf(rows)

	snap, err := Scan(context.Background(), conn, "events", Options{})
	if err != nil {
		t.Fatal(err)
	}
	totals := snap.Totals()
	if snap.Scan.Mode != "full" || snap.Scan.RowsRead != want.rows || int64(totals.Cells) != want.cells ||
		int64(totals.Bytes) != want.bytes || int64(totals.ValueBytes) != want.valueBytes || !snap.Scan.Complete {
		t.Fatalf("scan of the official emulator: mode %s, rows %d, totals %+v; want %+v", snap.Scan.Mode, snap.Scan.RowsRead, totals, want)
	}
	sampled, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.5, Prefix: "alpha#"})
	if err != nil || sampled.Scan.RowsRead == 0 || sampled.Scan.RowsRead >= want.rows {
		t.Fatalf("sampled prefix scan: %v rows, %v", sampled.Scan.RowsRead, err)
	}
}
