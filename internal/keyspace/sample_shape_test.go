package keyspace

import "testing"

func TestSampleKeepsRowShape(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	b.Add(row("dev#1", 1,
		cell("cf", "mem", base+3, 10), cell("cf", "mem", base+2, 10), cell("cf", "mem", base+1, 10),
		cell("cf", "cpu", base, 10)))
	snap := b.Snapshot()
	if len(snap.Sample) != 1 {
		t.Fatalf("sample has %d rows, want 1", len(snap.Sample))
	}
	got := snap.Sample[0]
	if got.Cells != 4 || got.Columns != 2 || got.MaxVersions != 3 {
		t.Fatalf("sampled row cells %d columns %d max versions %d, want 4, 2, 3", got.Cells, got.Columns, got.MaxVersions)
	}
}
