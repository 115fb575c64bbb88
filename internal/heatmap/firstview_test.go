package heatmap_test

import (
	"slices"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// TestEveryFirstViewShowsItsKeys: every demo table opens, in the TUI's
// default prefix bucketing on a 24-line terminal's heatmap rows, on at
// least fewUnits buckets, so that a table of two or three top-level
// prefixes still shows the shape of its keys.
func TestEveryFirstViewShowsItsKeys(t *testing.T) {
	const rows, atLeast = 14, 8
	// Every scenario in the slow tier; six of them in the fast one.
	for _, sc := range tier.Sample(slices.Concat(demo.Scenarios(), demo.TestTables()), 6) {
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

// TestFewPrefixesOpenOnComparableBuckets: a table of a few top-level
// prefixes (two datasets holding 85% and 15% of the rows; phones, tablets
// and watches; three bus operators) opens on buckets of comparable size,
// where the tree can split them: none holds more than twice the mean
// share of the rows, nor of what the heatmap draws for it. Before,
// two-datasets split its large dataset into buckets and kept profile#
// whole: 4.7 buckets' worth of rows and 35% of the cells in one row at 31
// rows, the brightest row under writes of a table with no hotspot.
func TestFewPrefixesOpenOnComparableBuckets(t *testing.T) {
	const atMost = 2.0
	for _, name := range []string{"two-datasets", "phone-device-day", "bus-locations"} {
		snap := demotest.Snapshot(t, name)
		tableRows := snap.Totals().Rows
		for _, b := range []heatmap.Bucketing{heatmap.BucketPrefix, heatmap.BucketHeat} {
			for _, metric := range []heatmap.Metric{heatmap.MetricWrites, heatmap.MetricRows} {
				for _, rows := range []int{8, 14, 31, 50} {
					m, err := heatmap.Build(snap, heatmap.View{Bucketing: b, Metric: metric, Rows: rows, Columns: 40})
					if err != nil {
						t.Fatal(err)
					}
					var drawn float64
					for k := range m.Buckets {
						drawn += m.BucketTotal(k)
					}
					mean := 1 / float64(len(m.Buckets))
					for k := range m.Buckets {
						bucket := &m.Buckets[k]
						rowShare, drawnShare := bucket.Stats.Rows/tableRows, m.BucketTotal(k)/drawn
						if rowShare > atMost*mean || drawnShare > atMost*mean {
							t.Errorf("%s, %s bucketing of %s at %d rows: bucket %q holds %.1f%% of the rows and %.1f%% of the %s, more than %g× the mean %.1f%% of %d buckets",
								name, b, metric, rows, bucket.Label, 100*rowShare, 100*drawnShare, metric, atMost, 100*mean, len(m.Buckets))
						}
					}
				}
			}
		}
	}
}
