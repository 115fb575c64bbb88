package export

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/view"
)

// interactiveOnly is what only the interactive frame shows: its key help
// and the selected bucket's marker.
var interactiveOnly = []string{"q quit", "? help", "esc back", "▶"}

// svgTexts returns the text of every <text> element of an SVG document,
// in order, and fails the test when the document is not well-formed.
func svgTexts(t *testing.T, data []byte) []string {
	t.Helper()
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		token, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		switch tok := token.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(tok)
			}
		case xml.EndElement:
			inText = false
		}
	}
}

// captionWords are the words of a chart's title and subtitle.
func captionWords(t *testing.T, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) []string {
	t.Helper()
	c, err := buildChart(snap, findings, o.withDefaults(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(c.caption.Title + " " + c.caption.Subtitle)
}

// TestChartsAreDrawnForAReader: without --frame every view of the
// celebrity table is a chart: no key help, no selection marker (the
// frame of the same view has both), the title and subtitle whole at any
// width (every word written, none cut), the celebrity's bucket labelled
// and marked with finding 1 and its share, and for the findings view the
// numbered list of findings.
func TestChartsAreDrawnForAReader(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	for _, pane := range []view.Pane{view.PaneHeatmap, view.PanePrefixes, view.PaneFindings, view.PaneRows} {
		for _, size := range [][2]int{{80, 30}, {120, 40}, {200, 60}} {
			o := Options{View: pane, Width: size[0], Height: size[1], Format: artifact.FormatText}
			var chart, frame bytes.Buffer
			if err := Render(&chart, snap, findings, o); err != nil {
				t.Fatal(err)
			}
			o.Frame = true
			if err := Render(&frame, snap, findings, o); err != nil {
				t.Fatal(err)
			}
			name := string(pane)
			for _, interactive := range interactiveOnly {
				if strings.Contains(chart.String(), interactive) {
					t.Errorf("%s at %dx%d: the chart shows %q, which only the interactive frame has:\n%s", name, size[0], size[1], interactive, chart.String())
				}
			}
			if !strings.Contains(frame.String(), "esc back") {
				t.Errorf("%s at %dx%d: the frame (--frame) lacks its key help:\n%s", name, size[0], size[1], frame.String())
			}
			lines := strings.Split(strings.TrimRight(chart.String(), "\n"), "\n")
			if len(lines) > size[1] {
				t.Errorf("%s at %dx%d: the chart has %d lines", name, size[0], size[1], len(lines))
			}
			written := map[string]bool{}
			for _, word := range strings.Fields(chart.String()) {
				written[word] = true
			}
			for _, word := range captionWords(t, snap, findings, Options{View: pane, Width: size[0], Height: size[1], Format: artifact.FormatText}) {
				if !written[word] && strings.Trim(word, "0123456789") != "" { // the bucket count is the text chart's own
					t.Errorf("%s at %dx%d: the caption's word %q is not written whole", name, size[0], size[1], word)
				}
			}
			marked := false
			for _, line := range lines {
				if strings.Contains(line, "mila_rosewood#") && strings.Contains(line, "1 hot-key-range") {
					marked = true
				}
			}
			if !marked && size[0] >= 120 {
				t.Errorf("%s at %dx%d: no line labels the celebrity's bucket and marks finding 1 on it:\n%s", name, size[0], size[1], chart.String())
			}
			if pane == view.PaneFindings && !strings.Contains(chart.String(), "1. WARNING hot-key-range at user#mila_rosewood#") {
				t.Errorf("findings chart lacks the numbered finding:\n%s", chart.String())
			}
		}
	}
}

// TestChartImagesMarkAndLabelTheFindings: the SVG chart (the PNG's twin:
// one figure drawn on two canvases) is as large as the frame's
// screenshot, writes every word of its title and subtitle, labels the
// celebrity's bucket and marks finding 1 with its share; the PNG decodes
// at the same size.
func TestChartImagesMarkAndLabelTheFindings(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	for _, pane := range []view.Pane{view.PaneHeatmap, view.PanePrefixes, view.PaneFindings} {
		o := Options{View: pane, Width: 100, Height: 30, Format: artifact.FormatSVG}
		var svg, pngData bytes.Buffer
		if err := Render(&svg, snap, findings, o); err != nil {
			t.Fatal(err)
		}
		texts := svgTexts(t, svg.Bytes())
		all := strings.Join(texts, "\n")
		for _, want := range []string{"user#mila_rosewood#", "1 hot-key-range · 38% of"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: the SVG chart lacks %q:\n%s", pane, want, all)
			}
		}
		written := map[string]bool{}
		for _, word := range strings.Fields(all) {
			written[word] = true
		}
		for _, word := range captionWords(t, snap, findings, o) {
			if !written[word] {
				t.Errorf("%s: the caption's word %q is not written whole", pane, word)
			}
		}
		o.Format = artifact.FormatPNG
		if err := Render(&pngData, snap, findings, o); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&pngData)
		if err != nil {
			t.Fatal(err)
		}
		size, _ := pngFrame(o.Width, o.Height).PixelSize()
		if img.Bounds().Dx() != size.X || img.Bounds().Dy() != size.Y {
			t.Errorf("%s: the PNG chart is %v, want the frame's %v", pane, img.Bounds().Size(), size)
		}
	}
}

// TestExportThatCannotDrawFailsAndWritesNothing: a traffic metric of a
// scan, or the hot rows of a scan, is an error wrapping ErrCannotDraw,
// and no file is written (an existing one is left as it was).
func TestExportThatCannotDrawFailsAndWritesNothing(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.png")
	if err := os.WriteFile(kept, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Metric: heatmap.MetricOps}, {Metric: heatmap.MetricReads, Frame: true}, {View: view.PaneHot}} {
		for _, path := range []string{filepath.Join(dir, "new.png"), kept} {
			err := Write(path, snap, findings, o)
			if !errors.Is(err, ErrCannotDraw) || !strings.Contains(err.Error(), "needs a traffic recording") {
				t.Errorf("%+v: %v, want ErrCannotDraw saying a recording is needed", o, err)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the failed exports left %v", entries)
	}
	if data, _ := os.ReadFile(kept); string(data) != "old" {
		t.Errorf("a failed export changed the existing file to %q", data)
	}
}

// TestReportImagesMarkAndLabelTheFindings: every heatmap picture of the
// celebrity report marks finding 1 on the celebrity's bucket, whose label
// and (in the row-share picture, which writes values) value are written,
// and writes its title and subtitle whole.
func TestReportImagesMarkAndLabelTheFindings(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	in := report.Input{Snapshot: snap, Findings: findings}
	for _, pic := range plannedPictures(&in, ReportImageOptions{}) {
		if pic.figure == nil {
			continue
		}
		m, opts, err := pic.figure()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, k := range opts.Marks {
			found = found || k.Number == 1 && strings.HasPrefix(m.Buckets[k.First].Label, "user#mila_rosewood#")
		}
		if !found {
			t.Errorf("%s: finding 1 is not marked on the celebrity's bucket: %+v", pic.name, opts.Marks)
		}
		var svg bytes.Buffer
		if err := render.ChartSVG(&svg, m, opts); err != nil {
			t.Fatal(err)
		}
		all := strings.Join(svgTexts(t, svg.Bytes()), "\n")
		wants := []string{"user#mila_rosewood#", "1 hot-key-range"}
		if !m.Timed() {
			wants = append(wants, "38%")
		}
		for _, want := range wants {
			if !strings.Contains(all, want) {
				t.Errorf("%s lacks %q", pic.name, want)
			}
		}
		written := map[string]bool{}
		for _, word := range strings.Fields(all) {
			written[word] = true
		}
		for _, word := range strings.Fields(opts.Caption.Title + " " + opts.Caption.Subtitle) {
			if !written[word] {
				t.Errorf("%s: the caption's word %q is not written whole", pic.name, word)
			}
		}
	}
}

// TestDiffImageMarksEachSidesFindings: the side-by-side SVG marks the
// celebrity's finding on the before panel and labels its bucket; the
// salted after panel has no finding to mark.
func TestDiffImageMarksEachSidesFindings(t *testing.T) {
	before, findingsBefore := loadFixture(t, "social-celebrity")
	after, findingsAfter := loadFixture(t, "social-celebrity-salted")
	var svg bytes.Buffer
	if err := DiffImage(&svg, artifact.FormatSVG, before, after, DiffImageOptions{Width: 1600, Height: 600, FindingsA: findingsBefore, FindingsB: findingsAfter}); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(svgTexts(t, svg.Bytes()), "\n")
	for _, want := range []string{"user#mila_rosewood#", "1 hot-key-range · 38% of cells written", "counted"} { // the subtitle's last word: whole
		if !strings.Contains(all, want) {
			t.Errorf("the diff image lacks %q", want)
		}
	}
	if strings.Count(all, "hot-key-range") != 1 {
		t.Errorf("the diff image marks %d hot-key-ranges, want the before side's one", strings.Count(all, "hot-key-range"))
	}
}

// TestHotChartListsTheRecordingsHottestRows: the hot view of a recording
// is its operations by key and time with the rows read most often listed
// under it.
func TestHotChartListsTheRecordingsHottestRows(t *testing.T) {
	snap := recordingOf(t)
	var out bytes.Buffer
	if err := Render(&out, snap, diagnose.Diagnose(snap), Options{View: view.PaneHot, Format: artifact.FormatText, Width: 120, Height: 40}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"t — hottest rows and scans, on operations by key and time", "read user#u0", "times"} {
		if !strings.Contains(text, want) {
			t.Errorf("the hot chart lacks %q:\n%s", want, text)
		}
	}
}
