package heatmap_test

import (
	"slices"
	"testing"

	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/heatmap"
)

// TestEveryFirstViewShowsItsKeys: every demo table opens, in the TUI's
// default prefix bucketing on a 24-line terminal's heatmap rows, on at
// least fewUnits buckets, so that a table of two or three top-level
// prefixes still shows the shape of its keys.
func TestEveryFirstViewShowsItsKeys(t *testing.T) {
	const rows, atLeast = 14, 8
	for _, sc := range slices.Concat(demo.Scenarios(), demo.TestTables()) {
		t.Run(sc.Name, func(t *testing.T) {
			snap, err := sc.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range []heatmap.Bucketing{heatmap.BucketPrefix, heatmap.BucketHeat} {
				m, err := heatmap.Build(snap, heatmap.View{Bucketing: b, Rows: rows, Columns: 40})
				if err != nil {
					t.Fatal(err)
				}
				if len(m.Buckets) < atLeast {
					var labels []string
					for _, b := range m.Buckets {
						labels = append(labels, b.Label)
					}
					t.Errorf("%s bucketing: %d buckets %q, want at least %d", b, len(m.Buckets), labels, atLeast)
				}
			}
		})
	}
}
