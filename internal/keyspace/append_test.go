package keyspace

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// feedKeys returns a salted feed: 8 buckets, each with a celebrity
// holding ~38% of it among 300 users, keys sorted.
func feedKeys() []string {
	var keys []string
	for salt := range 8 {
		for i := range 950 {
			keys = append(keys, fmt.Sprintf("%d#user#mila#p%02d#%06d", salt, i%50, i))
		}
		for u := range 300 {
			for i := range 1 + u%7 {
				keys = append(keys, fmt.Sprintf("%d#user#u%04d#p%d#%06d", salt, u, i%2, i))
			}
		}
	}
	slices.Sort(keys)
	return keys
}

func feedRow(key string, i int) *Row {
	family := "cf"
	if i%3 == 0 {
		family = "meta"
	}
	return row(key, 1, cell(family, "q", base+int64(i)*int64(time.Second/time.Microsecond), int64(50+i%40)))
}

// buildChunked builds keys as chunks cut at the given indexes, each in
// its own builder, appended in order.
func buildChunked(t *testing.T, keys []string, cuts []int, opts Options) *Snapshot {
	t.Helper()
	main := newTestBuilder(opts)
	bounds := append(append([]int{0}, cuts...), len(keys))
	for c := 0; c+1 < len(bounds); c++ {
		// Each chunk lists its families in its own order, as a sub-builder
		// that met them in another order would.
		sub := NewBuilder(&Snapshot{Source: SourceEmulator, Table: "t", Families: []string{"meta", "cf"}[c%2:]}, opts)
		for i := bounds[c]; i < bounds[c+1]; i++ {
			sub.Add(feedRow(keys[i], i))
		}
		if err := main.Append(sub); err != nil {
			t.Fatal(err)
		}
	}
	return main.Snapshot()
}

func TestAppendKeepsEveryEntityWholeAcrossChunks(t *testing.T) {
	keys := feedKeys()
	opts := Options{Delimiters: "#", MaxChildren: 32}
	whole := buildChunked(t, keys, nil, opts)
	for _, chunks := range []int{2, 7, 32, 97} {
		var cuts []int
		for c := 1; c < chunks; c++ {
			cuts = append(cuts, c*len(keys)/chunks)
		}
		snap := buildChunked(t, keys, cuts, opts)
		if snap.Root.Rows != whole.Root.Rows || snap.Root.Cells != whole.Root.Cells || math.Abs(snap.Root.Bytes-whole.Root.Bytes) > 1e-6 {
			t.Fatalf("%d chunks: totals %v/%v/%v, whole build %v/%v/%v", chunks, snap.Root.Rows, snap.Root.Cells, snap.Root.Bytes, whole.Root.Rows, whole.Root.Cells, whole.Root.Bytes)
		}
		if got, want := snap.Root.Families(), 2; got != want {
			t.Fatalf("%d chunks: %d families, want %d", chunks, got, want)
		}
		if got, want := snap.Root.Writes.Total(), whole.Root.Writes.Total(); got != want {
			t.Fatalf("%d chunks: %v writes in the histogram, want %v", chunks, got, want)
		}
		for salt := range 8 {
			prefix := fmt.Sprintf("%d#user#mila#", salt)
			path := snap.Root.Lookup(prefix)
			if path == nil || path[len(path)-1].Kind != KindPrefix || path[len(path)-1].Rows != 950 {
				t.Errorf("%d chunks: %s not kept whole: %v", chunks, prefix, path)
			}
		}
		if snap.Scan.RowsRead != int64(len(keys)) || len(snap.Sample) == 0 {
			t.Fatalf("%d chunks: rows read %d, sample %d", chunks, snap.Scan.RowsRead, len(snap.Sample))
		}
		var sampled float64
		for _, s := range snap.Sample {
			sampled += s.Weight
		}
		if math.Abs(sampled-float64(len(keys))) > 1e-6 {
			t.Fatalf("%d chunks: sample stands for %v rows, want %d", chunks, sampled, len(keys))
		}
	}
}

func TestAppendAlignsTimeGrids(t *testing.T) {
	a := newTestBuilder(Options{Delimiters: "#"})
	a.Add(row("a#1", 1, cell("cf", "q", base, 1), cell("cf", "q", base+1000, 1)))
	b := newTestBuilder(Options{Delimiters: "#"})
	year := int64(365 * 24 * time.Hour / time.Microsecond)
	b.Add(row("b#1", 1, cell("cf", "q", base-year, 1), cell("cf", "q", base+year, 1)))
	if err := a.Append(b); err != nil {
		t.Fatal(err)
	}
	snap := a.Snapshot()
	first, last, _ := snap.TimeSpan()
	if last-first > MaxTimeBuckets {
		t.Fatalf("time span %d buckets, max %d", last-first, MaxTimeBuckets)
	}
	if snap.Root.Writes.Total() != 4 || snap.Root.FirstWrite != base-year || snap.Root.LastWrite != base+year {
		t.Fatalf("writes %v, span %d..%d", snap.Root.Writes.Total(), snap.Root.FirstWrite, snap.Root.LastWrite)
	}
	for _, n := range []string{"a#", "b#"} {
		path := snap.Root.Lookup(n)
		if path == nil || path[len(path)-1].Writes.Total() != 2 {
			t.Fatalf("%s lost its writes", n)
		}
	}
}

func TestAppendOutOfOrderKeepsTotalsAndRefusesMismatchedChunks(t *testing.T) {
	a := newTestBuilder(Options{Delimiters: "#"})
	a.Add(row("m#1", 1, cell("cf", "q", base, 1)))
	a.Add(row("m#2", 1, cell("cf", "q", base, 1)))
	b := newTestBuilder(Options{Delimiters: "#"})
	b.Add(row("a#1", 1, cell("cf", "q", base, 1)))
	b.Add(row("m#3", 1, cell("cf", "q", base, 1)))
	if err := a.Append(b); err != nil {
		t.Fatalf("out-of-order append: %v", err)
	}
	snap := a.Snapshot()
	m := snap.Root.Lookup("m#")
	if snap.Root.Rows != 4 || m == nil || m[len(m)-1].Rows != 3 || len(snap.Root.Children) != 2 {
		t.Fatalf("out-of-order append: root %v rows, children %d, m# %v", snap.Root.Rows, len(snap.Root.Children), m)
	}
	c := newTestBuilder(Options{Delimiters: ":"})
	c.Add(row("z:1", 1, cell("cf", "q", base, 1)))
	if err := a.Append(c); err == nil || !strings.Contains(err.Error(), "delimiters") {
		t.Fatalf("different delimiters: err = %v", err)
	}
}
