// Package artifact owns btviz's review artifacts: the files a person
// attaches to a design review or a pull request — a frame of the
// interactive view as PNG, SVG, plain text or text with colours. The
// TUI's screenshot key and `btviz export` both write through it, so the
// same view on the same snapshot at the same size gives the same bytes:
// one title bar, one set of screenshot options (theme, embedded font),
// one file-naming rule and one atomic write ([atomicfile.Write]).
package artifact

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/units"
)

// Format is an artifact's file format, named by its file extension.
type Format string

// The formats.
const (
	// FormatPNG is a raster screenshot.
	FormatPNG Format = "png"
	// FormatSVG is a vector screenshot whose text is searchable.
	FormatSVG Format = "svg"
	// FormatText is the frame as plain text, drawn for a terminal without
	// colour (heat as the shades " ░▒▓█").
	FormatText Format = "txt"
	// FormatANSI is the frame as text with colour escapes (SGR only), to
	// print with cat in a terminal.
	FormatANSI Format = "ansi"
)

// Formats returns every format, in the order help lists them.
func Formats() []Format { return []Format{FormatPNG, FormatSVG, FormatText, FormatANSI} }

// FormatOf returns the format a file name's extension names. Its error
// lists the supported extensions.
func FormatOf(path string) (Format, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range Formats() {
		if ext == string(f) {
			return f, nil
		}
	}
	if ext == "" {
		return "", fmt.Errorf("output file %q has no extension to tell the format; end it in %s", escape.Text(path), ExtensionList(Formats()))
	}
	return "", fmt.Errorf("output file %q: unsupported format %q; end the file name in %s", escape.Text(path), "."+escape.Text(ext), ExtensionList(Formats()))
}

// IsImage reports whether the format is a picture (PNG or SVG).
func (f Format) IsImage() bool { return f == FormatPNG || f == FormatSVG }

// ImageFormats returns the formats that are pictures ([Format.IsImage]),
// in the order of [Formats].
func ImageFormats() []Format {
	var images []Format
	for _, f := range Formats() {
		if f.IsImage() {
			images = append(images, f)
		}
	}
	return images
}

// ExtensionList writes formats as help texts and errors list them:
// ".png, .svg, .txt or .ansi".
func ExtensionList(formats []Format) string {
	extensions := make([]string, len(formats))
	for i, f := range formats {
		extensions[i] = "." + string(f)
	}
	return units.OrList(extensions)
}

// Frame is one frame of the interactive view to write: the text the TUI
// rendered (with its colour escapes), its size in cells, its theme and
// the title bar images carry (see [Title]).
type Frame struct {
	Text          string
	Columns, Rows int
	Dark          bool
	Title         string
}

// options are the screenshot settings of a frame: its grid, the theme's
// colours, its title, and Go Mono embedded in SVGs so that they look as
// the PNGs do.
func (f Frame) options() render.FrameOptions {
	theme := render.LightFrameTheme()
	if f.Dark {
		theme = render.DarkFrameTheme()
	}
	return render.FrameOptions{Theme: theme, Columns: f.Columns, Rows: f.Rows, EmbedFont: true, Title: f.Title}
}

// PixelSize returns the size of the frame's PNG or SVG in pixels, title
// bar included.
func (f Frame) PixelSize() (image.Point, error) { return f.options().Size(f.Columns, f.Rows) }

// Render writes the frame to w in format.
func Render(w io.Writer, f Frame, format Format) error {
	var err error
	switch format {
	case FormatPNG:
		err = render.FramePNG(w, f.Text, f.options())
	case FormatSVG:
		err = render.FrameSVG(w, f.Text, f.options())
	case FormatText:
		_, err = io.WriteString(w, withNewline(render.FrameText(f.Text)))
	case FormatANSI:
		_, err = io.WriteString(w, withNewline(render.FrameANSI(f.Text)))
	default:
		return fmt.Errorf("unknown format %q; use one of %s", escape.Text(string(format)), ExtensionList(Formats()))
	}
	return err
}

// Write writes the frame to path in format, atomically: a failure leaves
// any file already at path as it was.
func Write(path string, f Frame, format Format) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Render(w, f, format) })
}

// withNewline ends text with exactly one "\n".
func withNewline(text string) string { return strings.TrimRight(text, "\n") + "\n" }

// Title is the title bar of a frame: "btviz — table — what — prefix",
// where what names the view ("heatmap/writes") and prefix, when not
// empty, is the raw key prefix whose rows the view shows. The table name
// is escaped as text ([escape.Text]) and the prefix as a key
// ([escape.Key]), as every output writes them.
func Title(table, what, prefix string) string {
	if table == "" {
		table = "(no table)"
	}
	title := "btviz — " + escape.Text(table) + " — " + what
	if prefix != "" {
		title += " — " + escape.Key(prefix)
	}
	return title
}

// SafeName makes name safe in a file name on any file system: ASCII
// letters, digits, '-', '_' and '.' are kept, every other character
// becomes '_'; an empty name becomes "_".
func SafeName(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if clean == "" || strings.Trim(clean, ".") == "" {
		return "_"
	}
	return clean
}

// Stem returns the file name stem of a screenshot of table taken at t:
// "btviz-<table>-<yyyymmdd-hhmmss>", the table made safe by [SafeName].
func Stem(table string, t time.Time) string {
	return "btviz-" + SafeName(table) + "-" + t.Format("20060102-150405")
}
