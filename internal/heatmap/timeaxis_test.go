package heatmap

import (
	"math"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
)

func TestRebinningKeepsTotalsAndDrawsASteadyRateFlat(t *testing.T) {
	for _, tc := range []struct{ buckets, columns int }{
		{128, 128}, {128, 100}, {128, 37}, {100, 128}, {7, 240}, {3, 2}, {1, 5}, {128, 1},
	} {
		r := newRebinner(tc.buckets, tc.columns)
		dense := make([]float64, tc.buckets)
		for i := range dense {
			dense[i] = 10
		}
		out := make([]float64, tc.columns)
		r.apply(dense, out)
		var total float64
		for j, v := range out {
			total += v
			want := 10 * float64(tc.buckets) / float64(tc.columns)
			if math.Abs(v-want) > 1e-9 {
				t.Errorf("%d grid buckets → %d columns: column %d holds %v, want %v (no stripes)", tc.buckets, tc.columns, j, v, want)
			}
		}
		if math.Abs(total-10*float64(tc.buckets)) > 1e-9 {
			t.Errorf("%d → %d: total %v, want %v", tc.buckets, tc.columns, total, 10*tc.buckets)
		}
	}
}

func TestRebinningPlacesACountWhereItsTimeIs(t *testing.T) {
	// 4 grid buckets over 8 columns: bucket 2 covers columns 4 and 5.
	r := newRebinner(4, 8)
	out := make([]float64, 8)
	r.apply([]float64{0, 0, 6, 0}, out)
	want := []float64{0, 0, 0, 0, 3, 3, 0, 0}
	for j := range want {
		if out[j] != want[j] {
			t.Fatalf("columns %v, want %v", out, want)
		}
	}
}

func TestTimeAxisColumns(t *testing.T) {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	a := TimeAxis{Start: start, End: start.Add(10 * time.Hour), Columns: 20}
	if a.ColumnDuration() != 30*time.Minute || !a.ColumnStart(3).Equal(start.Add(90*time.Minute)) {
		t.Fatalf("duration %v, column 3 at %v", a.ColumnDuration(), a.ColumnStart(3))
	}
	if a.ColumnAt(start.Add(95*time.Minute)) != 3 || a.ColumnAt(start.Add(-time.Hour)) != 0 || a.ColumnAt(start.Add(99*time.Hour)) != 19 {
		t.Fatal("ColumnAt does not invert ColumnStart or does not clamp")
	}
}

func TestMatrixTimeAxisCoversTheSnapshotSpan(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "device-reversed-ts")
	m := mustBuild(t, snap, View{Rows: 10, Columns: 300})
	first, last, _ := snap.TimeSpan()
	if !m.Time.Start.Equal(snap.BucketTime(first)) || !m.Time.End.Equal(snap.BucketTime(last)) || m.Time.Columns != 300 {
		t.Fatalf("axis %+v, snapshot span %v – %v", m.Time, snap.BucketTime(first), snap.BucketTime(last))
	}
	var total float64
	for _, b := range m.Buckets {
		for _, v := range b.Values {
			total += v
		}
	}
	if math.Abs(total-snap.Root.Cells) > 1e-6*snap.Root.Cells {
		t.Fatalf("matrix holds %v cells, snapshot %v", total, snap.Root.Cells)
	}
	share := mustBuild(t, snap, View{Rows: 10, Columns: 50, Metric: MetricWriteShare})
	for j := range 50 {
		var column float64
		for _, b := range share.Buckets {
			column += b.Values[j]
		}
		if column != 0 && math.Abs(column-1) > 1e-9 {
			t.Fatalf("write shares of column %d add up to %v", j, column)
		}
	}
	untimed := mustBuild(t, snap, View{Rows: 10, Columns: 50, Metric: MetricRows})
	if untimed.Timed() || untimed.Columns() != 1 {
		t.Fatalf("rows have no time axis")
	}
}

func TestColumnTextOfLongAxesSaysYears(t *testing.T) {
	a := TimeAxis{Start: time.Unix(0, 0), End: time.UnixMicro(1 << 62), Columns: 128}
	if got := a.ColumnText(); got != "1,142 years" {
		t.Errorf("a column of 146,000 years over 128 columns is %q", got)
	}
	if got := (TimeAxis{Start: time.Unix(0, 0), End: time.Unix(0, 0).Add(10 * time.Hour), Columns: 3}).ColumnText(); got != "3h20m" {
		t.Errorf("a column of 10h over 3 columns is %q", got)
	}
}
