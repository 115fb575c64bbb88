package render

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strconv"

	"github.com/btviz/btviz/internal/heatmap"
)

// ChartSVG draws the matrix as an SVG document to w: the same figure as
// [ChartImage], heat cells as rects, text in a monospace font-family
// with Go Mono embedded as base64 @font-face rules so it renders the same
// everywhere.
func ChartSVG(w io.Writer, m *heatmap.Matrix, o ImageOptions) error {
	if m == nil {
		return fmt.Errorf("rendering a heatmap SVG: no matrix; build one with Build")
	}
	width, height, err := o.size()
	if err != nil {
		return fmt.Errorf("rendering a heatmap SVG: %w", err)
	}
	c := &svgCanvas{w: bufio.NewWriter(w)}
	c.printf(`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	c.printf("<style>\n")
	for _, f := range embeddedFonts() {
		c.printf("@font-face{font-family:'Go Mono';font-weight:%s;src:url(data:font/ttf;base64,%s) format('truetype')}\n", f.weight, f.base64)
	}
	c.printf("text{font-family:'Go Mono',monospace;white-space:pre}\nrect{shape-rendering:crispEdges}\n</style>\n")
	newFigure(m, o, width, height).draw(c)
	c.printf("</svg>\n")
	if c.err == nil {
		c.err = c.w.Flush()
	}
	if c.err != nil {
		return fmt.Errorf("writing the heatmap SVG: %w", c.err)
	}
	return nil
}

// svgCanvas writes SVG elements, keeping the first write error.
type svgCanvas struct {
	w   *bufio.Writer
	err error
}

func (s *svgCanvas) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

func hexColor(c color.RGBA) string {
	const digits = "0123456789abcdef"
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}

func (s *svgCanvas) fill(x0, y0, x1, y1 int, c color.RGBA) {
	if x1 <= x0 || y1 <= y0 {
		return
	}
	s.printf(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", x0, y0, x1-x0, y1-y0, hexColor(c))
}

func (s *svgCanvas) text(x, y int, str string, size float64, bold bool, c color.RGBA, a anchor) {
	if str == "" {
		return
	}
	attrs := ` font-size="` + strconv.FormatFloat(size, 'f', -1, 64) + `"`
	if bold {
		attrs += ` font-weight="bold"`
	}
	switch a {
	case anchorMiddle:
		attrs += ` text-anchor="middle"`
	case anchorEnd:
		attrs += ` text-anchor="end"`
	}
	s.printf(`<text x="%d" y="%d"%s fill="%s">`, x, y, attrs, hexColor(c))
	if s.err == nil {
		s.err = xml.EscapeText(s.w, []byte(str))
	}
	s.printf("</text>\n")
}
