package keyspace

import "testing"

func TestStatsMergeAggregatesWithoutTouchingItsInput(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	b.Add(row("a#1", 1, cell("cf", "q", base, 10)))
	b.Add(row("b#1", 1, cell("cf", "q", base+5, 1000), cell("cf", "q", base+6, 1000)))
	snap := b.Snapshot()
	a, bb := snap.Root.Children[0], snap.Root.Children[1]
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
