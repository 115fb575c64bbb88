package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
)

func TestChartPNGDecodesAtTheAskedSizeAndIsNotBlank(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	for _, tc := range []struct {
		view          heatmap.View
		width, height int
		dark          bool
	}{
		{heatmap.View{Rows: 120, Columns: 240, Bucketing: heatmap.BucketHeat}, 0, 0, true},
		{heatmap.View{Rows: 300, Columns: 900}, 1600, 1000, false},
		{heatmap.View{Rows: 40, Metric: heatmap.MetricRows}, 640, 480, true},
	} {
		m := mustBuild(t, snap, tc.view)
		var buf bytes.Buffer
		o := ImageOptions{Width: tc.width, Height: tc.height, Theme: NewTheme(tc.dark), Caption: heatmap.Describe(snap, m, heatmap.Scale{})}
		if err := ChartPNG(&buf, m, o); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("the PNG does not decode: %v", err)
		}
		wantW, wantH := max(tc.width, DefaultImageWidth*boolInt(tc.width == 0)), max(tc.height, DefaultImageHeight*boolInt(tc.height == 0))
		if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
			t.Fatalf("image is %v, want %d×%d", b, wantW, wantH)
		}
		f := newFigure(m, o, wantW, wantH)
		colors := map[color.RGBA]bool{}
		for y := f.heat.y0; y < f.heat.y1; y += 2 {
			for x := f.heat.x0; x < f.heat.x1; x += 2 {
				r, g, b, _ := img.At(x, y).RGBA()
				colors[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}] = true
			}
		}
		if len(colors) < 8 {
			t.Fatalf("%+v: the heat area has only %d colours", tc.view, len(colors))
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestChartSVGIsWellFormedWithTheFontEmbedded(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "large-row")
	m := mustBuild(t, snap, heatmap.View{Rows: 60, Columns: 120, Metric: heatmap.MetricWrites})
	var buf bytes.Buffer
	o := ImageOptions{Caption: heatmap.Caption{Title: "large <row> & \x1b[31m co", Subtitle: heatmap.Describe(snap, m, heatmap.Scale{}).Subtitle}}
	if err := ChartSVG(&buf, m, o); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"@font-face{font-family:'Go Mono'", "base64,", "monospace", "<rect ", `large &lt;row&gt; &amp; \x1b[31m co`} {
		if !strings.Contains(out, want) {
			t.Fatalf("SVG lacks %q", want)
		}
	}
	decoder := xml.NewDecoder(strings.NewReader(out))
	root := ""
	rects := 0
	for {
		tok, err := decoder.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if start, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = start.Name.Local
			}
			if start.Name.Local == "rect" {
				rects++
			}
		}
	}
	if root != "svg" || rects < 100 {
		t.Fatalf("root element %q with %d rects", root, rects)
	}
}

func TestImagesRefuseBadInput(t *testing.T) {
	m := mustBuild(t, heatmaptest.ScenarioSnapshot(t, "hashed"), heatmap.View{Rows: 10, Columns: 10})
	if _, err := ChartImage(m, ImageOptions{Width: 100, Height: 100}); !errors.Is(err, ErrImageTooSmall) {
		t.Fatalf("tiny image: %v", err)
	}
	if err := ChartSVG(io.Discard, nil, ImageOptions{}); err == nil {
		t.Fatal("nil matrix")
	}
	if _, err := ChartImage(nil, ImageOptions{}); err == nil {
		t.Fatal("nil matrix")
	}
}
