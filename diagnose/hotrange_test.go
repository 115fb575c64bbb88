package diagnose

import (
	"fmt"
	"testing"
	"time"

	"github.com/btviz/btviz/keyspace"
)

// twoPrefixSnapshot builds a table of two prefixes: a# with 80% of the
// rows, b# with 20%, each row of b# rewritten versionsB times.
func twoPrefixSnapshot(versionsB int) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceBigtable, Table: "t", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
		keyspace.Options{Delimiters: "#", Seed: 1})
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	add := func(key string, versions, i int) {
		cells := make([]keyspace.Cell, versions)
		for v := range cells {
			at := start.Add(time.Duration((i*7919)%10_000*versions+v) * time.Minute)
			cells[v] = keyspace.Cell{Family: "f", Qualifier: "q", Timestamp: at.UnixMicro(), ValueBytes: 20}
		}
		b.Add(&keyspace.Row{Key: key, Weight: 1, Cells: cells})
	}
	for i := range 8000 {
		add(fmt.Sprintf("a#%05d", i*7), 1, i)
	}
	for i := range 2000 {
		add(fmt.Sprintf("b#%05d", i*7), versionsB, i)
	}
	return b.Snapshot()
}

// TestHotRangeAtAnyFanOut: with two top-level prefixes (far below the
// sibling rule's 16), the prefix that takes writes far above its share of
// the rows is hot, and the large one written in proportion is not.
func TestHotRangeAtAnyFanOut(t *testing.T) {
	hot := findingOf(t, Diagnose(twoPrefixSnapshot(20)), KindHotKeyRange)
	if hot.Prefix != "b#" || hot.Start != "b" || hot.End != "c" || hot.Evidence["ranges"] != 2 {
		t.Errorf("hot range %q [%s, %s) with %v, want prefix b# among 2 ranges", hot.Prefix, hot.Start, hot.End, hot.Evidence)
	}
	if share := hot.Evidence["write_share"]; !near(share, 400.0/480, 1e-3) || !near(hot.Evidence["row_share"], 0.2, 1e-3) {
		t.Errorf("write share %v and row share %v, want 0.833 and 0.2", share, hot.Evidence["row_share"])
	}
	for _, f := range Diagnose(twoPrefixSnapshot(1)) {
		if f.Kind == KindHotKeyRange {
			t.Errorf("writes in proportion to rows raised %s at %q: %s", f.Kind, f.Prefix, f.Summary)
		}
	}
}
