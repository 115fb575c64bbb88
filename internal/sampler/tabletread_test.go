package sampler

import (
	"fmt"
	"testing"
)

// A part of a line that starts at its first place starts at its first
// key: the key a place rounds to can lie past it (a key longer than the
// map's precision), and a tablet whose one row is its first key (a row
// of 125 MB, a tablet of its own) was swept past it 23 times in 60.
func TestSpanKeysStartAtTheLinesFirstKey(t *testing.T) {
	m := newKeyMap("media#")
	for i := range 200 {
		m.learn(fmt.Sprintf("media#user%04d#photo-%08x", i*37%1000, i*2654435761))
	}
	m.judge()
	rounded := 0
	for i := range 1000 {
		from := fmt.Sprintf("media#user%04d#photo-%08x-2026103%d", i, i*40503, i%10)
		to := fmt.Sprintf("media#user%04d#photo-%08x", i+3, i)
		line := m.segmentOf(from, to)
		if line.at(0) > from {
			rounded++
		}
		if start, _, _ := spanKeys(line.at, 0, 0.01, from, to, ""); start != from {
			t.Fatalf("the first part of [%q, %q) starts at %q (its first place rounds to %q)", from, to, start, line.at(0))
		}
		if start, _, _ := spanKeys(line.at, 0, 0.01, from, to, from+"x"); start != from+"x" {
			t.Fatalf("the first part of [%q, %q) after %q starts at %q", from, to, from+"x", start)
		}
	}
	if rounded == 0 {
		t.Fatal("no first place rounded past its key: the test no longer shows the case it guards")
	}
	t.Logf("%d of 1000 lines' first places round past their first keys", rounded)
}
