package diagnose

import (
	"strings"
	"testing"

	"github.com/btviz/btviz/keyspace"
)

// A sampled hot-key-range whose share's 95% interval holds the threshold
// says so; with a narrow interval, or from a full scan, it does not.
func TestHotRangeNearTheThresholdSaysSoWhenSampled(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	full := findingOf(t, Diagnose(snap), KindHotKeyRange)
	if strings.Contains(full.Summary, "95%") || full.Evidence["row_share_low"] != 0 {
		t.Fatalf("full scan: %s", full.Summary)
	}
	rows := int64(snap.Root.Rows)
	for _, tc := range []struct {
		name   string
		high   int64
		wanted bool
	}{
		{"wide", rows * 13 / 10, true},
		{"narrow", rows + 1, false},
	} {
		sampled := *snap
		sampled.Scan.Mode, sampled.Scan.Fraction = keyspace.ModeSample, 0.5
		sampled.Scan.RowsRead, sampled.Scan.RowsEstimated = rows/2, rows
		sampled.Scan.RowsEstimatedLow, sampled.Scan.RowsEstimatedHigh = 2*rows-tc.high, tc.high
		f := findingOf(t, Diagnose(&sampled), KindHotKeyRange)
		said := strings.Contains(f.Summary, "holds the 25% threshold; a full scan of the range decides")
		if said != tc.wanted || said != (f.Evidence["row_share_low"] > 0) {
			t.Errorf("%s interval: %s (evidence %v)", tc.name, f.Summary, f.Evidence)
		}
	}
}
