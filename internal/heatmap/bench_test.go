package heatmap

import (
	"fmt"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// millionRowSnapshot builds a snapshot of a 1,000,000-row multi-tenant
// time series (tenant#device#timestamp, a hot tenant among 40), the way a
// full scan of such a table would. Its size is bounded by the builder's
// options, not by the row count.
func millionRowSnapshot(b *testing.B) *keyspace.Snapshot {
	b.Helper()
	const rows = 1_000_000
	builder := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceEmulator, Table: "metrics"}, keyspace.Options{Delimiters: "#", Seed: 1})
	r := heatmaptest.NewRand("million")
	row := keyspace.Row{Weight: 1, Cells: make([]keyspace.Cell, 2)}
	for i := range rows {
		tenant := i % 40
		if i%5 == 0 {
			tenant = 7 // the hot tenant
		}
		at := heatmaptest.Epoch.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
		row.Key = fmt.Sprintf("tenant%02d#device%05d#%013d", tenant, (i/40)%5000, at.UnixMilli())
		row.Cells[0] = heatmaptest.CellAt("m", "cpu", at, 8)
		row.Cells[1] = heatmaptest.CellAt("m", "mem", at, 8)
		builder.Add(&row)
	}
	return builder.Snapshot()
}

// BenchmarkBuildMatrix_1M builds the TUI's main view (140 key buckets ×
// 200 time columns) of a 1M-row snapshot in each bucketing mode.
func BenchmarkBuildMatrix_1M(b *testing.B) {
	snap := millionRowSnapshot(b)
	b.Logf("snapshot: %d nodes, time grid %d µs", snap.Root.Count(), snap.TimeBucketMicros)
	for _, mode := range []Bucketing{BucketEven, BucketHeat, BucketPrefix} {
		b.Run(string(mode), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(snap, View{Bucketing: mode, Rows: 140, Columns: 200}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("heat-depth2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Build(snap, View{Bucketing: BucketHeat, Depth: 2, Rows: 140, Columns: 200}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
