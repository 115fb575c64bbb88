package tui

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// millionRowSnapshot builds the snapshot of a full scan of a 1,000,000-row
// multi-tenant time series (tenant#device#timestamp, one hot tenant among
// 40). Its size is bounded by the builder's limits, not by the rows.
func millionRowSnapshot(b *testing.B) *keyspace.Snapshot {
	b.Helper()
	const rows = 1_000_000
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz", Table: "metrics",
		Families: []string{"m"}, Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}}
	builder := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#", Seed: 1})
	r := rand.New(rand.NewPCG(1, 2))
	epoch := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	row := keyspace.Row{Weight: 1, Cells: make([]keyspace.Cell, 2)}
	for i := range rows {
		tenant := i % 40
		if i%5 == 0 {
			tenant = 7
		}
		at := epoch.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
		row.Key = fmt.Sprintf("tenant%02d#device%05d#%013d", tenant, (i/40)%5000, at.UnixMilli())
		row.Cells[0] = keyspace.Cell{Family: "m", Qualifier: "cpu", Timestamp: at.UnixMicro(), ValueBytes: 8}
		row.Cells[1] = keyspace.Cell{Family: "m", Qualifier: "mem", Timestamp: at.UnixMicro(), ValueBytes: 8}
		builder.Add(&row)
	}
	snap := builder.Snapshot()
	snap.Scan.RowsEstimated = snap.Scan.RowsRead
	return snap
}

// BenchmarkKeypressFrame_1M measures a key press on a 1M-row snapshot
// through to the new frame: Update, then View, at 200×60 in true colour.
// Moving the selection reuses the heatmap; changing the metric and
// drilling in or out rebuild it.
func BenchmarkKeypressFrame_1M(b *testing.B) {
	snap := millionRowSnapshot(b)
	findings := diagnose.Diagnose(snap)
	b.Logf("snapshot: %d rows, %d nodes, %d findings", snap.Scan.RowsRead, snap.Root.Count(), len(findings))
	for _, keys := range [][]string{{"j", "k"}, {"m"}, {"b"}, {"enter", "esc"}, {"tab"}} {
		b.Run(fmt.Sprint(keys), func(b *testing.B) {
			m := newSnapshotModel(b, snap, 200, 60, colorprofile.TrueColor)
			m.findings = findings
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				press(m, keys[i%len(keys)])
				_ = m.View()
				i++
			}
		})
	}
}
