package sampler

import (
	"context"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// TestSampledScanOfASmallTableFindsTheRewrittenRow: a 5% sample of the
// memusage scenario (20,001 rows, too few key spans for a span sample)
// reads rows with RowSampleFilter and would miss its one row rewritten
// 5,000 times 95 times in 100; the row makes its range's SampleRowKeys
// bytes jump by ~100 KB, a twentieth of this small table, so the range
// is read again in full and the row is found every time.
func TestSampledScanOfASmallTableFindsTheRewrittenRow(t *testing.T) {
	ctx := context.Background()
	conn := emutest.Open(t, emutest.Seed(t, "memusage-single-row"))
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

// TestRereadsCountAgainstTheReadCap: the same 5% sample with --max-read
// at what the sample itself reads has no room left to re-read the range
// holding the rewritten row. The range keeps its sample and is marked
// unexplained, and the report's scan note says where a row may hide.
func TestRereadsCountAgainstTheReadCap(t *testing.T) {
	ctx := context.Background()
	conn := emutest.Open(t, emutest.Seed(t, "memusage-single-row"))
	const table, rowKey = "memusage-single-row", "4c410523#memusage"
	sizes, err := TableSizes(ctx, conn, []string{table})
	if err != nil {
		t.Fatal(err)
	}
	readCap := sizes[table] / 20
	for run := range 5 {
		snap, err := Scan(ctx, conn, table, Options{Fraction: 0.05, MaxRead: readCap})
		if err != nil {
			t.Fatal(err)
		}
		var unexplained []keyspace.Range
		for _, r := range snap.Ranges {
			if r.Rescanned {
				t.Fatalf("run %d: range %v–%v re-read with the read cap spent", run, r.Start, r.End)
			}
			if r.Unexplained {
				unexplained = append(unexplained, r)
			}
		}
		if len(unexplained) == 0 {
			if len(snap.MostVersioned) > 0 && snap.MostVersioned[0].Key == rowKey {
				continue // the sample caught the row itself (1 in 20)
			}
			t.Fatalf("run %d: no range marked unexplained, and the row was missed", run)
		}
		if len(unexplained) != 1 || !keyspace.InRange(rowKey, string(unexplained[0].Start), string(unexplained[0].End)) {
			t.Fatalf("run %d: unexplained ranges %+v, want the one holding %s", run, unexplained, rowKey)
		}
		note := ""
		for _, f := range diagnose.Diagnose(snap) {
			if f.Kind == diagnose.KindScanNote && strings.Contains(f.Summary, "--max-read") {
				note = f.Summary
			}
		}
		if !strings.Contains(note, "1 range,") {
			t.Fatalf("run %d: no scan note names the unread range: %q", run, note)
		}
		t.Logf("run %d: %s", run, note)
		return
	}
	t.Fatal("five samples caught the row itself")
}
