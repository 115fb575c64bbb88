package report

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// The JSON report gives every prefix it lists a 95% interval of its rows,
// a sampled prefix's from the variance its own reads measured, and lists
// every top-level prefix when asked, not only the largest ten.
func TestPrefixesCarryIntervalsAndCanAllBeListed(t *testing.T) {
	root := &keyspace.Node{Kind: keyspace.KindPrefix, Stats: keyspace.Stats{Rows: 0}}
	var variances []keyspace.PrefixVariance
	for i := range 14 {
		prefix := fmt.Sprintf("p%02d#", i)
		rows := float64(1000 * (i + 1))
		root.Children = append(root.Children, &keyspace.Node{Kind: keyspace.KindPrefix, Prefix: keyspace.Key(prefix),
			Start: keyspace.Key(prefix), End: keyspace.Key(keyspace.PrefixEnd(prefix)), Depth: 1, Stats: keyspace.Stats{Rows: rows}})
		root.Rows += rows
		variances = append(variances, keyspace.PrefixVariance{Prefix: keyspace.Key(prefix), Rows: rows})
	}
	snap := &keyspace.Snapshot{Root: root, Scan: keyspace.ScanInfo{Mode: keyspace.ModeSample, Fraction: 0.01, Complete: true,
		RowsRead: 1050, RowsEstimated: int64(root.Rows), RowsEstimatedLow: int64(root.Rows) - 2000, RowsEstimatedHigh: int64(root.Rows) + 2000,
		PrefixVariances: variances}}
	for _, all := range []bool{false, true} {
		body, err := Render(FormatJSON, Input{Snapshot: snap, AllTopPrefixes: all})
		if err != nil {
			t.Fatal(err)
		}
		var doc Document
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: PrefixesPerDepth, true: 14}[all]; len(doc.Prefixes) != want {
			t.Errorf("all %v: %d prefixes listed, want %d", all, len(doc.Prefixes), want)
		}
		for _, p := range doc.Prefixes {
			// Each prefix's variance is its rows: ±1.96·√rows, rounded out.
			half := keyspace.Z95 * math.Sqrt(float64(p.Rows))
			if math.Abs(float64(p.RowsHigh-p.Rows)-half) > 1 || math.Abs(float64(p.Rows-p.RowsLow)-half) > 1 {
				t.Errorf("%s: %d rows, interval [%d, %d]", p.Prefix, p.Rows, p.RowsLow, p.RowsHigh)
			}
		}
	}
}
