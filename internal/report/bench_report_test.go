//go:build unix

package report

import (
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// benchReport makes snap's text report as `btviz report` does, and
// returns its length: one diagnosis gives both the findings and the
// datasets. bench/run.sh writes the base revision's own benchReport,
// which only has Diagnose (see BenchmarkReport_100k).
func benchReport(snap *keyspace.Snapshot) int {
	found := diagnose.Run(snap)
	return len(Text(Input{Snapshot: snap, Findings: found.Findings, Datasets: found.Datasets}))
}
