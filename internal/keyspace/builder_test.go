package keyspace

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// base is a fixed write time so tests are deterministic.
var base = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

func row(key string, weight float64, cells ...Cell) *Row {
	return &Row{Key: key, Weight: weight, Cells: cells}
}

func cell(family, qualifier string, ts, size int64) Cell {
	return Cell{Family: family, Qualifier: qualifier, Timestamp: ts, ValueBytes: size}
}

func newTestBuilder(opts Options) *Builder {
	return NewBuilder(&Snapshot{Source: SourceEmulator, Table: "t", Families: []string{"cf"}}, opts)
}

func TestBuilderFullScanCountsAreExact(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	users := map[string]int{"alice": 3, "bob": 5, "celebrity": 40}
	var wantBytes float64
	for user, n := range users {
		for i := range n {
			key := fmt.Sprintf("user#%s#%04d", user, i)
			c := cell("cf", "body", base+int64(i)*1e6, 100)
			b.Add(row(key, 1, c, cell("cf", "likes", base, 4)))
			wantBytes += float64(len(key) + (2 + 4 + 8 + 100) + (2 + 5 + 8 + 4))
		}
	}
	snap := b.Snapshot()
	if got := snap.Root.Rows; got != 48 {
		t.Fatalf("root rows = %v, want 48", got)
	}
	if got := snap.Root.Bytes; got != wantBytes {
		t.Fatalf("root bytes = %v, want %v", got, wantBytes)
	}
	path := snap.Root.Lookup("user#celebrity#")
	if path == nil {
		t.Fatal("no node for user#celebrity#")
	}
	celeb := path[len(path)-1]
	if celeb.Rows != 40 || celeb.Cells != 80 || celeb.Columns != 80 || celeb.Depth != 2 {
		t.Fatalf("celebrity node: rows %v cells %v columns %v depth %d", celeb.Rows, celeb.Cells, celeb.Columns, celeb.Depth)
	}
	if celeb.Writes.Total() != 80 {
		t.Fatalf("celebrity writes histogram total %v, want 80", celeb.Writes.Total())
	}
	if snap.Root.Families() != 1 || snap.Root.MaxVersions != 1 {
		t.Fatalf("families %d max versions %d", snap.Root.Families(), snap.Root.MaxVersions)
	}
	if snap.Scan.RowsRead != 48 || snap.Scan.CellsRead != 96 {
		t.Fatalf("scan counters %+v", snap.Scan)
	}
}

func TestBuilderWeightsScaleEstimates(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	for i := range 10 {
		b.Add(row(fmt.Sprintf("k#%d", i), 20, cell("cf", "q", base, 10)))
	}
	snap := b.Snapshot()
	if snap.Root.Rows != 200 || snap.Root.Cells != 200 {
		t.Fatalf("weighted rows %v cells %v, want 200, 200", snap.Root.Rows, snap.Root.Cells)
	}
	var sampled float64
	for _, s := range snap.Sample {
		sampled += s.Weight
	}
	if math.Abs(sampled-200) > 1e-9 {
		t.Fatalf("sample weights add up to %v, want 200", sampled)
	}
}

func TestBuilderBoundsFanOutAndKeepsHotChildApart(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#", MaxChildren: 16})
	for i := range 2000 {
		key := fmt.Sprintf("%06d#dev", i)
		b.Add(row(key, 1, cell("cf", "q", base+int64(i)*1000, 1)))
		if i == 1000 {
			for j := range 500 {
				b.Add(row(fmt.Sprintf("%06d#dev#%d", i, j), 1, cell("cf", "q", base, 1)))
			}
		}
	}
	snap := b.Snapshot()
	if n := len(snap.Root.Children); n > 16 {
		t.Fatalf("root has %d children, cap is 16", n)
	}
	var total float64
	var hot *Node
	for i, child := range snap.Root.Children {
		total += child.Rows
		if i > 0 && child.Start < snap.Root.Children[i-1].End {
			t.Fatalf("children %d and %d overlap", i-1, i)
		}
		if child.Contains("001000#dev#7") {
			hot = child
		}
	}
	if total != 2500 {
		t.Fatalf("children hold %v rows, want 2500", total)
	}
	if hot == nil || hot.Kind != KindPrefix || hot.Rows != 501 {
		t.Fatalf("hot prefix merged away: %+v", hot)
	}
}

func TestBuilderNodeBudget(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#", MaxNodes: 200, MaxChildren: 64})
	for i := range 5000 {
		b.Add(row(fmt.Sprintf("a%02d#b%03d#c%d", i%50, i%97, i), 1, cell("cf", "q", base, 1)))
	}
	snap := b.Snapshot()
	if n := snap.Root.Count(); n > 200 {
		t.Fatalf("tree has %d nodes, budget 200", n)
	}
	var leafRows float64
	snap.Root.Walk(func(n *Node) bool {
		if n.IsLeaf() {
			leafRows += n.Rows
		}
		var childRows float64
		for _, c := range n.Children {
			childRows += c.Rows
		}
		if len(n.Children) > 0 && childRows > n.Rows {
			t.Fatalf("children of %v hold more rows than it", n.Prefix)
		}
		return true
	})
	if snap.Root.Rows != 5000 {
		t.Fatalf("root rows %v", snap.Root.Rows)
	}
}

func TestBuilderTimeGridCoarsens(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	day := int64(24 * time.Hour / time.Microsecond)
	for i := range 30 {
		b.Add(row(fmt.Sprintf("d#%02d", i), 1, cell("cf", "q", base+int64(i)*day, 1)))
	}
	snap := b.Snapshot()
	first, last, _ := snap.TimeSpan()
	if last-first > MaxTimeBuckets {
		t.Fatalf("time span %d buckets exceeds %d", last-first, MaxTimeBuckets)
	}
	if snap.TimeBucketMicros*MaxTimeBuckets < 29*day {
		t.Fatalf("bucket width %d too small for 29 days", snap.TimeBucketMicros)
	}
	if got := snap.Root.Writes.Total(); got != 30 {
		t.Fatalf("writes total %v, want 30", got)
	}
	if !snap.BucketTime(first).Before(time.UnixMicro(base).Add(time.Nanosecond)) {
		t.Fatalf("first bucket %v after first write", snap.BucketTime(first))
	}
	leaf := snap.Root.Lookup("d#")
	if leaf == nil {
		t.Fatal("no d# node")
	}
	if got := leaf[len(leaf)-1].Writes.First; got < first {
		t.Fatalf("node histogram starts at %d before snapshot span %d", got, first)
	}
}

func TestBuilderTopRows(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#", TopRows: 2})
	b.Add(row("small#1", 1, cell("cf", "q", base, 10)))
	var versions []Cell
	for i := range 300 {
		versions = append(versions, cell("cf", "memusage", base+int64(i)*15e6, 8))
	}
	b.Add(row("device#memusage", 1, versions...))
	var big []Cell
	for i := range 120 {
		big = append(big, cell("blob", fmt.Sprintf("chunk%03d", i), base, 1<<20))
	}
	b.Add(row("big#row", 1, big...))
	snap := b.Snapshot()
	if snap.Largest[0].Key != "big#row" || snap.Largest[0].Bytes < 120<<20 || snap.Largest[0].Columns != 120 {
		t.Fatalf("largest = %+v", snap.Largest[0])
	}
	if len(snap.Largest[0].TopColumns) != maxColumnDetail {
		t.Fatalf("column detail %d, want %d", len(snap.Largest[0].TopColumns), maxColumnDetail)
	}
	if snap.MostVersioned[0].Key != "device#memusage" || snap.MostVersioned[0].MaxVersions != 300 {
		t.Fatalf("most versioned = %+v", snap.MostVersioned[0])
	}
	if len(snap.Largest) != 2 {
		t.Fatalf("top list has %d rows, want 2", len(snap.Largest))
	}
	if got := snap.FamilyNames(snap.Totals()); strings.Join(got, ",") != "cf,blob" {
		t.Fatalf("families = %v", got)
	}
}

func TestBuilderDetectsDelimitersFromFirstRows(t *testing.T) {
	b := newTestBuilder(Options{DetectRows: 10})
	for i := range 100 {
		b.Add(row(fmt.Sprintf("tenant%d|device%d|%d", i%3, i%7, i), 1, cell("cf", "q", base, 1)))
	}
	snap := b.Snapshot()
	if snap.Delimiters != "|" {
		t.Fatalf("delimiters %q, want |", snap.Delimiters)
	}
	if snap.Root.Rows != 100 || len(snap.Root.Children) != 3 {
		t.Fatalf("rows %v children %d", snap.Root.Rows, len(snap.Root.Children))
	}
}

func TestBuilderAttributesRowsToRanges(t *testing.T) {
	meta := &Snapshot{Ranges: []Range{{Start: "", End: "m", SampledBytes: 10}, {Start: "m", End: "", SampledBytes: 20}}}
	b := NewBuilder(meta, Options{Delimiters: "#"})
	for _, key := range []string{"a#1", "b#2", "x#3"} {
		b.Add(row(key, 1, cell("cf", "q", base, 5)))
	}
	b.MarkRange(1, true)
	snap := b.Snapshot()
	if snap.Ranges[0].Rows != 2 || snap.Ranges[1].Rows != 1 || !snap.Ranges[1].Rescanned || snap.Ranges[0].Scanned {
		t.Fatalf("ranges %+v", snap.Ranges)
	}
}

func TestBuilderRowsWithoutDelimiterAndDegenerateKeys(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#"})
	for _, key := range []string{"", "#", "##", "user#", "user", "user#\xff", "\xff\xff"} {
		b.Add(row(key, 1, cell("cf", "q", 0, 1)))
	}
	snap := b.Snapshot()
	if snap.Root.Rows != 7 {
		t.Fatalf("root rows %v", snap.Root.Rows)
	}
	for i := 1; i < len(snap.Root.Children); i++ {
		if snap.Root.Children[i].Start < snap.Root.Children[i-1].End {
			t.Fatalf("children overlap: %v", snap.Root.Children)
		}
	}
}

func TestBuilderKeepsOutlierRowsAsNodes(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#", MaxChildren: 32})
	for i := range 20000 {
		key := fmt.Sprintf("m#%06d", i)
		cells := []Cell{cell("cf", "q", base+int64(i)*1000, 100)}
		switch i {
		case 7000: // a 120 MB row
			cells = nil
			for j := range 120 {
				cells = append(cells, cell("blob", fmt.Sprintf("c%03d", j), base, 1<<20))
			}
		case 13000: // a row rewritten 5,000 times
			cells = nil
			for j := range 5000 {
				cells = append(cells, cell("cf", "mem", base+int64(j)*15e6, 8))
			}
		}
		b.Add(row(key, 1, cells...))
	}
	snap := b.Snapshot()
	path := snap.Root.Lookup("m#")
	if path == nil {
		t.Fatal("no m# node")
	}
	parent := path[len(path)-1]
	if n := len(parent.Children); n > 32 {
		t.Fatalf("m# has %d children, cap 32", n)
	}
	for _, key := range []string{"m#007000", "m#013000"} {
		found := false
		for _, child := range parent.Children {
			if child.Kind == KindRow && string(child.Prefix) == key {
				found = true
			}
		}
		if !found {
			t.Errorf("outlier row %s was merged into a range", key)
		}
	}
}

func TestBuilderKeepsMostVersionedRowsPerNode(t *testing.T) {
	b := newTestBuilder(Options{Delimiters: "#", NodeTopRows: 2})
	for i := range 500 {
		b.Add(row(fmt.Sprintf("dev#%04d#reading", i), 1, cell("cf", "q", base+int64(i), 8)))
	}
	var versions []Cell
	for j := range 700 {
		versions = append(versions, cell("cf", "mem", base+int64(j)*15e6, 8))
	}
	b.Add(row("dev#0042#memusage", 1, versions...))
	snap := b.Snapshot()
	// Every node on the row's path, down to the merged range that holds
	// it among 500 siblings, names it.
	for _, node := range snap.Root.Find("dev#0042#memusage") {
		if len(node.TopVersioned) == 0 || node.TopVersioned[0].Key != "dev#0042#memusage" || node.TopVersioned[0].MaxVersions != 700 {
			t.Errorf("node %v (%v): most versioned rows %+v", node.Prefix, node.Kind, node.TopVersioned)
		}
	}
}
