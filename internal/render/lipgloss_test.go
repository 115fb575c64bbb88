package render

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestLipglossRoundTrip renders a panel the way the TUI does (a rounded
// border, bold coloured text, a row of half blocks) and checks that every
// output reproduces it: the grid's glyphs and colours, the plain text, the
// PNG's pixels and the SVG's text.
func TestLipglossRoundTrip(t *testing.T) {
	border := lipgloss.Color("#7D56F4")
	text := lipgloss.Color("#FF5F87")
	top, bottom := lipgloss.Color("#00FF00"), lipgloss.Color("#0000FF")
	halves := strings.Repeat(lipgloss.NewStyle().Foreground(top).Background(bottom).Render("▀"), 5)
	body := lipgloss.JoinVertical(lipgloss.Left,
		lipgloss.NewStyle().Bold(true).Foreground(text).Render("hot: user#42"),
		halves,
	)
	frame := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(border).Padding(0, 1).Render(body)

	g, err := ParseFrame(frame, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Columns != lipgloss.Width(frame) || g.Rows != lipgloss.Height(frame) {
		t.Fatalf("grid %d×%d, lipgloss says %d×%d", g.Columns, g.Rows, lipgloss.Width(frame), lipgloss.Height(frame))
	}
	check := func(x, y int, glyph string, fg, bg color.Color, attrs Attr) {
		t.Helper()
		c := g.Cell(x, y)
		if c.Glyph != glyph || !sameColor(c.Fg, fg) || !sameColor(c.Bg, bg) || c.Attrs != attrs {
			t.Errorf("cell (%d,%d) = %+v, want %q fg %v bg %v attrs %v", x, y, c, glyph, fg, bg, attrs)
		}
	}
	check(0, 0, "╭", border, nil, 0)
	check(g.Columns-1, g.Rows-1, "╯", border, nil, 0)
	check(2, 1, "h", text, nil, Bold)
	check(2, 2, "▀", top, bottom, 0)

	stripped := strings.Split(ansi.Strip(frame), "\n")
	for y := range g.Rows {
		if got, want := g.Line(y), strings.TrimRight(stripped[y], " "); got != want {
			t.Errorf("line %d = %q, want %q", y, got, want)
		}
	}
	if got, want := FrameText(frame), strings.Join(func() []string {
		for i := range stripped {
			stripped[i] = strings.TrimRight(stripped[i], " ")
		}
		return stripped
	}(), "\n"); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}

	img := decodePNG(t, frame, FrameOptions{})
	cw, ch := DefaultCellWidth, DefaultCellHeight
	half := image.Pt(2*cw+cw/2, 2*ch)
	if got := rgbAt(img, half.X, half.Y+2); got != toRGBA(top) {
		t.Errorf("▀ top half = %v, want %v", got, toRGBA(top))
	}
	if got := rgbAt(img, half.X, half.Y+ch-2); got != toRGBA(bottom) {
		t.Errorf("▀ bottom half = %v, want %v", got, toRGBA(bottom))
	}
	if n := components(img, toRGBA(border), true); n != 1 {
		t.Errorf("the border is %d separate shapes, want 1", n)
	}

	doc := readSVG(t, renderSVG(t, frame, FrameOptions{}))
	for y := range g.Rows {
		if got, want := SVGLine(doc.Rows[y]), g.Line(y); got != want {
			t.Errorf("SVG row %d = %q, want %q", y, got, want)
		}
	}
}
