package render

import (
	"fmt"
	"image"
	"image/color"
)

// Default cell geometry, in pixels at [FrameOptions.Scale] 1. Go Mono's advance is
// 0.6 em, so a 15 px font fills a 9 px column exactly and a 200-column frame is
// 1800 px wide.
const (
	DefaultCellWidth  = 9
	DefaultCellHeight = 18
	DefaultFontSize   = 15.0
)

// Limits that keep a hostile or mistaken frame from exhausting memory.
const (
	// MaxColumns and MaxRows bound the grid a frame is parsed into.
	MaxColumns = 1000
	MaxRows    = 500
	// MaxScale bounds [FrameOptions.Scale].
	MaxScale = 8
	// MaxCellSize bounds [FrameOptions.CellWidth] and [FrameOptions.CellHeight].
	MaxCellSize = 128
	// MaxPixels bounds the area of a raster screenshot, [FramePNG] and [FrameImage]
	// (about 256 MB of RGBA). An SVG holds no pixels: its size follows
	// its cells, which MaxColumns and MaxRows bound.
	MaxPixels = 64 << 20
)

// FrameTheme holds the colours a frame is drawn with wherever it asks for the
// terminal's defaults. A nil colour falls back to [DarkFrameTheme]'s.
type FrameTheme struct {
	// Foreground is the default text colour (SGR 39).
	Foreground color.Color
	// Background is the default cell colour (SGR 49) and the padding colour.
	Background color.Color
	// TitleForeground and TitleBackground colour the title bar.
	TitleForeground color.Color
	TitleBackground color.Color
	// ANSI overrides the 16 basic colours (SGR 30–37, 90–97 and 256-colour
	// indexes 0–15); a nil entry keeps the xterm colour.
	ANSI [16]color.Color
}

// DarkFrameTheme is the preset for frames rendered for a dark terminal.
func DarkFrameTheme() FrameTheme {
	return FrameTheme{
		Foreground:      color.RGBA{0xe4, 0xe4, 0xe7, 0xff},
		Background:      color.RGBA{0x18, 0x18, 0x1b, 0xff},
		TitleForeground: color.RGBA{0xd4, 0xd4, 0xd8, 0xff},
		TitleBackground: color.RGBA{0x3f, 0x3f, 0x46, 0xff},
	}
}

// LightFrameTheme is the preset for frames rendered for a light terminal.
func LightFrameTheme() FrameTheme {
	return FrameTheme{
		Foreground:      color.RGBA{0x27, 0x27, 0x2a, 0xff},
		Background:      color.RGBA{0xfa, 0xfa, 0xfa, 0xff},
		TitleForeground: color.RGBA{0x27, 0x27, 0x2a, 0xff},
		TitleBackground: color.RGBA{0xe4, 0xe4, 0xe7, 0xff},
	}
}

// FrameOptions controls how [FrameSVG], [FramePNG] and [FrameImage] draw a frame. The zero value
// is valid: dark theme, 9×18 px cells, scale 1, no title, no padding, and a
// grid as large as the frame.
//
// Layout, in pixels: cw = CellWidth×Scale, ch = CellHeight×Scale and
// pad = Padding×Scale. The image is cols×cw + 2×pad wide and
// (rows + t)×ch + 2×pad tall, where t is 1 with a title and 0 without. The
// title bar is one cell row at (pad, pad), as wide as the grid; the grid's
// top-left corner is at (pad, pad + t×ch). [FrameOptions.Size] computes this.
type FrameOptions struct {
	// Theme supplies the default colours.
	Theme FrameTheme
	// Columns and Rows fix the grid size in cells; 0 infers it from the frame
	// (widest line, number of lines). Longer lines are cut, missing cells blank.
	Columns, Rows int
	// CellWidth and CellHeight are one cell's size in pixels at scale 1;
	// 0 means [DefaultCellWidth] and [DefaultCellHeight].
	CellWidth, CellHeight int
	// FontSize is the text size in pixels at scale 1; 0 means
	// CellHeight×5/6 ([DefaultFontSize] for the default cell).
	FontSize float64
	// Scale multiplies every pixel size (1 to [MaxScale]); 0 means 1.
	Scale int
	// Title, if not empty, is drawn bold and centred in a bar above the grid,
	// cut with "…" to the grid's width. Escapes and control bytes are removed.
	Title string
	// Padding is the margin around the title bar and grid, in pixels at
	// scale 1, filled with the theme background.
	Padding int
	// EmbedFont embeds Go Mono (regular and bold, about 340 KB of base64) in
	// the SVG so that text renders as in the PNG; without it the SVG names
	// Go Mono first and falls back to the viewer's monospace font.
	EmbedFont bool
}

// metrics is Options resolved to pixel sizes at the chosen scale.
type metrics struct {
	cellW, cellH int
	pad          int
	fontSize     float64
	scale        int
}

// resolve checks the options and applies the defaults.
func (o FrameOptions) resolve() (metrics, error) {
	if o.Columns < 0 || o.Rows < 0 || o.Columns > MaxColumns || o.Rows > MaxRows {
		return metrics{}, fmt.Errorf("screenshot: grid %d×%d is outside 0…%d columns and 0…%d rows", o.Columns, o.Rows, MaxColumns, MaxRows)
	}
	if o.Scale < 0 || o.Scale > MaxScale {
		return metrics{}, fmt.Errorf("screenshot: scale %d is outside 1…%d", o.Scale, MaxScale)
	}
	if o.CellWidth < 0 || o.CellHeight < 0 || o.CellWidth > MaxCellSize || o.CellHeight > MaxCellSize {
		return metrics{}, fmt.Errorf("screenshot: cell %d×%d px is outside 1…%d px", o.CellWidth, o.CellHeight, MaxCellSize)
	}
	if o.Padding < 0 || o.Padding > 16*MaxCellSize {
		return metrics{}, fmt.Errorf("screenshot: padding %d px is outside 0…%d px", o.Padding, 16*MaxCellSize)
	}
	if o.FontSize < 0 || o.FontSize > MaxCellSize {
		return metrics{}, fmt.Errorf("screenshot: font size %g px is outside 1…%d px", o.FontSize, MaxCellSize)
	}
	m := metrics{cellW: o.CellWidth, cellH: o.CellHeight, scale: o.Scale, fontSize: o.FontSize}
	if m.cellW == 0 {
		m.cellW = DefaultCellWidth
	}
	if m.cellH == 0 {
		m.cellH = DefaultCellHeight
	}
	if m.scale == 0 {
		m.scale = 1
	}
	if m.fontSize == 0 {
		m.fontSize = float64(m.cellH) * 5 / 6
	}
	m.cellW *= m.scale
	m.cellH *= m.scale
	m.fontSize *= float64(m.scale)
	m.pad = o.Padding * m.scale
	return m, nil
}

// Size returns the pixel size of a screenshot of a cols×rows grid under these
// options, following the layout documented on [FrameOptions].
func (o FrameOptions) Size(cols, rows int) (image.Point, error) {
	m, err := o.resolve()
	if err != nil {
		return image.Point{}, err
	}
	if o.Title != "" {
		rows++
	}
	return image.Pt(cols*m.cellW+2*m.pad, rows*m.cellH+2*m.pad), nil
}

// theme returns the theme with nil colours replaced by the dark preset's.
func (o FrameOptions) theme() FrameTheme {
	t, dark := o.Theme, DarkFrameTheme()
	if t.Foreground == nil {
		t.Foreground = dark.Foreground
	}
	if t.Background == nil {
		t.Background = dark.Background
	}
	if t.TitleForeground == nil {
		t.TitleForeground = dark.TitleForeground
	}
	if t.TitleBackground == nil {
		t.TitleBackground = dark.TitleBackground
	}
	return t
}
