package demo

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/internal/keyspace"
)

// generated is what a scenario's generator wrote: its rows, value bytes
// and a hash of every key, column, timestamp and value size in order.
type generated struct {
	rows  int
	bytes int64
	hash  hash.Hash
	keys  map[string]bool
}

// generate runs sc's generator and checks every row as a writer would: a
// key once, at least one cell, every timestamp a whole millisecond inside
// the scenario's window.
func generate(t *testing.T, sc Scenario) *generated {
	t.Helper()
	g := &generated{hash: sha256.New(), keys: map[string]bool{}}
	start, end := sc.TimeStart.UnixMicro(), sc.TimeEnd.UnixMicro()
	err := sc.Generate(func(key string, cells ...keyspace.Cell) error {
		if key == "" || len(cells) == 0 || g.keys[key] {
			return fmt.Errorf("row %q with %d cells (put before: %v)", key, len(cells), g.keys[key])
		}
		g.keys[key] = true
		g.rows++
		for _, c := range cells {
			if c.Timestamp < start || c.Timestamp >= end || c.Timestamp%1000 != 0 {
				return fmt.Errorf("row %q cell %s:%s at %s: want whole milliseconds in [%s, %s)", key, c.Family, c.Qualifier,
					time.UnixMicro(c.Timestamp).UTC(), sc.TimeStart, sc.TimeEnd)
			}
			if c.ValueBytes < 0 {
				return fmt.Errorf("row %q cell %s:%s has %d value bytes", key, c.Family, c.Qualifier, c.ValueBytes)
			}
			writeString(g.hash, key)
			writeString(g.hash, c.Family+":"+c.Qualifier)
			_ = binary.Write(g.hash, binary.BigEndian, c.Timestamp/1000)
			_ = binary.Write(g.hash, binary.BigEndian, c.ValueBytes)
			g.bytes += c.ValueBytes
		}
		return nil
	})
	if err != nil {
		t.Fatalf("generate %s: %v", sc.Name, err)
	}
	return g
}

func writeString(h hash.Hash, s string) {
	_ = binary.Write(h, binary.BigEndian, uint32(len(s)))
	h.Write([]byte(s))
}

// TestDemoDataIsUnchanged generates every demo scenario and test table
// once, checks each row as a writer would and that there are exactly Rows,
// and pins their rows (keys, columns, timestamps and value sizes) to
// testdata/TestDemoDataIsUnchanged.golden, which also proves them
// deterministic: the README's figures (420,003 rows, the celebrity's 38%,
// the 126 MB row) and every saved snapshot of the demo rest on them. A
// change to the data must be deliberate: regenerate with -update and
// update the figures.
func TestDemoDataIsUnchanged(t *testing.T) {
	var out strings.Builder
	for _, sc := range slices.Concat(Scenarios(), TestTables()) {
		g := generate(t, sc)
		if g.rows != sc.Rows {
			t.Errorf("%s: generated %d rows, Rows says %d", sc.Name, g.rows, sc.Rows)
		}
		fmt.Fprintf(&out, "%-28s %7d rows %13d value bytes sha256:%x\n", sc.Name, g.rows, g.bytes, g.hash.Sum(nil))
	}
	golden.RequireEqual(t, out.String())
}

// TestSnapshots builds snapshots in-process: exactly the table's rows, on
// an emulator or, with tablets, on Cloud Bigtable; quick enough for tests
// to build several (0.05–0.2 s a 20,000-row table; the race detector
// slows it about tenfold).
func TestSnapshots(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"social-celebrity", "large-row-and-cell", "tablet-skew"} {
		sc, _ := Named(name)
		start := time.Now()
		snap, err := sc.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		if snap.Scan.RowsRead != int64(sc.Rows) || snap.Table != sc.Name || len(snap.Families) != len(sc.Families) {
			t.Errorf("%s: snapshot of table %q with %d rows and %d families, want %d rows and %d families",
				sc.Name, snap.Table, snap.Scan.RowsRead, len(snap.Families), sc.Rows, len(sc.Families))
		}
		if tablets := len(sc.Tablets) > 0; snap.RangesAreTablets != tablets || len(snap.Ranges) != len(sc.Tablets) {
			t.Errorf("%s: %d ranges, tablets %v; want the scenario's %d tablets", sc.Name, len(snap.Ranges), snap.RangesAreTablets, len(sc.Tablets))
		}
		t.Logf("%s: %d rows in %s", sc.Name, sc.Rows, took.Round(time.Millisecond))
	}
}
