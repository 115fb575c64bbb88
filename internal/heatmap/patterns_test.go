package heatmap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// hottestColumn returns the first column holding a bucket's largest
// value, or −1 for a bucket without writes.
func hottestColumn(b *Bucket) int {
	best := -1
	for j, v := range b.Values {
		if v > 0 && (best < 0 || v > b.Values[best]) {
			best = j
		}
	}
	return best
}

func TestTimestampFirstKeysDrawADiagonal(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "timestamp-first")
	for _, mode := range []Bucketing{BucketEven, BucketHeat} {
		for _, rows := range []int{8, 16, 32, 64, 140} {
			for _, columns := range []int{24, 60, 233} {
				m := mustBuild(t, snap, View{Bucketing: mode, Rows: rows, Columns: columns})
				last, seen := -1, 0
				for i := range m.Buckets {
					c := hottestColumn(&m.Buckets[i])
					if c < 0 {
						continue
					}
					if c < last {
						t.Fatalf("%s, %d rows × %d columns: bucket %d (%s) peaks at column %d, before the previous bucket's %d",
							mode, rows, columns, i, m.Buckets[i].Label, c, last)
					}
					last = c
					seen++
				}
				if seen < min(rows, len(m.Buckets))/2 || last < columns*3/4 {
					t.Fatalf("%s, %d rows × %d columns: the diagonal does not cross the picture (%d buckets with writes, last peak at %d)",
						mode, rows, columns, seen, last)
				}
			}
		}
	}
}

// celebrityRange is the key range of the celebrity's rows.
func celebrityRange() (start, end string) {
	prefix := "user#" + heatmaptest.CelebrityHandle + "#"
	return prefix, keyspace.PrefixEnd(prefix)
}

func insideCelebrity(b *Bucket) bool {
	start, end := celebrityRange()
	return string(b.Start) >= start && b.End != "" && string(b.End) <= end
}

// recentWrites sums a bucket's last quarter of columns: the celebrity's
// viral day.
func recentWrites(b *Bucket) float64 {
	var sum float64
	for _, v := range b.Values[len(b.Values)*3/4:] {
		sum += v
	}
	return sum
}

func TestCelebritySurvivesHeatBucketingAtEveryZoom(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	user := snap.Root.Lookup("user#")
	celebStart, _ := celebrityRange()
	views := map[string]View{
		"root":       {},
		"user# node": {Node: user[len(user)-1]},
		"range":      {Start: "user#", End: "user$"},
		"wide range": {Start: "user#l", End: "user#o"},
	}
	for name, base := range views {
		for _, metric := range []Metric{MetricWrites, MetricRows, MetricShare} {
			for _, rows := range []int{4, 8, 16, 32, 64} {
				v := base
				v.Bucketing, v.Metric, v.Rows, v.Columns = BucketHeat, metric, rows, 48
				m := mustBuild(t, snap, v)
				var hot []int
				for i := range m.Buckets {
					if string(m.Buckets[i].Start) <= celebStart && (m.Buckets[i].End == "" || string(m.Buckets[i].End) > celebStart) {
						hot = append(hot, i)
					}
				}
				if len(hot) != 1 {
					t.Fatalf("%s %s %d rows: the celebrity spans buckets %v", name, metric, rows, hot)
				}
				b := &m.Buckets[hot[0]]
				if b.Node == nil || string(b.Node.Prefix) != celebStart || b.Units != 1 {
					t.Fatalf("%s %s %d rows: the celebrity is merged into %q [%v, %v)", name, metric, rows, b.Label, b.Start, b.End)
				}
				for i := range m.Buckets {
					if i != hot[0] && m.Buckets[i].Stats.Cells >= b.Stats.Cells {
						t.Fatalf("%s %s %d rows: bucket %q is as hot as the celebrity", name, metric, rows, m.Buckets[i].Label)
					}
				}
			}
		}
	}
}

func TestCelebritySurvivesEvenBucketing(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	for _, rows := range []int{8, 16, 32, 64} {
		m := mustBuild(t, snap, View{Bucketing: BucketEven, Rows: rows, Columns: 56})
		inside, hottest := 0, 0
		for i := range m.Buckets {
			if insideCelebrity(&m.Buckets[i]) {
				inside++
			}
			if recentWrites(&m.Buckets[i]) > recentWrites(&m.Buckets[hottest]) {
				hottest = i
			}
		}
		if inside == 0 || !insideCelebrity(&m.Buckets[hottest]) {
			t.Fatalf("%d rows: %d buckets inside the celebrity; the hottest recent bucket is %q", rows, inside, m.Buckets[hottest].Label)
		}
		// About 38 % of equal-row buckets belong to her.
		if share := float64(inside) / float64(len(m.Buckets)); share < 0.2 || share > 0.45 {
			t.Fatalf("%d rows: %d of %d buckets inside the celebrity", rows, inside, len(m.Buckets))
		}
	}
}

func TestOversizedRowStandsOutAsOneRow(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "large-row")
	for _, mode := range []Bucketing{BucketPrefix, BucketEven, BucketHeat, BucketTablets} {
		m := mustBuild(t, snap, View{Bucketing: mode, Metric: MetricMaxRow, Rows: 24})
		top := 0
		for i := range m.Buckets {
			if m.Buckets[i].Values[0] > m.Buckets[top].Values[0] {
				top = i
			}
		}
		b := m.Buckets[top]
		if !keyspace.InRange(heatmaptest.LargeRowKey, string(b.Start), string(b.End)) || b.Values[0] < 100<<20 {
			t.Fatalf("%s: the largest bucket is %q [%v, %v) at %v bytes", mode, b.Label, b.Start, b.End, b.Values[0])
		}
		for i := range m.Buckets {
			if i != top && m.Buckets[i].Values[0] > 1<<20 {
				t.Fatalf("%s: bucket %q also shows %v bytes", mode, m.Buckets[i].Label, m.Buckets[i].Values[0])
			}
		}
	}
	// Zoomed into its owner, heat bucketing names the row itself.
	owner := snap.Root.Find(heatmaptest.LargeRowKey)
	var ingest *keyspace.Node
	for _, n := range owner {
		if strings.HasSuffix(string(n.Prefix), "studio_ingest#") {
			ingest = n
		}
	}
	if ingest == nil {
		t.Fatal("no studio_ingest# node")
	}
	m := mustBuild(t, snap, View{Node: ingest, Bucketing: BucketHeat, Metric: MetricMaxRow, Rows: 8})
	var names []string
	for _, b := range m.Buckets {
		if b.Values[0] > 100<<20 {
			names = append(names, b.Label)
		}
	}
	if fmt.Sprint(names) != fmt.Sprint([]string{heatmaptest.LargeRowKey}) {
		t.Fatalf("hot buckets under studio_ingest#: %q", names)
	}
}
