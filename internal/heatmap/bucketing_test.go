package heatmap

import (
	"fmt"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// fruitSnapshot is a small hand-made table:
//
//	apple#1..4    4 rows
//	banana#1      1 row
//	cherry#1..10 10 rows; cherry#5 has 50 cells, every other row 1
//	date          1 row (no delimiter: a row node)
//	fig#1..2      2 rows
//
// with a tablet map cut at "b" and "d".
func fruitSnapshot(t *testing.T) *keyspace.Snapshot {
	t.Helper()
	var rows []keyspace.Row
	add := func(key string, cells int) {
		at := heatmaptest.Epoch.Add(time.Duration(len(rows)) * time.Minute)
		row := keyspace.Row{Key: key}
		for i := range cells {
			row.Cells = append(row.Cells, heatmaptest.CellAt("f", fmt.Sprintf("q%02d", i), at, 10))
		}
		rows = append(rows, row)
	}
	for i := 1; i <= 4; i++ {
		add(fmt.Sprintf("apple#%d", i), 1)
	}
	add("banana#1", 1)
	for i := 1; i <= 10; i++ {
		cells := 1
		if i == 5 {
			cells = 50
		}
		add(fmt.Sprintf("cherry#%d", i), cells)
	}
	add("date", 1)
	add("fig#1", 1)
	add("fig#2", 1)
	snap := heatmaptest.BuildSnapshot(t, "fruit", rows, keyspace.Options{Delimiters: "#"})
	snap.Ranges = nil
	b := keyspace.NewBuilder(&keyspace.Snapshot{Table: "fruit", Ranges: []keyspace.Range{
		{Start: "", End: "b"}, {Start: "b", End: "d"}, {Start: "d", End: ""},
	}}, keyspace.Options{Delimiters: "#"})
	for i := range rows {
		b.Add(&rows[i])
	}
	return b.Snapshot()
}

// boundaries lists the buckets as "start..end" with printable keys.
func boundaries(m *Matrix) []string {
	out := make([]string, len(m.Buckets))
	for i, b := range m.Buckets {
		out[i] = b.Start.String() + ".." + b.End.String()
	}
	return out
}

func rowsOf(m *Matrix) []float64 {
	out := make([]float64, len(m.Buckets))
	for i, b := range m.Buckets {
		out[i] = b.Stats.Rows
	}
	return out
}

func mustBuild(t *testing.T, snap *keyspace.Snapshot, v View) *Matrix {
	t.Helper()
	m, err := Build(snap, v)
	if err != nil {
		t.Fatalf("Build(%+v): %v", v, err)
	}
	return m
}

func assertStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestPrefixBucketingMergesTheColdestNeighboursFirst: rows 4, 1, 10, 1, 2
// into three buckets merge date+fig (3) first, then apple+banana (5); on
// the fruit table at five rows, cherry# and apple# (10 and 4 of 18 rows,
// more than a bucket's share of 3.6) are split into their rows, and the
// coldest neighbours merge into buckets of four rows.
func TestPrefixBucketingMergesTheColdestNeighboursFirst(t *testing.T) {
	if got := fmt.Sprint(mergeSmallest([]float64{4, 1, 10, 1, 2}, true, 3)); got != "[0 2 3]" {
		t.Fatalf("merging rows 4, 1, 10, 1, 2 into three: groups start at %s, want [0 2 3]", got)
	}
	if got := fmt.Sprint(mergeSmallest([]float64{4, 1, 10, 1, 2}, false, 3)); got != "[0 2 3]" {
		t.Fatalf("merging maxima 4, 1, 10, 1, 2 into three: groups start at %s, want [0 2 3]", got)
	}

	snap := fruitSnapshot(t)
	m := mustBuild(t, snap, View{Bucketing: BucketPrefix, Metric: MetricRows, Rows: 5})
	assertStrings(t, "merged", boundaries(m), []string{"..banana#", "banana#..cherry#3", "cherry#3..cherry#7", "cherry#7..fig#", "fig#.."})
	assertStrings(t, "labels", []string{m.Buckets[0].Label, m.Buckets[1].Label, m.Buckets[4].Label}, []string{"apple", "banana", "fig#"})
	if got := fmt.Sprint(rowsOf(m)); got != "[4 4 4 4 2]" {
		t.Fatalf("rows per bucket %s, want [4 4 4 4 2]", got)
	}
	if m.Buckets[4].Node == nil || !m.Buckets[4].CanDrill() {
		t.Fatalf("fig# (2 rows) should be its own bucket and drill down")
	}
	if b := m.Buckets[1]; b.Node != nil || b.Units != 4 || !b.CanDrill() || b.Start != "banana#" || b.End != "cherry#3" {
		t.Fatalf("a merged bucket has no node, four units and drills as the range [banana#, cherry#3): %+v", b)
	}
}

func TestEvenBucketingSplitsLargeUnitsIntoEqualRows(t *testing.T) {
	snap := fruitSnapshot(t)
	// 18 rows, 6 per bucket: cherry# (10 rows) is split into its rows.
	m := mustBuild(t, snap, View{Bucketing: BucketEven, Metric: MetricRows, Rows: 3})
	assertStrings(t, "even", boundaries(m), []string{"..cherry#10", "cherry#10..cherry#7", "cherry#7.."})
	if got := fmt.Sprint(rowsOf(m)); got != "[6 6 6]" {
		t.Fatalf("rows per bucket %s, want [6 6 6]", got)
	}
	assertStrings(t, "labels", []string{m.Buckets[0].Label, m.Buckets[1].Label}, []string{"apple", "cherry"})
}

func TestHeatBucketingKeepsTheHotRowApart(t *testing.T) {
	snap := fruitSnapshot(t)
	cherry := snap.Root.Lookup("cherry#")
	// Cells: 1 1 1 1 1 50 1 1 1 1 (cherry#1, #10, #2 … #9): the hot row is
	// a bucket of its own, the cold ones merge on either side.
	m := mustBuild(t, snap, View{Node: cherry[len(cherry)-1], Bucketing: BucketHeat, Rows: 3, Columns: 4})
	assertStrings(t, "heat", boundaries(m), []string{"cherry#..cherry#5", "cherry#5..cherry#6", "cherry#6..cherry$"})
	hot := m.Buckets[1]
	if hot.Node == nil || hot.Node.Kind != keyspace.KindRow || hot.Label != "cherry#5" || hot.ShortLabel != "…5" || hot.Stats.Cells != 50 {
		t.Fatalf("hot bucket %+v", hot)
	}
	// The even view of the same node keeps equal rows instead.
	even := mustBuild(t, snap, View{Node: cherry[len(cherry)-1], Bucketing: BucketEven, Rows: 3, Metric: MetricRows})
	if got := fmt.Sprint(rowsOf(even)); got != "[3 3 4]" && got != "[3 4 3]" && got != "[4 3 3]" {
		t.Fatalf("even rows %s", got)
	}
}

func TestTabletBucketingFollowsTheTabletMap(t *testing.T) {
	snap := fruitSnapshot(t)
	m := mustBuild(t, snap, View{Bucketing: BucketTablets, Metric: MetricRows, Rows: 10})
	assertStrings(t, "tablets", boundaries(m), []string{"..b", "b..d", "d.."})
	if got := fmt.Sprint(rowsOf(m)); got != "[4 11 3]" {
		t.Fatalf("rows per tablet %s, want [4 11 3]", got)
	}
	if m.Buckets[0].Label != "apple" || m.Buckets[1].Label != "b" {
		t.Fatalf("tablet labels %q %q", m.Buckets[0].Label, m.Buckets[1].Label)
	}
	// An explicit range cuts the first and last tablets; their rows are
	// estimated from the tree.
	m = mustBuild(t, snap, View{Start: "apple#3", End: "cherry#5", Bucketing: BucketTablets, Metric: MetricRows, Rows: 10})
	assertStrings(t, "cut tablets", boundaries(m), []string{"apple#3..b", "b..cherry#5"})
	if got := fmt.Sprint(rowsOf(m)); got != "[2 6]" {
		t.Fatalf("rows per cut tablet %s, want [2 6] (apple#3-4; banana#1, cherry#1, #10, #2-4)", got)
	}

	snap.Ranges = nil
	if _, err := Build(snap, View{Bucketing: BucketTablets, Rows: 4}); err == nil {
		t.Fatal("tablet bucketing without a tablet map should fail")
	}
}

// TestFewPrefixesGoDeeper: five children on ten rows split the ones
// larger than a bucket's share of 1.8 rows (cherry#, apple#, fig#) into
// their rows, so the rows show where the keys are and hold about as many
// keys each; a level of fewUnits children or more keeps one row per
// child.
func TestFewPrefixesGoDeeper(t *testing.T) {
	snap := fruitSnapshot(t)
	m := mustBuild(t, snap, View{Bucketing: BucketPrefix, Metric: MetricRows, Rows: 10})
	assertStrings(t, "cherry#, apple# and fig# split", boundaries(m), []string{"..apple#3", "apple#3..banana#", "banana#..cherry#10", "cherry#10..cherry#3",
		"cherry#3..cherry#5", "cherry#5..cherry#7", "cherry#7..cherry#9", "cherry#9..fig#1", "fig#1..fig#2", "fig#2.."})
	if got := fmt.Sprint(rowsOf(m)); got != "[2 2 2 2 2 2 2 2 1 1]" {
		t.Fatalf("rows per bucket %s, want [2 2 2 2 2 2 2 2 1 1]", got)
	}
	if b := m.Buckets[8]; b.Node == nil || b.Node.Prefix != "fig#1" || !b.NeedsRescan() {
		t.Fatalf("bucket %s..%s should be the row fig#1, which needs a rescan to show more", b.Start, b.End)
	}
	heat := mustBuild(t, snap, View{Bucketing: BucketHeat, Metric: MetricRows, Rows: 10})
	if len(heat.Buckets) <= 5 {
		t.Fatalf("heat bucketing should go deeper too, got %v", boundaries(heat))
	}

	var rows []keyspace.Row
	for i := range fewUnits {
		for j := range 3 {
			rows = append(rows, keyspace.Row{Key: fmt.Sprintf("t%d#%d", i, j), Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}})
		}
	}
	many := heatmaptest.BuildSnapshot(t, "tenants", rows, keyspace.Options{Delimiters: "#"})
	m = mustBuild(t, many, View{Bucketing: BucketPrefix, Rows: 40})
	if len(m.Buckets) != fewUnits {
		t.Fatalf("%d children are not few: want one bucket each, got %v", fewUnits, boundaries(m))
	}
}

// TestRangeViewsClipToTheirBounds also shows that buckets tile the range:
// the keys between banana#'s end and cherry#1 (no rows) belong to the
// banana# bucket.
func TestRangeViewsClipToTheirBounds(t *testing.T) {
	snap := fruitSnapshot(t)
	m := mustBuild(t, snap, View{Start: "apple#3", End: "cherry#5", Bucketing: BucketPrefix, Metric: MetricRows, Rows: 10})
	assertStrings(t, "range view", boundaries(m), []string{"apple#3..apple#4", "apple#4..banana#", "banana#..cherry#1", "cherry#1..cherry#10",
		"cherry#10..cherry#2", "cherry#2..cherry#3", "cherry#3..cherry#4", "cherry#4..cherry#5"})
	if m.Anchor != snap.Root {
		t.Fatalf("a range across children hangs from the root")
	}
}

func TestSingleChildChainsAreSkipped(t *testing.T) {
	var rows []keyspace.Row
	for _, user := range []string{"ann", "bob", "cid"} {
		for i := range 3 {
			rows = append(rows, keyspace.Row{Key: fmt.Sprintf("user#%s#%d", user, i), Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}})
		}
	}
	snap := heatmaptest.BuildSnapshot(t, "users", rows, keyspace.Options{Delimiters: "#"})
	m := mustBuild(t, snap, View{Bucketing: BucketPrefix, Rows: 3})
	assertStrings(t, "users", []string{m.Buckets[0].Label, m.Buckets[0].ShortLabel, string(m.Anchor.Prefix)}, []string{"user#ann#", "…ann#", "user#"})
	if len(m.Buckets) != 3 {
		t.Fatalf("want one bucket per user, got %v", boundaries(m))
	}
}

func TestRowsAtAPrefixItselfKeepTheirOwnBucket(t *testing.T) {
	rows := []keyspace.Row{
		{Key: "a#", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1), heatmaptest.CellAt("f", "r", heatmaptest.Epoch, 1)}},
		{Key: "a#x", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "a#y", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "b#z", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
	}
	snap := heatmaptest.BuildSnapshot(t, "prefix-rows", rows, keyspace.Options{Delimiters: "#"})
	a := snap.Root.Lookup("a#")
	m := mustBuild(t, snap, View{Node: a[len(a)-1], Bucketing: BucketPrefix, Metric: MetricWrites, Rows: 10})
	assertStrings(t, "remainder first", boundaries(m), []string{"a#..a#x", "a#x..a#y", "a#y..a$"})
	if got := m.Buckets[0].Values[0]; got != 2 || m.Buckets[0].Node != nil || m.Buckets[0].Label != "a#" {
		t.Fatalf("the row keyed a# itself: value %v node %v label %q", got, m.Buckets[0].Node, m.Buckets[0].Label)
	}
}

func TestBuildRejectsBadViews(t *testing.T) {
	snap := fruitSnapshot(t)
	for _, v := range []View{
		{Rows: 0},
		{Rows: 4, Metric: "heat"},
		{Rows: 4, Bucketing: "fancy"},
		{Rows: 4, Columns: -1},
		{Rows: 4, Start: "b", End: "a"},
	} {
		if _, err := Build(snap, v); err == nil {
			t.Errorf("Build(%+v) succeeded", v)
		}
	}
	if _, err := Build(nil, View{Rows: 4}); err == nil {
		t.Error("Build(nil) succeeded")
	}
	m := mustBuild(t, snap, View{Start: "x", End: "y", Rows: 4})
	if len(m.Buckets) != 1 || m.Buckets[0].Stats.Rows != 0 {
		t.Fatalf("an empty range gives one empty bucket: %v", boundaries(m))
	}
}
