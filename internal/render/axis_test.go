package render

import (
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
)

// withinSecond fails the test if f does not return within a second: the
// time axis must take bounded work whatever the cell timestamps say.
func withinSecond(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatalf("%s did not finish within a second", what)
	}
}

// farSnapshot is a small table whose cells were written at the given
// microsecond timestamps.
func farSnapshot(stamps ...int64) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Table: "far", Families: []string{"f"}}, keyspace.Options{Delimiters: "#"})
	for i, at := range stamps {
		b.Add(&keyspace.Row{Key: "k#" + strconv.Itoa(i), Weight: 1, Cells: []keyspace.Cell{{Family: "f", Qualifier: "q", Timestamp: at, ValueBytes: 1}}})
	}
	return b.Snapshot()
}

// TestTimeAxisOfAnyCellTimestampsIsDrawnInBoundedWork: cell timestamps
// beyond the years 1678–2262 (where nanoseconds since 1970 overflow), a
// few milliseconds in the year 31,700, 146,000 years (2^62 µs), and the
// whole int64 range all draw an axis at once, with labels that fit and,
// for spans of years, say the year.
func TestTimeAxisOfAnyCellTimestampsIsDrawnInBoundedWork(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stamps []int64
		label  string // a label the axis must show, if any
	}{
		{"ms in year 31,700", []int64{1e18, 1e18 + 1000, 1e18 + 3000}, ""},
		{"ms in year -29,700", []int64{-1e18, -1e18 + 1000, -1e18 + 3000}, ""},
		{"a day in year 28,600", []int64{8.4e17, 8.4e17 + 86_400_000_000}, ""},
		{"146,000 years", []int64{0, 1 << 62}, "100000"},
		{"every int64", []int64{math.MinInt64 + 1, 0, math.MaxInt64}, ""},
		{"two years", []int64{time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC).UnixMicro()}, "2026"},
	} {
		snap := farSnapshot(tc.stamps...)
		withinSecond(t, tc.name, func() {
			m, err := heatmap.Build(snap, heatmap.View{Rows: 10, Columns: 100})
			if err != nil {
				t.Fatal(err)
			}
			text := HeatText(m, TextOptions{Width: 120, Height: 24})
			if tc.label != "" && !strings.Contains(text, tc.label) {
				t.Errorf("%s: the axis does not show %q:\n%s", tc.name, tc.label, text)
			}
			for _, extent := range []float64{1, 100, 1000} {
				ticks := timeTicks(m.Time, extent, 1, nil)
				if len(ticks) > int(extent) {
					t.Errorf("%s: %d ticks on %v cells", tc.name, len(ticks), extent)
				}
				for i := 1; i < len(ticks); i++ {
					if ticks[i].frac <= ticks[i-1].frac {
						t.Errorf("%s: ticks out of order: %+v", tc.name, ticks)
					}
				}
			}
			if err := ChartSVG(io.Discard, m, ImageOptions{Width: 800, Height: 400}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestYearTicksFallOnYearStarts(t *testing.T) {
	start := time.Date(1990, 7, 4, 0, 0, 0, 0, time.UTC)
	axis := heatmap.TimeAxis{Start: start, End: start.AddDate(60, 0, 0), Columns: 10}
	ticks := timeTicks(axis, 100, 1, nil)
	if len(ticks) < 3 {
		t.Fatalf("ticks %+v", ticks)
	}
	for _, tick := range ticks {
		if tick.at.Month() != time.January || tick.at.Day() != 1 || tick.at.Year()%5 != 0 || tick.label != strconv.Itoa(tick.at.Year()) {
			t.Errorf("tick %+v is not the start of a round year", tick)
		}
	}
	if got := (heatmap.TimeAxis{Start: time.Unix(0, 0), End: time.UnixMicro(1 << 62), Columns: 4}).ColumnStart(2).Year(); got < 75000 || got > 75100 {
		t.Errorf("column 2 of 4 of 146,000 years starts in %d", got)
	}
}
func TestTimeTicksAreRoundAndFitTheirLabels(t *testing.T) {
	start := time.Date(2026, 10, 31, 22, 6, 0, 0, time.UTC)
	for _, tc := range []struct {
		span  time.Duration
		width float64
		first string
	}{
		{7 * 24 * time.Hour, 80, "Nov 1"},
		{11 * time.Hour, 100, "23:00"},
		{90 * time.Second, 60, "22:06:00"},
	} {
		ticks := timeTicks(heatmap.TimeAxis{Start: start, End: start.Add(tc.span), Columns: 10}, tc.width, 1, nil)
		if len(ticks) < 2 || ticks[0].label != tc.first {
			t.Fatalf("span %v: ticks %+v", tc.span, ticks)
		}
		for i := 1; i < len(ticks); i++ {
			if gap := (ticks[i].frac - ticks[i-1].frac) * tc.width; gap < float64(len(ticks[i-1].label)+1) {
				t.Fatalf("span %v: labels %q and %q overlap", tc.span, ticks[i-1].label, ticks[i].label)
			}
		}
	}
}
