package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/report"
)

// DefaultFindingImages is how many findings [ReportImages] draws unless
// told otherwise.
const DefaultFindingImages = 6

// Heatmap matrix sizes for report pictures: about one bucket per 8 pixels
// of height and one time column per 5 pixels of width of a default image.
const (
	reportRows    = render.DefaultImageHeight / 8
	reportColumns = render.DefaultImageWidth / 5
)

// ReportImageOptions set what [ReportImages] draws and how it links it.
type ReportImageOptions struct {
	// MarkdownDir is the directory the Markdown report is written to;
	// links are relative to it (default: the current directory).
	MarkdownDir string
	// Width and Height are each picture's size in pixels (default
	// [render.DefaultImageWidth] × [render.DefaultImageHeight];
	// what-if pictures are twice as wide).
	Width, Height int
	// Light draws on a light background.
	Light bool
	// MaxFindings caps the finding pictures (default
	// [DefaultFindingImages]); negative draws none.
	MaxFindings int
}

// ReportImages draws the heatmaps that help a reviewer read the report of
// in into dir (created if missing), as PNG files, and links them from
// in.Images ([report.Input]) so that [report.Markdown] shows each under
// its section:
//
//   - summary: the whole table's writes by prefix and write time (a hot
//     prefix is a bright band, sequential keys a diagonal);
//   - findings: for each of the worst findings with a place in the key
//     space, its neighbourhood (the finding's prefix among its siblings)
//     in the metric the finding is about, and for sequential-key findings
//     the table in even buckets, where the diagonal shows;
//   - prefixes: each prefix's share of rows;
//   - largest rows: the largest row per key range, when values were read
//     and some row is far above the mean size;
//   - what-if: the table now and after each what-if side by side, on one
//     colour scale.
//
// File names come from the section, the finding's number in the report
// and its kind, never from keys. Each file is written atomically; on an
// error in.Images keeps the pictures written so far.
func ReportImages(dir string, in *report.Input, o ReportImageOptions) error {
	if in == nil || in.Snapshot == nil || in.Snapshot.Root == nil {
		return errors.New("drawing report images: the report has no snapshot; scan the table or load a snapshot first")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return fmt.Errorf("drawing report images into %s: %w; name a directory, which is created if missing", dir, err)
	}
	base, err := filepath.Abs(o.MarkdownDir)
	if err != nil {
		return fmt.Errorf("drawing report images: markdown directory %q: %w", o.MarkdownDir, err)
	}
	if in.Images == nil {
		in.Images = map[report.Section][]report.Image{}
	}
	for _, pic := range plannedPictures(in, o) {
		file := filepath.Join(dir, pic.name)
		if err := atomicfile.Write(file, pic.draw); err != nil {
			return fmt.Errorf("drawing report image %s: %w", pic.name, err)
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return fmt.Errorf("linking report image %s: %w", file, err)
		}
		link, err := filepath.Rel(base, abs)
		if err != nil {
			return fmt.Errorf("linking report image %s from %s: %w", file, base, err)
		}
		in.Images[pic.section] = append(in.Images[pic.section], report.Image{Alt: pic.alt, Path: filepath.ToSlash(link)})
	}
	return nil
}

// picture is one planned report image.
type picture struct {
	section report.Section
	name    string
	alt     string
	draw    func(w io.Writer) error
	// figure, for a picture of one heatmap, builds its matrix and
	// options: what draw draws.
	figure func() (*heatmap.Matrix, render.ImageOptions, error)
}

// plannedPictures lists the pictures of the report, in section order.
func plannedPictures(in *report.Input, o ReportImageOptions) []picture {
	snap := in.Snapshot
	r := pictureRenderer{snap: snap, o: o, findings: in.Findings}
	var pics []picture
	pics = append(pics, r.heatmap(report.SectionSummary, "table-writes.png", "Cells written by key prefix and write time, whole table", "",
		heatmap.View{Node: snap.Root, Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketPrefix}))
	pics = append(pics, r.findingPictures(in.Findings)...)
	pics = append(pics, r.heatmap(report.SectionPrefixes, "prefix-row-share.png", "Share of rows by key prefix", "",
		heatmap.View{Node: snap.Root, Metric: heatmap.MetricShare, Bucketing: heatmap.BucketPrefix}))
	if hasOutlierRow(snap) {
		pics = append(pics, r.heatmap(report.SectionLargestRows, "largest-rows.png", "Largest row by key range", "",
			heatmap.View{Node: snap.Root, Metric: heatmap.MetricMaxRow, Bucketing: heatmap.BucketHeat}))
	}
	for i, w := range in.WhatIfs {
		if w == nil || w.After == nil {
			continue
		}
		label := "what-if " + w.Transform.String()
		pics = append(pics, picture{
			section: report.SectionWhatIf,
			name:    fmt.Sprintf("what-if-%d.png", i+1),
			alt:     "Cells written by key prefix now (left) and after " + label + " (right)",
			draw: func(out io.Writer) error {
				return DiffImage(out, artifact.FormatPNG, snap, w.After, DiffImageOptions{
					Width: 2 * r.width(), Height: r.height(), Light: o.Light, LabelA: "now", LabelB: label,
				})
			},
		})
	}
	return pics
}

// outlierRowFactor is how many times the mean row size the largest row
// must be for the largest-rows picture to show anything but a flat block.
const outlierRowFactor = 10

// hasOutlierRow reports whether values were read and the largest row
// stands out from the mean.
func hasOutlierRow(snap *keyspace.Snapshot) bool {
	totals := snap.Totals()
	if len(snap.Largest) == 0 || !snap.Scan.ValuesRead || totals.Rows == 0 {
		return false
	}
	return float64(snap.Largest[0].Bytes) >= outlierRowFactor*totals.Bytes/totals.Rows
}

// pictureRenderer draws single heatmaps of one snapshot, with the
// report's findings marked on them by their numbers.
type pictureRenderer struct {
	snap     *keyspace.Snapshot
	o        ReportImageOptions
	findings []diagnose.Finding
}

func (r pictureRenderer) width() int {
	if r.o.Width > 0 {
		return r.o.Width
	}
	return render.DefaultImageWidth
}

func (r pictureRenderer) height() int {
	if r.o.Height > 0 {
		return r.o.Height
	}
	return render.DefaultImageHeight
}

// heatmap plans the picture of one view. A title, when set, replaces the
// caption's title, whose metric then leads the subtitle. The report's
// findings are marked on it by their numbers.
func (r pictureRenderer) heatmap(section report.Section, name, alt, title string, v heatmap.View) picture {
	v.Rows, v.Columns = reportRows, reportColumns
	figure := func() (*heatmap.Matrix, render.ImageOptions, error) {
		m, err := heatmap.Build(r.snap, v)
		if err != nil {
			return nil, render.ImageOptions{}, err
		}
		caption := heatmap.Describe(r.snap, m, heatmap.Scale{})
		if title != "" {
			what := strings.TrimPrefix(caption.Title, m.Table+" — ")
			caption.Title, caption.Subtitle = title, what+" · "+caption.Subtitle
		}
		marks := findingMarks(m, r.findings)
		if len(marks) > 0 {
			caption.Subtitle += " · numbers mark the report's findings"
		}
		return m, render.ImageOptions{Width: r.width(), Height: r.height(),
			Theme: render.NewTheme(!r.o.Light), Caption: caption, Marks: marks}, nil
	}
	return picture{section: section, name: name, alt: alt, figure: figure, draw: func(w io.Writer) error {
		m, opts, err := figure()
		if err != nil {
			return err
		}
		return render.ChartPNG(w, m, opts)
	}}
}

// findingPictures plans a picture per finding that has one, worst first
// (the report's order), numbered as the report numbers them, at most
// MaxFindings, without drawing the same view twice.
func (r pictureRenderer) findingPictures(findings []diagnose.Finding) []picture {
	limit := r.o.MaxFindings
	if limit == 0 {
		limit = DefaultFindingImages
	}
	var pics []picture
	seen := map[heatmap.View]bool{}
	for i, f := range findings {
		if len(pics) >= limit {
			break
		}
		v, ok := findingView(r.snap, f)
		if !ok || seen[v] {
			continue
		}
		seen[v] = true
		where := "across the table"
		if f.Prefix != "" {
			where = "at " + f.Prefix.String()
		}
		title := fmt.Sprintf("Finding %d (%s): %s %s", i+1, f.Severity, f.Kind, where)
		alt := fmt.Sprintf("Finding %d: %s %s", i+1, f.Kind, where)
		pics = append(pics, r.heatmap(report.SectionFindings, fmt.Sprintf("finding-%d-%s.png", i+1, artifact.SafeName(string(f.Kind))), alt, title, v))
	}
	return pics
}
