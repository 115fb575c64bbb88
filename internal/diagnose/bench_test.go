package diagnose

import (
	"testing"

	"github.com/btviz/btviz/internal/demo"
)

// BenchmarkDiagnose_100k diagnoses the snapshot of a 100,000-row table
// (greeting1 … greeting100000 written in order: no delimiter, so every
// key is split into sub-segments, and a sequential pattern to find).
func BenchmarkDiagnose_100k(b *testing.B) {
	snap, err := demo.UnpaddedSequentialTable(100_000).Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Diagnose(snap)
	}
}
