package heatmap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// sharedPrefixSnapshot is 200,000 keys behind one 110-byte common prefix
// then 8 digits, written in key order one second apart: the Key
// Visualizer diagonal, hidden behind a long namespace.
func sharedPrefixSnapshot(common string) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Table: "same", Families: []string{"f"}}, keyspace.Options{})
	for i := range 200_000 {
		b.Add(&keyspace.Row{Key: fmt.Sprintf("%s%08d", common, i), Weight: 1, Cells: []keyspace.Cell{
			{Family: "f", Qualifier: "q", Timestamp: heatmaptest.Epoch.Add(time.Duration(i) * time.Second).UnixMicro(), ValueBytes: 10}}})
	}
	return b.Snapshot()
}

// TestOneLongSharedPrefixStillDrawsManyBuckets: whether the 110 shared
// bytes hold many delimiters (which used to spend the tree's whole depth,
// leaving one bucket on every row) or none (which left every label the
// same run of x), the prefix, even and heat bucketings draw many buckets
// with labels that tell them apart and the diagonal, for the whole table
// and for --prefix with the whole common prefix.
func TestOneLongSharedPrefixStillDrawsManyBuckets(t *testing.T) {
	for _, common := range []string{
		"sameprefix#aaaa#bbbb#cccc#dddd#eeee#ffff#gggg#hhhh#iiii#jjjj#kkkk#llll#mmmm#nnnn#oooo#pppp#qqqq#rrrr#ssss#tttt",
		"sameprefix#" + strings.Repeat("x", 99),
	} {
		if len(common) != 110 {
			t.Fatalf("common prefix of %d bytes", len(common))
		}
		snap := sharedPrefixSnapshot(common)
		for _, bucketing := range []Bucketing{BucketPrefix, BucketEven, BucketHeat} {
			for _, view := range []View{
				{Rows: 40, Columns: 60, Bucketing: bucketing},
				{Rows: 40, Columns: 60, Bucketing: bucketing, Start: keyspace.Key(common), End: keyspace.Key(keyspace.PrefixEnd(common))},
			} {
				m := mustBuild(t, snap, view)
				what := fmt.Sprintf("%.14q… %s, range %q", common, bucketing, view.Start)
				if len(m.Buckets) < 20 {
					t.Errorf("%s: %d buckets, want at least 20", what, len(m.Buckets))
					continue
				}
				labels := map[string]bool{}
				for _, b := range m.Buckets {
					labels[b.ShortLabel] = true
					if len(b.ShortLabel) > 24 {
						t.Errorf("%s: label %q would be cut before it says where its keys differ", what, b.ShortLabel)
						break
					}
				}
				if len(labels) != len(m.Buckets) {
					t.Errorf("%s: %d distinct labels for %d buckets: %v", what, len(labels), len(m.Buckets), labels)
				}
				for k := 1; k < len(m.Buckets); k++ {
					if hottestColumn(&m.Buckets[k]) < hottestColumn(&m.Buckets[k-1]) {
						t.Errorf("%s: no diagonal: bucket %d is hottest in column %d, bucket %d in %d", what,
							k-1, hottestColumn(&m.Buckets[k-1]), k, hottestColumn(&m.Buckets[k]))
						break
					}
				}
			}
		}
	}
}
