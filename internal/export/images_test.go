package export

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/report"
)

// markdownImage matches an image link of the Markdown report.
var markdownImage = regexp.MustCompile(`!\[[^\]]*\]\(<([^>]*)>\)`)

// TestReportImagesLinkFilesThatDecode: the Markdown report links every
// picture ReportImages drew, by a path relative to the report that
// exists and decodes as a PNG of the asked size.
func TestReportImagesLinkFilesThatDecode(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	salt, err := diagnose.ParseTransform("salt(8)")
	if err != nil {
		t.Fatal(err)
	}
	whatIf, err := diagnose.RunWhatIf(snap, salt)
	if err != nil {
		t.Fatal(err)
	}
	in := report.Input{Snapshot: snap, Findings: findings, WhatIfs: []*diagnose.WhatIf{whatIf}}
	root := t.TempDir()
	mdDir := filepath.Join(root, "review")
	if err := os.MkdirAll(mdDir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := ReportImageOptions{MarkdownDir: mdDir, Width: 800, Height: 500}
	if err := ReportImages(filepath.Join(root, "review", "img"), &in, opts); err != nil {
		t.Fatal(err)
	}
	for _, section := range []report.Section{report.SectionSummary, report.SectionFindings, report.SectionPrefixes, report.SectionWhatIf} {
		if len(in.Images[section]) == 0 {
			t.Errorf("no picture for section %s", section)
		}
	}
	if len(in.Images[report.SectionLargestRows]) != 0 {
		t.Errorf("a largest-rows picture for a table whose rows are all alike: %v", in.Images[report.SectionLargestRows])
	}
	md := string(report.Markdown(in))
	links := markdownImage.FindAllStringSubmatch(md, -1)
	if len(links) != 4 {
		t.Fatalf("the report links %d pictures, want 4:\n%s", len(links), md)
	}
	for _, link := range links {
		path := link[1]
		if filepath.IsAbs(path) || !strings.HasPrefix(path, "img/") {
			t.Errorf("link %q is not relative to the report", path)
		}
		f, err := os.Open(filepath.Join(mdDir, filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("link %q: %v", path, err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s does not decode as PNG: %v", path, err)
			continue
		}
		want := image.Pt(opts.Width, opts.Height)
		if strings.Contains(path, "what-if") {
			want.X *= 2
		}
		if img.Bounds().Size() != want {
			t.Errorf("%s is %v, want %v", path, img.Bounds().Size(), want)
		}
	}
	if !strings.Contains(md, "(<img/finding-1-hot-key-range.png>)") {
		t.Errorf("the hot-key-range picture is not named after its finding's number and kind")
	}
}

func TestReportImagesErrors(t *testing.T) {
	if err := ReportImages(t.TempDir(), &report.Input{}, ReportImageOptions{}); err == nil {
		t.Error("pictures of no snapshot succeeded")
	}
	snap, findings := loadFixture(t, "social-celebrity")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReportImages(file, &report.Input{Snapshot: snap, Findings: findings}, ReportImageOptions{}); err == nil {
		t.Error("pictures into a file instead of a directory succeeded")
	}
}

// TestDiffImagePNG: two panels on one colour scale, side by side.
func TestDiffImagePNG(t *testing.T) {
	before, _ := loadFixture(t, "social-celebrity")
	after, _ := loadFixture(t, "social-celebrity-salted")
	var buf bytes.Buffer
	if err := DiffImage(&buf, artifact.FormatPNG, before, after, DiffImageOptions{Width: 1600, Height: 600}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if img.Bounds().Dx() != 1600 || img.Bounds().Dy() != 600 {
		t.Fatalf("image is %v, want 1600×600", img.Bounds())
	}
	// The celebrity's band on the left is bright (yellow at the top of
	// the shared ramp); the salted buckets on the right stay dim. Count
	// bright pixels above the legends.
	bright := func(x0, x1 int) int {
		n := 0
		for y := 0; y < 600-140; y++ {
			for x := x0; x < x1; x++ {
				c := rgba(img.At(x, y))
				if c.R > 180 && c.G > 180 && c.B < 120 {
					n++
				}
			}
		}
		return n
	}
	left, right := bright(0, 800), bright(800, 1600)
	if left < 50 || right > left/10 {
		t.Errorf("bright pixels: %d left, %d right; want the celebrity's band bright on the left only, on one scale", left, right)
	}
	if err := DiffImage(io.Discard, artifact.FormatText, before, after, DiffImageOptions{}); err == nil {
		t.Error("a text side-by-side image was drawn")
	}
	if err := DiffImage(io.Discard, artifact.FormatPNG, before, after, DiffImageOptions{Width: 800, Height: 600}); err == nil || !strings.Contains(err.Error(), "at least 960x320") {
		t.Errorf("too small an image: %v", err)
	}
	small := DiffImageOptions{Bucketing: heatmap.BucketTablets, Width: 1000, Height: 400}
	if err := DiffImage(io.Discard, artifact.FormatPNG, before, after, small); err != nil {
		t.Errorf("tablet bucketing of two emulator snapshots (sample ranges): %v", err)
	}
	noTablets := before.Clone()
	noTablets.Ranges = nil
	if err := DiffImage(io.Discard, artifact.FormatPNG, noTablets, after, small); !errors.Is(err, heatmap.ErrNoTablets) || !strings.Contains(err.Error(), "before") {
		t.Errorf("tablet bucketing without a tablet map: %v", err)
	}
}

// TestDiffImageSVG: one well-formed document holding both panels.
func TestDiffImageSVG(t *testing.T) {
	before, _ := loadFixture(t, "social-celebrity")
	after, _ := loadFixture(t, "social-celebrity-salted")
	path := filepath.Join(t.TempDir(), "diff.svg")
	if err := WriteDiffImage(path, before, after, DiffImageOptions{Metric: heatmap.MetricShare, LabelA: "v1 <old>", LabelB: "v2", Width: 1200, Height: 500}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	svgs, texts := 0, ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "svg" {
				svgs++
			}
		case xml.CharData:
			texts += " " + string(el)
		}
	}
	texts = strings.Join(strings.Fields(texts), " ") // a title wrapped on two lines reads as one
	if svgs != 3 {
		t.Errorf("%d <svg> elements, want the document and two panels", svgs)
	}
	for _, want := range []string{"v1 <old> — social-celebrity — share of rows", "v2 — social-celebrity-salted — share of rows", "one colour scale for both panels"} {
		if !strings.Contains(texts, want) {
			t.Errorf("SVG text lacks %q", want)
		}
	}
	if err := WriteDiffImage(filepath.Join(t.TempDir(), "diff.txt"), before, after, DiffImageOptions{}); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("a .txt side-by-side image: %v", err)
	}
}

// TestDiffImageSaysWhenColumnsDiffer: two snapshots over different
// times get columns of different lengths, and the note says how long in
// the words of the panel's legend ("per 1h3m").
func TestDiffImageSaysWhenColumnsDiffer(t *testing.T) {
	before, _ := loadFixture(t, "social-celebrity")
	after, _ := loadFixture(t, "timeseries-timestamp-first")
	var buf bytes.Buffer
	if err := DiffImage(&buf, artifact.FormatSVG, before, after, DiffImageOptions{Width: 1300, Height: 500}); err != nil {
		t.Fatal(err)
	}
	note := regexp.MustCompile(`columns of (\S+) \(left\)`).FindStringSubmatch(buf.String())
	legend := regexp.MustCompile(`per (\S+) ·`).FindStringSubmatch(buf.String())
	if note == nil || legend == nil {
		t.Fatalf("the image does not say that the columns differ (%q), or its legend how long they are (%q)", note, legend)
	}
	if note[1] != legend[1] || !strings.Contains(note[1], "h") {
		t.Errorf("the note says the left columns are %s long, the legend %s: want the legend's words, hours and minutes", note[1], legend[1])
	}
}

// TestShareScale: matrices fitted together map a value to one colour.
func TestShareScale(t *testing.T) {
	a := &heatmap.Matrix{Max: 10, MinPositive: 2}
	b := &heatmap.Matrix{Max: 40, MinPositive: 0.5}
	ShareScale(a, nil, b)
	for _, scale := range []heatmap.Scale{{}, {Kind: heatmap.ScaleLog}} {
		if scale.Fit(a) != scale.Fit(b) {
			t.Errorf("%v: mappings %+v and %+v differ", scale, scale.Fit(a), scale.Fit(b))
		}
	}
	if a.Max != 40 || a.MinPositive != 0.5 {
		t.Errorf("extremes %v, %v; want 40, 0.5", a.Max, a.MinPositive)
	}
}
