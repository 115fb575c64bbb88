package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/charmbracelet/colorprofile"
)

// TestLegendWritesWholeCounts: a count's legend writes whole numbers —
// the top rounded, the value between a round count where it falls, a log
// scale's bottom one — however fractional the values (a time-grid bucket
// spread over two columns gives "17.3 cells"); other units keep their
// form.
func TestLegendWritesWholeCounts(t *testing.T) {
	for _, mapping := range []heatmap.Mapping{
		{Kind: heatmap.ScaleLinear, Hi: 17.3, Brightness: 1},
		{Kind: heatmap.ScaleLinear, Hi: 5.21, Brightness: 1},
		{Kind: heatmap.ScaleLinear, Hi: 277.6, Brightness: 1},
		{Kind: heatmap.ScaleLog, Lo: 1, Hi: 410.7, Brightness: 1},
	} {
		for _, tick := range legendTicks(heatmap.UnitCount, mapping) {
			if strings.ContainsAny(tick.label, ".") {
				t.Errorf("%+v: legend label %q is not a whole count", mapping, tick.label)
			}
			if tick.at < 0 || tick.at > 1 {
				t.Errorf("%+v: tick %q at %v, off the ramp", mapping, tick.label, tick.at)
			}
		}
	}
	// A log scale of counts starts at one cell, not at a spread fraction.
	m := &heatmap.Matrix{View: heatmap.View{Metric: heatmap.MetricWrites}, Max: 410.7, MinPositive: 0.03, Time: heatmap.TimeAxis{Columns: 4}}
	if got := (heatmap.Scale{Kind: heatmap.ScaleLog}).Fit(m); got.Lo != 1 {
		t.Errorf("a log scale of cells written starts at %v, want 1", got.Lo)
	}
	if low, _ := legendEnds(m, (heatmap.Scale{Kind: heatmap.ScaleLog}).Fit(m)); low != "1" {
		t.Errorf("the log legend starts at %q, want 1", low)
	}
	// Shares and sizes keep their units.
	if ticks := legendTicks(heatmap.UnitShare, heatmap.Mapping{Kind: heatmap.ScaleLinear, Hi: 0.38, Brightness: 1}); ticks[len(ticks)-1].label != "38%" {
		t.Errorf("share legend %+v", ticks)
	}
}

// TestTextMarksBracketTheirBuckets: a mark draws a bracket beside the
// lines of the buckets it covers, its number and note on the first, and
// the plain-text heatmap keeps every line Width cells wide.
func TestTextMarksBracketTheirBuckets(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	o := TextOptions{Width: 100, Height: 30, Profile: colorprofile.NoTTY, Marks: []Mark{{First: 2, Last: 4, Number: 3, Note: "hot-key-range · 38% of rows"}}}
	l := TextLayout(o, true)
	m := mustBuild(t, snap, heatmap.View{Bucketing: heatmap.BucketPrefix, Rows: l.HeatLines, Columns: l.HeatWidth})
	if len(m.Buckets) < 6 {
		t.Fatalf("%d buckets", len(m.Buckets))
	}
	lines := strings.Split(HeatText(m, o), "\n")
	heat := lines[l.HeatY:]
	line := func(bucket int) string { return heat[spanFor(bucket, len(m.Buckets), l.HeatLines).lo] }
	if !strings.Contains(line(2), "┐ 3 hot-key-range · 38% of rows") || !strings.Contains(line(3), "│") || !strings.Contains(line(4), "┘") {
		t.Errorf("the mark is not drawn beside buckets 2 to 4:\n%s", strings.Join(lines, "\n"))
	}
	if strings.Contains(line(1), "┐") || strings.Contains(line(5), "┘") {
		t.Errorf("the mark spills beyond its buckets:\n%s", strings.Join(lines, "\n"))
	}
	for i, line := range lines {
		if w := len([]rune(line)); w != o.Width {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, w, o.Width, line)
		}
	}
}

// TestFigureWritesItsCaptionWholeAndLabelsMarkedBuckets: a caption longer
// than the image is wide wraps (every word written, none cut), and a
// marked bucket is labelled though the even step of labels would skip it.
func TestFigureWritesItsCaptionWholeAndLabelsMarkedBuckets(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	m := mustBuild(t, snap, heatmap.View{Bucketing: heatmap.BucketEven, Rows: 200, Columns: 50})
	long := strings.Repeat("a subtitle that goes on ", 20) + "and ends here"
	marked := 101 // an odd bucket: the labels' step of several rows skips it
	var svg bytes.Buffer
	err := ChartSVG(&svg, m, ImageOptions{Width: 800, Height: 500, Caption: heatmap.Caption{Title: "celebrity, written", Subtitle: long},
		Marks: []Mark{{First: marked, Last: marked, Number: 1, Note: "here"}}})
	if err != nil {
		t.Fatal(err)
	}
	doc := svg.String()
	if strings.Contains(doc, "…</text>") {
		t.Errorf("a caption line is cut:\n%s", doc)
	}
	var texts []string
	for _, part := range strings.Split(doc, "<text")[1:] {
		text := part[strings.Index(part, ">")+1:]
		texts = append(texts, text[:strings.Index(text, "</text>")])
	}
	written := strings.Join(strings.Fields(strings.Join(texts, " ")), " ")
	if !strings.Contains(written, strings.Join(strings.Fields(long), " ")) {
		t.Errorf("the wrapped subtitle is not written whole:\n%s", written)
	}
	if !strings.Contains(doc, ">"+m.FitFullLabels(figMaxLabelChars)[marked]+"</text>") {
		t.Errorf("the marked bucket's label %q is not written", m.Buckets[marked].Label)
	}
	if !strings.Contains(doc, ">1 here</text>") {
		t.Error("the mark's text is not written")
	}
}
