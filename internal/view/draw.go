package view

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// ellipsis marks text cut to fit.
const ellipsis = "…"

// fitLine cuts a (possibly styled) line to width cells with "…" and pads
// it with spaces to exactly width.
func fitLine(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := ansi.StringWidth(s)
	if w > width {
		s = ansi.Truncate(s, width, ellipsis)
		w = ansi.StringWidth(s)
	}
	if w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// block makes lines exactly height lines of exactly width cells: longer
// lines are cut, missing ones blank.
func block(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		out[i] = fitLine(line, width)
	}
	return out
}

// splitLines splits rendered text into its lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// canvas is a screen being assembled: one string per line, each exactly
// the screen's width once every rectangle is painted.
type canvas struct {
	width int
	rows  [][]segment
}

// segment is a piece of a line: a painted rectangle's line at column x.
type segment struct {
	x    int
	text string
}

func newCanvas(width, height int) *canvas {
	return &canvas{width: width, rows: make([][]segment, height)}
}

// paint places lines (each exactly r.w cells) in r.
func (c *canvas) paint(r Rect, lines []string) {
	lines = block(lines, r.W, r.H)
	for i, line := range lines {
		y := r.Y + i
		if y < 0 || y >= len(c.rows) {
			continue
		}
		c.rows[y] = append(c.rows[y], segment{x: r.X, text: line})
	}
}

// String joins the painted segments left to right, filling gaps with
// spaces and cutting each line to the canvas width.
func (c *canvas) String() string {
	var b strings.Builder
	for y, segments := range c.rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		sortSegments(segments)
		var line strings.Builder
		x := 0
		for _, s := range segments {
			if s.x > x {
				line.WriteString(strings.Repeat(" ", s.x-x))
				x = s.x
			}
			if s.x < x {
				continue // overlapping paint: first one wins
			}
			line.WriteString(s.text)
			x += ansi.StringWidth(s.text)
		}
		b.WriteString(fitLine(line.String(), c.width))
	}
	return b.String()
}

func sortSegments(s []segment) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].x < s[j-1].x; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// vrule returns a vertical rule of height lines.
func vrule(style lipgloss.Style, height int) []string {
	lines := make([]string, height)
	for i := range lines {
		lines[i] = style.Render("│")
	}
	return lines
}

// paneTitle draws a pane's title line: the title, then a rule to the
// end; highlighted when the pane has the keyboard.
func paneTitle(st *Styles, title, right string, width int, focused bool) string {
	style := st.PaneTitle
	if focused {
		style = st.PaneTitleFocused
	}
	head := style.Render(" " + title + " ")
	tail := ""
	if right != "" {
		tail = " " + st.Muted.Render(right) + " "
	}
	room := width - lipgloss.Width(head) - lipgloss.Width(tail)
	if room < 2 {
		return fitLine(head, width)
	}
	return head + st.Rule.Render(strings.Repeat("─", room)) + tail
}

// KeyText writes a key escaped by [keyspace.Printable] and cut to width
// cells by [escape.CutKey] (start and end kept, no escape split): the only
// way key bytes reach the screen.
func KeyText(key keyspace.Key, width int) string {
	return escape.CutKey(key.String(), width) // printable ASCII: one byte is one cell
}

// Cut shortens already printable text to width cells with "…".
func Cut(s string, width int) string {
	if width > 0 && ansi.StringWidth(s) > width {
		return ansi.Truncate(s, width, ellipsis)
	}
	return s
}

// RangeText writes [start, end) with printable keys, naming the table's
// ends.
func RangeText(start, end keyspace.Key) string {
	s, e := start.String(), end.String()
	if start == "" {
		s = "(table start)"
	}
	if end == "" {
		e = "(table end)"
	}
	return "[" + s + ", " + e + ")"
}

// padRight pads plain text to width cells (no cutting).
func padRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// padLeft right-aligns plain text in width cells (no cutting).
func padLeft(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return strings.Repeat(" ", width-w) + s
	}
	return s
}

// wrap word-wraps plain text to width cells and returns its lines.
func wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}
