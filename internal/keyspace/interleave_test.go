package keyspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBuilderKeepsHotPrefixUnderInterleavedArrival feeds the builder the
// way a parallel scan does: the table is cut into contiguous ranges read
// at once, so rows arrive as several sorted streams interleaved. A hot
// entity whose first rows arrive while its siblings are still few must
// still end up as a node of its own, not folded into a range.
func TestBuilderKeepsHotPrefixUnderInterleavedArrival(t *testing.T) {
	for _, readers := range []int{2, 4, 8, 16} {
		r := rand.New(rand.NewPCG(uint64(readers), 7))
		var keys []string
		for i := range 7600 {
			keys = append(keys, fmt.Sprintf("user#mila#p%03d#%06d", i%400, i))
		}
		for u := range 1500 {
			for i := range 1 + r.IntN(16) {
				keys = append(keys, fmt.Sprintf("user#u%04d#p%03d#%06d", u, i%3, i))
			}
		}
		slices.Sort(keys)
		b := newTestBuilder(Options{Delimiters: "#"})
		chunk := (len(keys) + readers - 1) / readers
		for i := 0; i < chunk; i++ {
			for reader := range readers {
				if j := reader*chunk + i; j < len(keys) {
					b.Add(row(keys[j], 1, cell("cf", "q", base+int64(j)*1000, 90)))
				}
			}
		}
		snap := b.Snapshot()
		path := snap.Root.Lookup("user#mila#")
		if path == nil || path[len(path)-1].Kind != KindPrefix {
			t.Errorf("%d interleaved readers: user#mila# (%.0f%% of rows) was folded into a range", readers, 100*7600/float64(len(keys)))
			continue
		}
		if got := path[len(path)-1].Rows; got != 7600 {
			t.Errorf("%d readers: user#mila# holds %v rows, want 7600", readers, got)
		}
	}
}

// TestBuilderNodeBudgetSparesShallowStructure: when a deep table exceeds
// the node budget, the builder must give up depth (rows, posts), not the
// entities that arrive late. Eight salt buckets each hold the celebrity;
// all eight must survive whatever the arrival order.
func TestBuilderNodeBudgetSparesShallowStructure(t *testing.T) {
	var keys []string
	for salt := range 8 {
		for i := range 950 {
			keys = append(keys, fmt.Sprintf("%d#user#mila#p%02d#%06d", salt, i%50, i))
		}
		for u := range 300 {
			for i := range 6 {
				keys = append(keys, fmt.Sprintf("%d#user#u%04d#p%d#%06d", salt, u, i%2, i))
			}
		}
	}
	slices.Sort(keys)
	for _, readers := range []int{1, 8} {
		b := newTestBuilder(Options{Delimiters: "#", MaxNodes: 3000})
		chunk := (len(keys) + readers - 1) / readers
		for i := 0; i < chunk; i++ {
			for reader := range readers {
				if j := reader*chunk + i; j < len(keys) {
					b.Add(row(keys[j], 1, cell("cf", "q", base+int64(j)*1000, 90)))
				}
			}
		}
		snap := b.Snapshot()
		if n := snap.Root.Count(); n > 3000 {
			t.Fatalf("%d readers: %d nodes, budget 3000", readers, n)
		}
		for salt := range 8 {
			prefix := fmt.Sprintf("%d#user#mila#", salt)
			path := snap.Root.Lookup(prefix)
			if path == nil || path[len(path)-1].Kind != KindPrefix || path[len(path)-1].Rows != 950 {
				t.Errorf("%d readers: %s lost (the budget went to deeper levels first)", readers, prefix)
			}
		}
	}
}
