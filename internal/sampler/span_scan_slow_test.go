//go:build slow

package sampler

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// The span sample's estimates on the 250,000-row span table: statistical
// (about 50,000 rows read each), so in the slow tier.

func TestSpanSampleEstimatesWithinBounds(t *testing.T) {
	fix := sharedSpanTable(t, spanTableRows)
	conn := fix.open(t)
	var last Progress
	// 250,000 rows make about 2,500 emulator spans: about 280 groups of 9.
	const fraction = 0.2
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: fraction, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	scan := snap.Scan
	if !scan.Mode.IsSample() || scan.Method != keyspace.MethodSpans || !scan.Complete ||
		scan.Fraction < 0.8*fraction || scan.Fraction > 1.2*fraction {
		t.Fatalf("scan info %+v, want a complete span sample of about 20%%", scan)
	}
	if last.Method != keyspace.MethodSpans || !strings.Contains(last.Reason, "20% sample of key spans (stratified") || last.Done != 1 {
		t.Fatalf("final progress: method %q, reason %q, done %v", last.Method, last.Reason, last.Done)
	}
	// About a fifth of the rows are read, each standing for its group.
	if read := float64(scan.RowsRead); read < 0.15*fix.rows || read > 0.3*fix.rows {
		t.Fatalf("read %v rows of %v", read, fix.rows)
	}
	totals := snap.Totals()
	// The estimate gives each group's value bytes back exactly (the
	// emulator's offsets count value bytes), and its rows to within the
	// spread of rows per byte between spans.
	if rel := math.Abs(totals.ValueBytes-fix.valueBytes) / fix.valueBytes; rel > 1e-6 {
		t.Errorf("value bytes estimated %.0f, true %.0f", totals.ValueBytes, fix.valueBytes)
	}
	if rel := math.Abs(totals.Rows-fix.rows) / fix.rows; rel > 0.02 {
		t.Errorf("rows estimated %.0f, true %.0f (%.1f%% off)", totals.Rows, fix.rows, rel*100)
	}
	worst := 0.0
	for _, prefix := range spanPrefixes {
		path := snap.Root.Lookup(prefix + "#")
		if path == nil {
			t.Fatalf("no node for prefix %q", prefix)
		}
		got := path[len(path)-1].Rows / totals.Rows
		want := fix.prefixRows[prefix] / fix.rows
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > 0.01 {
			t.Errorf("prefix %s: share %.2f%%, true %.2f%%", prefix, got*100, want*100)
		}
	}
	t.Logf("%d rows read, estimate %.0f of %.0f rows, worst prefix share error %.2f pp", scan.RowsRead, totals.Rows, fix.rows, worst*100)
	// The ranges are whole groups, tile the table and were all read.
	if len(snap.Ranges) < emulatorRangeTarget/2 || len(snap.Ranges) > 2*emulatorRangeTarget {
		t.Errorf("%d ranges", len(snap.Ranges))
	}
	var rangeRows float64
	for i, r := range snap.Ranges {
		if !r.Scanned || (i > 0 && r.Start != snap.Ranges[i-1].End) {
			t.Fatalf("range %d %v–%v: scanned %v", i, r.Start, r.End, r.Scanned)
		}
		rangeRows += r.Rows
	}
	if math.Abs(rangeRows-totals.Rows) > 1e-6*totals.Rows || snap.Ranges[0].Start != "" || snap.Ranges[len(snap.Ranges)-1].End != "" {
		t.Fatalf("ranges hold %.0f rows from %q to %q, the tree %.0f", rangeRows, snap.Ranges[0].Start, snap.Ranges[len(snap.Ranges)-1].End, totals.Rows)
	}
	checkOutliersFound(t, snap)
}

// checkOutliersFound checks that a sampled snapshot of the span table
// found its oversized row and its 5,000-version row.
func checkOutliersFound(t *testing.T, snap *keyspace.Snapshot) {
	t.Helper()
	if len(snap.Largest) == 0 || string(snap.Largest[0].Key) != spanBigKey || snap.Largest[0].Bytes < spanBigCells<<20 {
		t.Fatalf("largest rows %+v, want %q first", snap.Largest[:min(2, len(snap.Largest))], spanBigKey)
	}
	if len(snap.MostVersioned) == 0 || string(snap.MostVersioned[0].Key) != spanVersionsKey || snap.MostVersioned[0].MaxVersions != spanVersions {
		t.Fatalf("most versioned rows %+v, want %q with %d versions", snap.MostVersioned[:min(2, len(snap.MostVersioned))], spanVersionsKey, spanVersions)
	}
	// The tree holds them where their keys are.
	big, versions := snap.Root.Find(spanBigKey), snap.Root.Find(spanVersionsKey)
	if last := big[len(big)-1]; last.MaxRowBytes < spanBigCells<<20 {
		t.Fatalf("node %q holding %q has rows of at most %d bytes", last.Prefix, spanBigKey, last.MaxRowBytes)
	}
	if last := versions[len(versions)-1]; last.MaxVersions != spanVersions {
		t.Fatalf("node %q holding %q has at most %d versions", last.Prefix, spanVersionsKey, last.MaxVersions)
	}
}

func TestSpanSampleFindsOversizedAndManyVersionRows(t *testing.T) {
	fix := sharedSpanTable(t, spanTableRows)
	fix.hooks.replay.Store(true) // the same tablet map every run
	conn := fix.open(t)
	// A 20% span sample draws one span in 9; the two rows are found
	// because their spans' bytes stand out, whichever spans are drawn
	// (TestSpanSampleEstimatesWithinBounds checks them with another seed).
	var last Progress
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.2, Seed: 1, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Scan.Method != keyspace.MethodSpans || !strings.Contains(last.Reason, "and 2 spans far above their neighbours' size in full") {
		t.Fatalf("method %q, reason %q", snap.Scan.Method, last.Reason)
	}
	checkOutliersFound(t, snap)
}
