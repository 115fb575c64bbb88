package render

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// paint is one glyph to draw, with its colours resolved: what both
// renderers need from a [GridCell].
type paint struct {
	col, cells int    // first column and number of columns
	glyph      string // " " for nothing to draw
	fg, bg     color.RGBA
	attrs      Attr
}

// scene is a frame laid out for drawing: the options resolved, the title
// turned into a row of its own, and every cell's colours resolved.
type scene struct {
	m      metrics
	theme  FrameTheme
	cols   int
	size   image.Point // whole image, in pixels
	origin image.Point // top-left corner of rows[0]
	rows   [][]paint   // the title row first, if there is a title
	title  bool        // whether rows[0] is the title
}

// newScene parses the frame and lays it out under opt.
func newScene(frame string, opt FrameOptions) (*scene, error) {
	m, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	grid, err := ParseFrame(frame, opt.Columns, opt.Rows)
	if err != nil {
		return nil, err
	}
	sc := &scene{m: m, theme: opt.theme(), cols: grid.Columns, origin: image.Pt(m.pad, m.pad)}
	if opt.Title != "" {
		row, err := titleRow(opt.Title, grid.Columns, sc.theme)
		if err != nil {
			return nil, err
		}
		sc.rows = append(sc.rows, row)
		sc.title = true
	}
	for y := range grid.Rows {
		sc.rows = append(sc.rows, paintRow(grid, y, sc.theme))
	}
	sc.size = image.Pt(grid.Columns*m.cellW+2*m.pad, len(sc.rows)*m.cellH+2*m.pad)
	return sc, nil
}

// paintRow resolves row y of the grid, skipping the second columns of wide
// glyphs.
func paintRow(g *Grid, y int, t FrameTheme) []paint {
	row := make([]paint, 0, g.Columns)
	for x := range g.Columns {
		c := g.Cell(x, y)
		if c.Width == 0 {
			continue
		}
		fg, bg := cellColors(c, t)
		glyph := c.Glyph
		if c.Attrs&Conceal != 0 {
			glyph = " "
		}
		row = append(row, paint{col: x, cells: c.Width, glyph: glyph, fg: fg, bg: bg, attrs: c.Attrs})
	}
	return row
}

// titleRow lays the title out as a bold row, centred and cut to cols.
func titleRow(title string, cols int, t FrameTheme) ([]paint, error) {
	text := strings.ReplaceAll(FrameText(title), "\n", " ")
	text = ansi.Truncate(strings.TrimSpace(text), cols, "…")
	text = strings.Repeat(" ", max(0, cols-ansi.StringWidth(text))/2) + text
	g, err := ParseFrame(text, cols, 1)
	if err != nil {
		return nil, fmt.Errorf("screenshot: title %q: %w", title, err)
	}
	row := paintRow(g, 0, t)
	fg, bg := toRGBA(t.TitleForeground), toRGBA(t.TitleBackground)
	for i := range row {
		row[i].fg, row[i].bg = fg, bg
		row[i].attrs = Bold
	}
	return row, nil
}

// cellRect returns the pixel rectangle of a paint in row y of the scene.
func (sc *scene) cellRect(y int, p paint) image.Rectangle {
	x0 := sc.origin.X + p.col*sc.m.cellW
	y0 := sc.origin.Y + y*sc.m.cellH
	return image.Rect(x0, y0, x0+p.cells*sc.m.cellW, y0+sc.m.cellH)
}
