package keyspace

import "testing"

// twoPrefixes returns a snapshot of a row under a# (its key aKey, one
// small cell) and one under b# (two large versions of one column), and
// the nodes of the two prefixes.
func twoPrefixes(aKey string) (snap *Snapshot, a, b *Node) {
	builder := newTestBuilder(Options{Delimiters: "#"})
	builder.Add(row(aKey, 1, cell("cf", "q", base, 10)))
	builder.Add(row("b#1", 1, cell("cf", "q", base+5, 1000), cell("cf", "q", base+6, 1000)))
	snap = builder.Snapshot()
	return snap, snap.Root.Children[0], snap.Root.Children[1]
}

func TestStatsMergeAggregatesWithoutTouchingItsInput(t *testing.T) {
	snap, a, bb := twoPrefixes("a#1")
	maskBefore := append([]uint64(nil), a.FamilyMask...)

	var sum Stats
	sum.Merge(&a.Stats)
	sum.Merge(&bb.Stats)
	if sum.Rows != 2 || sum.Cells != 3 || sum.Bytes != snap.Root.Bytes {
		t.Fatalf("merged rows %v cells %v bytes %v, want 2, 3, %v", sum.Rows, sum.Cells, sum.Bytes, snap.Root.Bytes)
	}
	if sum.FirstKey != "a#1" || sum.LastKey != "b#1" || sum.MaxVersions != 2 || sum.FirstWrite != base || sum.LastWrite != base+6 {
		t.Fatalf("merged bounds %+v", sum)
	}
	sum.FamilyMask[0] |= 1 << 5
	if a.FamilyMask[0] != maskBefore[0] {
		t.Fatal("Merge shares the family mask of its input")
	}
}

// TestStatsSubtractTakesAwayWhatMergeAdded: taking one of two merged
// aggregates away leaves the other's counts; a maximum stays only where
// the rest's must hold it, and counts never go below 0.
func TestStatsSubtractTakesAwayWhatMergeAdded(t *testing.T) {
	_, a, bb := twoPrefixes("a#long-key")
	var rest Stats
	rest.Merge(&a.Stats)
	rest.Merge(&bb.Stats)
	rest.subtract(&bb.Stats)
	if rest.Rows != a.Rows || rest.Cells != a.Cells || rest.Bytes != a.Bytes || rest.ValueBytes != a.ValueBytes ||
		rest.KeyBytes != a.KeyBytes || rest.Columns != a.Columns {
		t.Errorf("counts left %+v, want a#'s %+v", rest, a.Stats)
	}
	if rest.MaxKeyBytes != a.MaxKeyBytes || rest.MaxRowBytes != 0 || rest.MaxVersions != 0 || rest.MaxCellBytes != 0 {
		t.Errorf("maxima left: key %d (want a#'s %d), row %d, versions %d, cell %d (want 0: b#'s are larger)",
			rest.MaxKeyBytes, a.MaxKeyBytes, rest.MaxRowBytes, rest.MaxVersions, rest.MaxCellBytes)
	}
	rest.subtract(&bb.Stats)
	if rest.Rows != 0 || rest.Cells != 0 || rest.Bytes != 0 {
		t.Errorf("taking away more than there is left %v rows, %v cells, %v bytes, want 0", rest.Rows, rest.Cells, rest.Bytes)
	}
}
