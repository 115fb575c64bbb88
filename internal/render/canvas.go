package render

import (
	"image/color"
)

// anchor says where a text's x coordinate lies: its start, middle or end.
type anchor uint8

const (
	anchorStart anchor = iota
	anchorMiddle
	anchorEnd
)

// canvas is what a figure draws on: filled pixel rectangles and one-line
// texts in Go Mono. The raster canvas makes PNGs, the SVG canvas vector
// files; both get the same calls, so both show the same picture.
type canvas interface {
	// fill paints the rectangle [x0, x1) × [y0, y1).
	fill(x0, y0, x1, y1 int, c color.RGBA)
	// text writes s with its baseline at y.
	text(x, y int, s string, size float64, bold bool, c color.RGBA, a anchor)
}

// monoAdvance is Go Mono's advance width in ems (1229 of 2048 units),
// the same for every glyph.
const monoAdvance = 1229.0 / 2048

// charWidth returns the width of one character at size pixels.
func charWidth(size float64) float64 { return size * monoAdvance }

// rgba converts any colour to opaque RGBA.
func rgba(c color.Color) color.RGBA {
	if c == nil {
		return color.RGBA{A: 0xff}
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0xff}
}
