package export

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/view"
)

// Frame sizes in terminal cells. The minimum is the TUI's; the maximum is
// what a screenshot can hold (one row goes to the title bar).
const (
	DefaultWidth  = 200
	DefaultHeight = 60
	MinWidth      = view.MinWidth
	MinHeight     = view.MinHeight
	MaxWidth      = render.MaxColumns
	MaxHeight     = render.MaxRows - 1
)

// Options say what [Write] draws: which view of the snapshot, at what
// size and in which theme, and the file format. Make them with
// [ParseOptions] from flags, or fill them in; zero fields take the TUI's
// defaults ([view.PaneHeatmap], [heatmap.MetricWrites],
// [view.DefaultBucketing]) and a
// [DefaultWidth]×[DefaultHeight] dark frame.
type Options struct {
	// Format is the output format; [Write] takes it from the file name
	// when empty.
	Format artifact.Format
	// View is the TUI pane shown (default [view.PaneHeatmap]).
	View view.Pane
	// Prefix restricts the view to the keys that start with it (raw
	// bytes; empty is the whole table).
	Prefix keyspace.Key
	// Metric and Bucketing pick what the heatmap measures and how it cuts
	// the key range; Scale and Palette how values map to colour (linear,
	// viridis by default).
	Metric    heatmap.Metric
	Bucketing heatmap.Bucketing
	Scale     heatmap.ScaleKind
	Palette   render.Palette
	// Width and Height are the frame's size in cells.
	Width, Height int
	// Light draws for a light background instead of a dark one (the
	// default, also for --theme auto: a file has no terminal background
	// to follow).
	Light bool
	// Profile is the colour profile the frame is drawn for; the zero value
	// picks true colour, and [artifact.FormatText] always draws without colour.
	Profile colorprofile.Profile
	// Frame writes the interactive frame (key help, selection and all,
	// what the TUI's screenshot key writes) instead of the chart of the
	// view drawn for a reader.
	Frame bool
	// rows, when set, is the number of key buckets a chart asks for
	// instead of the TUI's at the size.
	rows int
}

// Flags are the raw values of `btviz export`'s flags, as the command line
// gives them; [ParseOptions] checks them.
type Flags struct {
	// Out is the output file; its extension gives the format.
	Out string
	// View, Prefix, Metric, Bucketing, Scale ("linear" or "log"),
	// Palette, Size ("200x60") and Theme ("auto", "dark" or "light") are
	// optional. Prefix may hold \xNN escapes.
	View, Prefix, Metric, Bucketing, Scale, Palette, Size, Theme string
	// Frame asks for the interactive frame instead of a chart.
	Frame bool
}

// ParseOptions checks flags and turns them into [Options]. Each error
// names the flag, what was wrong and the valid values.
func ParseOptions(f Flags) (Options, error) {
	var o Options
	var err error
	if strings.TrimSpace(f.Out) == "" {
		return o, fmt.Errorf("--out is required: name the file to write, ending in %s", artifact.ExtensionList(artifact.Formats()))
	}
	if o.Format, err = artifact.FormatOf(f.Out); err != nil {
		return o, fmt.Errorf("--out: %w", err)
	}
	if f.View != "" {
		if o.View, err = view.ParsePane(f.View); err != nil {
			return o, fmt.Errorf("--view: %w", err)
		}
	}
	if f.Metric != "" {
		if o.Metric, err = heatmap.ParseMetric(f.Metric); err != nil {
			return o, fmt.Errorf("--metric: %w", err)
		}
	}
	if f.Bucketing != "" {
		if o.Bucketing, err = heatmap.ParseBucketing(f.Bucketing); err != nil {
			return o, fmt.Errorf("--bucketing: %w", err)
		}
	}
	if f.Scale != "" {
		if o.Scale, err = heatmap.ParseScale(f.Scale); err != nil {
			return o, fmt.Errorf("--scale: %w", err)
		}
	}
	if f.Palette != "" {
		if o.Palette, err = render.ParsePalette(f.Palette); err != nil {
			return o, fmt.Errorf("--palette: %w", err)
		}
	}
	if f.Prefix != "" {
		prefix, err := keyspace.ParseKey(f.Prefix)
		if err != nil {
			return o, fmt.Errorf("--prefix: %w", err)
		}
		o.Prefix = keyspace.Key(prefix)
	}
	theme, err := view.ParseTheme(strings.ToLower(strings.TrimSpace(f.Theme)))
	if err != nil {
		return o, fmt.Errorf("--theme: %w", err)
	}
	o.Light = theme == view.ThemeLight
	o.Frame = f.Frame
	o.Width, o.Height = DefaultWidth, DefaultHeight
	if f.Size != "" {
		if o.Width, o.Height, err = ParseSize(f.Size); err != nil {
			return o, fmt.Errorf("--size: %w", err)
		}
	}
	if err := o.check(); err != nil {
		return o, fmt.Errorf("--size: %w", err)
	}
	return o.withDefaults(), nil
}

// ParseSize reads a frame size written WIDTHxHEIGHT in cells ("200x60";
// "X" and "×" also separate) and checks it against the bounds.
func ParseSize(s string) (width, height int, err error) {
	clean := strings.ToLower(strings.TrimSpace(s))
	clean = strings.ReplaceAll(clean, "×", "x")
	w, h, ok := strings.Cut(clean, "x")
	if ok {
		width, err = strconv.Atoi(strings.TrimSpace(w))
	}
	if ok && err == nil {
		height, err = strconv.Atoi(strings.TrimSpace(h))
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("size %q: write it as WIDTHxHEIGHT in terminal cells, like %dx%d", s, DefaultWidth, DefaultHeight)
	}
	if err := checkSize(width, height); err != nil {
		return 0, 0, err
	}
	return width, height, nil
}

// checkSize keeps a frame within what the TUI draws and a screenshot
// holds.
func checkSize(width, height int) error {
	if width < MinWidth || height < MinHeight {
		return fmt.Errorf("size %dx%d is below the %dx%d the TUI needs; use at least %dx%d", width, height, MinWidth, MinHeight, MinWidth, MinHeight)
	}
	if width > MaxWidth || height > MaxHeight {
		return fmt.Errorf("size %dx%d is above the %dx%d a screenshot holds; use at most %dx%d", width, height, MaxWidth, MaxHeight, MaxWidth, MaxHeight)
	}
	return nil
}

// check validates the options' size, also against the pixel budget of a
// PNG, and names the settings it finds wrong.
func (o Options) check() error {
	if err := checkSize(o.Width, o.Height); err != nil {
		return err
	}
	if o.Format == artifact.FormatPNG && !pngHolds(o.Width, o.Height) {
		size, _ := pngFrame(o.Width, o.Height).PixelSize()
		tallest, widest := largestPNG(o.Width, o.Height)
		return fmt.Errorf("size %dx%d makes a %dx%d pixel PNG, above the %d megapixels a PNG may have; a .png of %d columns takes at most %d rows (%dx%d), one of %d rows at most %d columns (%dx%d); an .svg, .txt or .ansi takes every size up to %dx%d",
			o.Width, o.Height, size.X, size.Y, render.MaxPixels>>20, o.Width, tallest, o.Width, tallest, o.Height, widest, widest, o.Height, MaxWidth, MaxHeight)
	}
	return nil
}

// SizeLimits says which frame sizes each format takes, for --size's help:
// every format up to [MaxWidth]×[MaxHeight], a PNG up to its pixel budget.
func SizeLimits() string {
	tallest, widest := largestPNG(MaxWidth, MaxHeight)
	return fmt.Sprintf("at least %dx%d, at most %dx%d; a .png at most %d megapixels, e.g. %dx%d or %dx%d",
		MinWidth, MinHeight, MaxWidth, MaxHeight, render.MaxPixels>>20, MaxWidth, tallest, widest, MaxHeight)
}

// pngFrame is a frame of width×height cells as a PNG draws it: with its
// title bar.
func pngFrame(width, height int) artifact.Frame {
	return artifact.Frame{Columns: width, Rows: height, Title: "a title bar"}
}

// pngHolds reports whether a frame of width×height cells fits the pixel
// budget of a PNG ([render.MaxPixels]).
func pngHolds(width, height int) bool {
	size, err := pngFrame(width, height).PixelSize()
	return err == nil && size.X*size.Y <= render.MaxPixels
}

// largestPNG returns the most rows a PNG of width columns holds, and the
// most columns one of height rows holds.
func largestPNG(width, height int) (rows, columns int) {
	rows = sort.Search(MaxHeight+1, func(h int) bool { return !pngHolds(width, h) }) - 1
	columns = sort.Search(MaxWidth+1, func(w int) bool { return !pngHolds(w, height) }) - 1
	return rows, columns
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.View == "" {
		o.View = view.PaneHeatmap
	}
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	return o
}
