package keyspace

import (
	"fmt"
	"strings"
	"testing"
)

// namespace is a prefix of 12 delimited segments that every key below
// shares: more levels than the tree's depth budget.
var namespace = strings.Repeat("ns#", 12)

// deepest returns the depth of the deepest node of the tree.
func deepest(root *Node) int {
	d := 0
	root.Walk(func(n *Node) bool { d = max(d, n.Depth); return true })
	return d
}

// TestSharedPrefixSpendsNoDepth: levels that every key shares do not
// count against the tree's depth, so the keys under a long namespace are
// still split MaxDepth levels deep; and a later key outside it gives the
// depth back to the table as a whole, with the totals unchanged.
func TestSharedPrefixSpendsNoDepth(t *testing.T) {
	opts := Options{Delimiters: "#", MaxDepth: 3}
	b := NewBuilder(&Snapshot{Table: "t", Families: []string{"cf"}}, opts)
	for i := range 600 {
		b.Add(row(fmt.Sprintf("%sdev%d#%d#%d", namespace, i%6, i%4, i), 1, cell("cf", "q", base+int64(i), 10)))
	}
	snap := b.Snapshot()
	if got, want := snap.TreeDepth, 12+3; got != want {
		t.Errorf("tree depth %d, want the 12 shared levels and 3 more = %d", got, want)
	}
	devices := snap.Root.Lookup(namespace)
	if devices == nil || len(devices[len(devices)-1].Children) != 6 {
		t.Fatalf("the namespace does not split into its 6 devices: %v", devices)
	}
	if d := deepest(snap.Root); d != 15 {
		t.Errorf("deepest node at depth %d, want 15", d)
	}

	b.Add(row("other#1", 1, cell("cf", "q", base, 10)))
	snap = b.Snapshot()
	if snap.TreeDepth != 3 || deepest(snap.Root) > 3 {
		t.Errorf("after a key outside the namespace: tree depth %d, deepest node %d, want 3", snap.TreeDepth, deepest(snap.Root))
	}
	if snap.Root.Rows != 601 || len(snap.Root.Children) != 2 {
		t.Errorf("root holds %v rows in %d children, want 601 in 2", snap.Root.Rows, len(snap.Root.Children))
	}
}

// TestAppendedChunksAgreeOnTheSharedPrefix: chunks built apart share the
// prefix of the rows they saw; appended, the tree keeps the prefix all of
// them share, and is the tree one builder makes of the same rows.
func TestAppendedChunksAgreeOnTheSharedPrefix(t *testing.T) {
	opts := Options{Delimiters: "#", MaxDepth: 3}
	var keys []string
	for i := range 400 {
		keys = append(keys, fmt.Sprintf("%sdev%d#%d#%03d", namespace, i/100, i%4, i))
	}
	whole := NewBuilder(&Snapshot{Table: "t", Families: []string{"cf"}}, opts)
	for i, key := range keys {
		whole.Add(row(key, 1, cell("cf", "q", base+int64(i), 10)))
	}
	main := NewBuilder(&Snapshot{Table: "t", Families: []string{"cf"}}, opts)
	for c := range 4 {
		sub := NewBuilder(&Snapshot{Table: "t", Families: []string{"cf"}}, opts)
		for i := c * 100; i < (c+1)*100; i++ {
			sub.Add(row(keys[i], 1, cell("cf", "q", base+int64(i), 10)))
		}
		if err := main.Append(sub); err != nil {
			t.Fatal(err)
		}
	}
	got, want := main.Snapshot(), whole.Snapshot()
	if got.TreeDepth != want.TreeDepth || got.Root.Count() != want.Root.Count() || deepest(got.Root) != deepest(want.Root) {
		t.Errorf("appended: depth %d, %d nodes, deepest %d; one builder: depth %d, %d nodes, deepest %d",
			got.TreeDepth, got.Root.Count(), deepest(got.Root), want.TreeDepth, want.Root.Count(), deepest(want.Root))
	}
	if got.TreeDepth != 12+3 {
		t.Errorf("tree depth %d, want 15", got.TreeDepth)
	}
}
