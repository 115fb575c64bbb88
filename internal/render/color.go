package render

import (
	"fmt"
	"image/color"

	"github.com/charmbracelet/x/ansi"
)

// faintMix is how much of the foreground a faint (SGR 2) glyph keeps; the
// rest is the cell's background.
const faintMix = 0.5

// Shade coverages of ░ ▒ ▓ (U+2591–U+2593): the share of the foreground
// colour blended over the background.
const (
	lightShade  = 0.25
	mediumShade = 0.5
	darkShade   = 0.75
)

// cellColors resolves a cell's colours against the theme: defaults filled
// in, the theme's ANSI palette applied, reverse video swapped and faint text
// dimmed towards the background.
func cellColors(c GridCell, t FrameTheme) (fg, bg color.RGBA) {
	fg = toRGBA(themed(c.Fg, t.Foreground, t))
	bg = toRGBA(themed(c.Bg, t.Background, t))
	if c.Attrs&Reverse != 0 {
		fg, bg = bg, fg
	}
	if c.Attrs&Faint != 0 {
		fg = mix(fg, bg, faintMix)
	}
	return fg, bg
}

// themed returns c, or def when c is nil, mapping the 16 basic colours
// through the theme's overrides.
func themed(c, def color.Color, t FrameTheme) color.Color {
	switch v := c.(type) {
	case nil:
		return def
	case ansi.BasicColor:
		if int(v) < len(t.ANSI) && t.ANSI[v] != nil {
			return t.ANSI[v]
		}
	case ansi.IndexedColor:
		if int(v) < len(t.ANSI) && t.ANSI[v] != nil {
			return t.ANSI[v]
		}
	}
	return c
}

// toRGBA converts any colour to opaque 8-bit RGBA (transparent colours are
// drawn as if over black).
func toRGBA(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// mix returns share of a blended over (1-share) of b.
func mix(a, b color.RGBA, share float64) color.RGBA {
	blend := func(x, y uint8) uint8 {
		return uint8(float64(x)*share + float64(y)*(1-share) + 0.5)
	}
	return color.RGBA{blend(a.R, b.R), blend(a.G, b.G), blend(a.B, b.B), 0xff}
}

// hex formats an opaque colour as #rrggbb.
func hex(c color.RGBA) string {
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}
