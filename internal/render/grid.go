package render

import (
	"fmt"
	"image/color"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Attr is a set of text attributes of a [GridCell].
type Attr uint8

// The attributes a [GridCell] can carry (SGR 1, 2, 3, 4, 7, 9 and 8).
const (
	Bold Attr = 1 << iota
	Faint
	Italic
	Underline
	Reverse
	Strikethrough
	Conceal
)

// GridCell is one terminal cell of a parsed frame.
type GridCell struct {
	// Glyph is the grapheme cluster shown in the cell: " " for a blank cell
	// and "" for the second column of a wide glyph.
	Glyph string
	// Width is the glyph's width in columns: 1 or 2, or 0 for the second
	// column of a wide glyph.
	Width int
	// Fg and Bg are the colours the frame asked for (an [ansi.BasicColor],
	// [ansi.IndexedColor] or [ansi.RGBColor]); nil means the theme default.
	// The second column of a wide glyph repeats the first column's colours.
	Fg, Bg color.Color
	// Attrs are the cell's text attributes.
	Attrs Attr
}

// Grid is a frame parsed into terminal cells, as a terminal of Columns×Rows
// cells would show it.
type Grid struct {
	// Columns and Rows are the grid's size in cells.
	Columns, Rows int
	cells         []GridCell
}

// ParseFrame reads a rendered frame into a cols×rows [Grid]. A size of 0 is
// inferred from the frame: the widest line (in cells) and the number of
// lines, at least 1 each; a final "\n" does not start a line. Longer lines
// are cut at cols and lines beyond rows dropped; cells the frame does not
// reach are blank with default colours. Escapes are handled as [FrameText]
// describes: only SGR sequences affect cells.
func ParseFrame(frame string, cols, rows int) (*Grid, error) {
	cf := clean(frame, true)
	if cols == 0 {
		cols = max(1, cf.width)
	}
	if rows == 0 {
		rows = max(1, cf.height)
	}
	if cols < 0 || rows < 0 || cols > MaxColumns || rows > MaxRows {
		return nil, fmt.Errorf("screenshot: a %d×%d-cell grid is outside the %d×%d limit; set Options.Columns and Options.Rows to crop the frame", cols, rows, MaxColumns, MaxRows)
	}
	screen := uv.ScreenBuffer{RenderBuffer: uv.NewRenderBuffer(cols, rows), Method: ansi.GraphemeWidth}
	uv.NewStyledString(cf.text).Draw(screen, screen.Bounds())

	g := &Grid{Columns: cols, Rows: rows, cells: make([]GridCell, cols*rows)}
	for y := range rows {
		var lead GridCell
		for x := range cols {
			c := fromUV(screen.CellAt(x, y))
			if c.Width == 0 {
				// Second column of a wide glyph.
				c = GridCell{Fg: lead.Fg, Bg: lead.Bg, Attrs: lead.Attrs}
				if lead.Width < 2 {
					c.Glyph, c.Width = " ", 1
				}
			}
			lead = c
			g.cells[y*cols+x] = c
		}
	}
	return g, nil
}

// fromUV converts an ultraviolet cell. A nil cell, or one whose content is
// not printable, becomes a blank cell.
func fromUV(c *uv.Cell) GridCell {
	if c == nil {
		return GridCell{Glyph: " ", Width: 1}
	}
	out := GridCell{Glyph: printable(c.Content), Width: c.Width, Fg: c.Style.Fg, Bg: c.Style.Bg}
	switch {
	case c.Width == 0 && c.Content == "":
		return out
	case c.Width <= 0 || c.Width > 2 || out.Glyph == "":
		out.Glyph, out.Width = " ", 1
	}
	attrs := c.Style.Attrs
	for _, m := range []struct {
		uv   uint8
		attr Attr
	}{
		{uv.AttrBold, Bold},
		{uv.AttrFaint, Faint},
		{uv.AttrItalic, Italic},
		{uv.AttrReverse, Reverse},
		{uv.AttrStrikethrough, Strikethrough},
		{uv.AttrConceal, Conceal},
	} {
		if attrs&m.uv != 0 {
			out.Attrs |= m.attr
		}
	}
	if c.Style.Underline != uv.UnderlineNone {
		out.Attrs |= Underline
	}
	return out
}

// Cell returns the cell at column x, row y, or a blank cell outside the grid.
func (g *Grid) Cell(x, y int) GridCell {
	if x < 0 || y < 0 || x >= g.Columns || y >= g.Rows {
		return GridCell{Glyph: " ", Width: 1}
	}
	return g.cells[y*g.Columns+x]
}

// Line returns row y as plain text with trailing spaces trimmed: for a
// frame that fits the grid, the same as line y of [FrameText].
func (g *Grid) Line(y int) string {
	if y < 0 || y >= g.Rows {
		return ""
	}
	var b strings.Builder
	for _, c := range g.cells[y*g.Columns : (y+1)*g.Columns] {
		if c.Width > 0 {
			b.WriteString(c.Glyph)
		}
	}
	return strings.TrimRight(b.String(), " ")
}
