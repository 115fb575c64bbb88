package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"time"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
)

// Side-by-side image defaults: each panel is a default heatmap image, and
// its matrix asks for about one bucket per 6 pixels of height and one
// time column per 4 pixels of width.
const (
	DefaultDiffImageWidth  = 2 * render.DefaultImageWidth
	DefaultDiffImageHeight = render.DefaultImageHeight
	diffRowsPerPixel       = 6
	diffColumnsPerPixel    = 4
)

// DiffImageOptions set how [DiffImage] draws two snapshots side by side.
// The zero value draws writes over time, one row per prefix (the TUI's
// default view), dark, [DefaultDiffImageWidth]×[DefaultDiffImageHeight].
type DiffImageOptions struct {
	// Metric, Bucketing and Scale are the same for both panels (defaults:
	// writes, prefix, linear).
	Metric    heatmap.Metric
	Bucketing heatmap.Bucketing
	Scale     heatmap.Scale
	// Prefix restricts both panels to the keys that start with it.
	Prefix keyspace.Key
	// Width and Height are the whole image's size in pixels; each panel
	// gets half the width.
	Width, Height int
	// Light draws on a light background.
	Light bool
	// LabelA and LabelB title the panels (default "before" and "after").
	LabelA, LabelB string
	// FindingsA and FindingsB are each side's findings, in the order the
	// diff numbers them: each one's key range is marked on its panel.
	FindingsA, FindingsB []diagnose.Finding
}

// DiffImage draws snapshot a (left) and b (right) as two heatmaps side by
// side, with the same metric, bucketing and one colour scale fitted over
// both ([ShareScale]), so that equal brightness is equal load. Each panel
// is a complete heatmap figure ([render.ChartImage]) titled with its
// label, table and metric, with its own key labels and time axis. format
// is [artifact.FormatPNG] or [artifact.FormatSVG].
func DiffImage(w io.Writer, format artifact.Format, a, b *keyspace.Snapshot, o DiffImageOptions) error {
	if !format.IsImage() {
		return fmt.Errorf("drawing a side-by-side heatmap: format %q is not an image; use %s", format, artifact.ExtensionList(artifact.ImageFormats()))
	}
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	left, right, err := sideBySide(a, b, o)
	if err != nil {
		return err
	}
	if format == artifact.FormatSVG {
		return writeSVGPair(w, left, right, o)
	}
	img, err := rasterPair(left, right, o)
	if err != nil {
		return err
	}
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("writing the side-by-side heatmap PNG: %w", err)
	}
	return nil
}

// WriteDiffImage draws [DiffImage] to path, whose extension (.png or
// .svg) picks the format, atomically.
func WriteDiffImage(path string, a, b *keyspace.Snapshot, o DiffImageOptions) error {
	format, err := artifact.FormatOf(path)
	if err != nil {
		return err
	}
	if !format.IsImage() {
		return fmt.Errorf("output file %q: a side-by-side heatmap is an image; end the file name in %s", path, artifact.ExtensionList(artifact.ImageFormats()))
	}
	return atomicfile.Write(path, func(w io.Writer) error { return DiffImage(w, format, a, b, o) })
}

func (o DiffImageOptions) withDefaults() (DiffImageOptions, error) {
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = DefaultDiffImageWidth, DefaultDiffImageHeight
	}
	if o.Width < 2*render.MinImageWidth || o.Height < render.MinImageHeight {
		return o, fmt.Errorf("drawing a side-by-side heatmap of %dx%d pixels: make it at least %dx%d (two panels of %dx%d)",
			o.Width, o.Height, 2*render.MinImageWidth, render.MinImageHeight, render.MinImageWidth, render.MinImageHeight)
	}
	if o.Metric == "" {
		o.Metric = heatmap.MetricWrites
	}
	if o.Bucketing == "" {
		o.Bucketing = heatmap.BucketPrefix
	}
	if o.LabelA == "" {
		o.LabelA = "before"
	}
	if o.LabelB == "" {
		o.LabelB = "after"
	}
	return o, nil
}

// panel is one half of a side-by-side image.
type panel struct {
	matrix *heatmap.Matrix
	opts   render.ImageOptions
}

// sideBySide builds both panels' matrices and figure options, with one
// colour scale.
func sideBySide(a, b *keyspace.Snapshot, o DiffImageOptions) (left, right panel, err error) {
	width := o.Width / 2
	sides := []struct {
		snap     *keyspace.Snapshot
		label    string
		panel    *panel
		findings []diagnose.Finding
	}{{a, o.LabelA, &left, o.FindingsA}, {b, o.LabelB, &right, o.FindingsB}}
	for _, side := range sides {
		if side.snap == nil || side.snap.Root == nil {
			return left, right, fmt.Errorf("drawing a side-by-side heatmap: the %s snapshot is missing or has no prefix tree; load it with keyspace.Load", side.label)
		}
		view := heatmap.View{Metric: o.Metric, Bucketing: o.Bucketing,
			Rows: max(o.Height/diffRowsPerPixel, 1), Columns: max(width/diffColumnsPerPixel, 1)}
		if o.Prefix != "" {
			view = prefixView(side.snap, o.Prefix, view)
		}
		m, err := heatmap.Build(side.snap, view)
		if errors.Is(err, heatmap.ErrNoTablets) {
			return left, right, fmt.Errorf("drawing the %s panel: %w; pick the prefix, even or heat bucketing", side.label, err)
		}
		if err != nil {
			return left, right, fmt.Errorf("drawing the %s panel: %w", side.label, err)
		}
		caption := heatmap.Describe(side.snap, m, o.Scale)
		caption.Title = side.label + " — " + caption.Title
		*side.panel = panel{matrix: m, opts: render.ImageOptions{Width: width, Height: o.Height,
			Theme: render.NewTheme(!o.Light), Scale: o.Scale, Caption: caption, Marks: findingMarks(m, side.findings)}}
	}
	note := "one colour scale for both panels"
	if l, r := left.matrix.Time, right.matrix.Time; left.matrix.Timed() && right.matrix.Timed() && !similar(l.ColumnDuration(), r.ColumnDuration()) {
		note += fmt.Sprintf(", but columns of %s (left) and %s (right): compare shares with the write-share metric",
			l.ColumnText(), r.ColumnText())
	}
	for _, p := range []*panel{&left, &right} {
		p.opts.Caption.Subtitle = note + " · " + p.opts.Caption.Subtitle
	}
	ShareScale(left.matrix, right.matrix)
	return left, right, nil
}

// similar reports whether two durations differ by at most 1%.
func similar(a, b time.Duration) bool {
	return math.Abs(float64(a-b)) <= 0.01*math.Max(float64(a), float64(b))
}

// prefixView points a view at the keys starting with prefix: the tree
// node of that prefix when there is one, else the prefix's key range.
func prefixView(snap *keyspace.Snapshot, prefix keyspace.Key, v heatmap.View) heatmap.View {
	if path := snap.Root.Lookup(string(prefix)); path != nil {
		v.Node = path[len(path)-1]
		return v
	}
	v.Start, v.End = prefix, keyspace.Key(keyspace.PrefixEnd(string(prefix)))
	return v
}

// rasterPair draws both panels into one image with a rule between them.
func rasterPair(left, right panel, o DiffImageOptions) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, o.Width, o.Height))
	theme := render.NewTheme(!o.Light)
	draw.Draw(img, img.Bounds(), image.NewUniform(theme.Background), image.Point{}, draw.Src)
	for i, p := range []panel{left, right} {
		half, err := render.ChartImage(p.matrix, p.opts)
		if err != nil {
			return nil, fmt.Errorf("drawing the side-by-side heatmap: %w", err)
		}
		draw.Draw(img, half.Bounds().Add(image.Pt(i*(o.Width/2), 0)), half, image.Point{}, draw.Src)
	}
	x := o.Width / 2
	draw.Draw(img, image.Rect(x, 0, x+1, o.Height), image.NewUniform(theme.Muted), image.Point{}, draw.Src)
	return img, nil
}

// writeSVGPair writes both panels as one SVG document: each panel's own
// SVG, without its XML declaration, nested in a group moved to its half.
func writeSVGPair(w io.Writer, left, right panel, o DiffImageOptions) error {
	bw := bufio.NewWriter(w)
	theme := render.NewTheme(!o.Light)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n"+
		`<rect width="%d" height="%d" fill="%s"/>`+"\n", o.Width, o.Height, o.Width, o.Height, o.Width, o.Height, hexColor(theme.Background))
	for i, p := range []panel{left, right} {
		var buf bytes.Buffer
		if err := render.ChartSVG(&buf, p.matrix, p.opts); err != nil {
			return fmt.Errorf("drawing the side-by-side heatmap: %w", err)
		}
		doc := buf.Bytes()
		start := bytes.Index(doc, []byte("<svg"))
		if start < 0 {
			return errors.New("drawing the side-by-side heatmap: a panel's SVG has no <svg> element")
		}
		fmt.Fprintf(bw, `<g transform="translate(%d 0)">`+"\n", i*(o.Width/2))
		bw.Write(doc[start:])
		bw.WriteString("</g>\n")
	}
	fmt.Fprintf(bw, `<rect x="%d" y="0" width="1" height="%d" fill="%s"/>`+"\n</svg>\n", o.Width/2, o.Height, hexColor(theme.Muted))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the side-by-side heatmap SVG: %w", err)
	}
	return nil
}

// hexColor writes a colour as #rrggbb.
func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
