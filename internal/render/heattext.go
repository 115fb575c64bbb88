package render

import (
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/charmbracelet/x/ansi"
)

// Marks drawn in the text
const (
	selectedRowMark    = "▶"
	selectedColumnMark = "▲"
	axisLineMark       = "─"
	axisTickMark       = "┬"
	halfBlock          = "▀"
	ellipsis           = "…"
	sgrReset           = "\x1b[m"
)

// HeatText draws the matrix for a terminal: key labels on the left, the
// heat area (two buckets per character cell with colour: "▀" with the
// upper bucket's colour in front and the lower one's behind), the time
// axis and a legend. The result has exactly o.Height lines of exactly
// o.Width cells, joined by "\n", and no escape sequences other than SGR.
// A nil matrix draws an empty frame.
func HeatText(m *heatmap.Matrix, o TextOptions) string {
	if m == nil {
		m = &heatmap.Matrix{}
	}
	l := TextLayout(o, m.Timed())
	if l.Width == 0 || l.Height == 0 {
		return ""
	}
	r := textRenderer{m: m, o: o, l: l, styles: o.Theme.textStyles(o.Profile), ramp: newCellRamp(o.Palette, o.Profile)}
	r.mapping = o.Scale.Fit(m)
	lines := make([]string, l.Height)
	for i := range lines {
		lines[i] = strings.Repeat(" ", l.Width)
	}
	if l.TitleLine >= 0 {
		lines[l.TitleLine] = r.styles.Title.Render(fit(escape.Text(o.Title), l.Width))
	}
	r.heatLines(lines[l.HeatY : l.HeatY+l.HeatLines])
	if l.AxisLine >= 0 {
		ticks := timeTicks(m.Time, float64(l.HeatWidth), 1, o.Location)
		if l.TickLabelLine >= 0 {
			lines[l.AxisLine] = r.tickMarkLine(ticks)
			lines[l.TickLabelLine] = r.tickLabelLine(ticks)
		} else {
			lines[l.AxisLine] = r.tickLabelLine(ticks)
		}
	}
	if l.LegendLine >= 0 {
		lines[l.LegendLine] = r.legendLine()
	}
	for i, line := range lines {
		if pad := l.Width - ansi.StringWidth(line); pad > 0 {
			lines[i] = line + strings.Repeat(" ", pad)
		}
	}
	return strings.Join(lines, "\n")
}

// textRenderer carries one HeatText call's inputs.
type textRenderer struct {
	m       *heatmap.Matrix
	o       TextOptions
	l       Layout
	styles  textStyles
	ramp    cellRamp
	mapping heatmap.Mapping
}

// fit cuts plain text to width cells with "…" and pads it with spaces to
// exactly width.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, ellipsis)
	}
	if pad := width - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// levels returns the ramp level of every sample of the heat area, row
// by row: the hottest of the buckets and columns each sample covers, so
// that a hot key or moment never disappears when shrunk.
func (r *textRenderer) levels(rows []span) [][]uint8 {
	columns := r.l.columnSpans(r.m.Columns())
	pooled := make([]float64, r.m.Columns())
	out := make([][]uint8, len(rows))
	cells := make([]uint8, len(rows)*r.l.HeatWidth)
	for s, rs := range rows {
		out[s] = cells[s*r.l.HeatWidth : (s+1)*r.l.HeatWidth]
		if len(r.m.Buckets) == 0 {
			continue
		}
		copy(pooled, r.m.Buckets[rs.lo].Values)
		for b := rs.lo + 1; b < rs.hi; b++ {
			for c, v := range r.m.Buckets[b].Values {
				pooled[c] = max(pooled[c], v)
			}
		}
		for x, cs := range columns {
			v := pooled[cs.lo]
			for c := cs.lo + 1; c < cs.hi; c++ {
				v = max(v, pooled[c])
			}
			out[s][x] = uint8(r.ramp.level(r.mapping.Intensity(v)))
		}
	}
	return out
}

// heatLines draws the label gutter, the selection marker and the heat
// cells of every heat line.
func (r *textRenderer) heatLines(lines []string) {
	color := r.ramp.colored
	rows := r.l.rowSpans(len(r.m.Buckets), color)
	levels := r.levels(rows)
	perLine := 1
	if color {
		perLine = samplesPerLineColor
	}
	selected := -1
	if r.o.Selected != nil {
		selected = r.o.Selected.Bucket
	}
	var b strings.Builder
	lastLabelled := -1
	var labels []string
	if r.l.LabelWidth > 0 {
		labels = r.labels()
	}
	for i := range lines {
		b.Reset()
		upper := rows[i*perLine]
		lower := rows[i*perLine+perLine-1]
		isSelected := selected >= upper.lo && selected < lower.hi && len(r.m.Buckets) > 0
		if r.l.LabelWidth > 0 {
			label := ""
			if upper.lo != lastLabelled && len(r.m.Buckets) > 0 {
				label = labels[upper.lo]
				lastLabelled = upper.lo
			}
			style := r.styles.Label
			if isSelected {
				style = r.styles.Selected
			}
			b.WriteString(style.Render(fit(label, r.l.LabelWidth)))
		}
		if r.l.MarkerX >= 0 {
			if isSelected {
				b.WriteString(r.styles.Accent.Render(selectedRowMark))
			} else {
				b.WriteByte(' ')
			}
		}
		if color {
			r.writeHalfBlocks(&b, levels[i*2], levels[i*2+1])
		} else {
			for _, level := range levels[i] {
				b.WriteString(shadeChar(int(level)))
			}
		}
		if r.l.MarkX >= 0 {
			b.WriteString(r.markCell(upper.lo, lower.hi))
		}
		lines[i] = b.String()
	}
}

// Marks' brackets in the text
const (
	markTop    = "┐"
	markMiddle = "│"
	markBottom = "┘"
	markSingle = "╴"
)

// markCell draws the marks' column of the heat line showing buckets
// [lo, hi): the bracket of the first mark that covers one of them, and on
// its first line its number and note.
func (r *textRenderer) markCell(lo, hi int) string {
	width := r.l.MarkWidth
	for _, k := range r.o.Marks {
		if k.Last < lo || k.First >= hi || len(r.m.Buckets) == 0 {
			continue
		}
		first, last := k.First >= lo, k.Last < hi
		glyph, text := markMiddle, ""
		switch {
		case first && last:
			glyph, text = markSingle, k.Text()
		case first:
			glyph, text = markTop, k.Text()
		case last:
			glyph = markBottom
		}
		return r.styles.Accent.Render(fit(glyph+" "+escape.Text(text), width))
	}
	return strings.Repeat(" ", width)
}

// labels writes the buckets' labels for the gutter, with their times
// when the options ask for them.
func (r *textRenderer) labels() []string {
	if r.o.LabelTimes {
		return r.m.TimedLabels(r.l.LabelWidth)
	}
	return r.m.FitLabels(r.l.LabelWidth)
}

// writeHalfBlocks writes one line of "▀" cells, upper samples in front,
// lower behind, with an SGR sequence only where the colours change.
func (r *textRenderer) writeHalfBlocks(b *strings.Builder, upper, lower []uint8) {
	lastUpper, lastLower := -1, -1
	for x := range upper {
		u, d := int(upper[x]), int(lower[x])
		if u != lastUpper || d != lastLower {
			b.WriteString("\x1b[")
			b.WriteString(r.ramp.fg[u])
			b.WriteByte(';')
			b.WriteString(r.ramp.bg[d])
			b.WriteByte('m')
			lastUpper, lastLower = u, d
		}
		b.WriteString(halfBlock)
	}
	if len(upper) > 0 {
		b.WriteString(sgrReset)
	}
}

// gutter returns the blank space left of the heat area.
func (r *textRenderer) gutter() string { return strings.Repeat(" ", r.l.HeatX) }

// selectedColumnX returns the first heat-area cell of the selected time
// column, or −1.
func (r *textRenderer) selectedColumnX() int {
	if r.o.Selected == nil || r.o.Selected.Column < 0 || !r.m.Timed() {
		return -1
	}
	for x, cs := range r.l.columnSpans(r.m.Columns()) {
		if r.o.Selected.Column >= cs.lo && r.o.Selected.Column < cs.hi {
			return x
		}
	}
	return -1
}

// tickMarkLine draws the axis rule with a mark at every tick and at the
// selected column.
func (r *textRenderer) tickMarkLine(ticks []timeTick) string {
	cells := make([]string, r.l.HeatWidth)
	for x := range cells {
		cells[x] = axisLineMark
	}
	for _, t := range ticks {
		cells[tickX(t, r.l.HeatWidth)] = axisTickMark
	}
	selected := r.selectedColumnX()
	var b strings.Builder
	b.WriteString(r.gutter())
	if selected < 0 {
		b.WriteString(r.styles.Axis.Render(strings.Join(cells, "")))
		return b.String()
	}
	b.WriteString(r.styles.Axis.Render(strings.Join(cells[:selected], "")))
	b.WriteString(r.styles.Accent.Render(selectedColumnMark))
	b.WriteString(r.styles.Axis.Render(strings.Join(cells[selected+1:], "")))
	return b.String()
}

// tickLabelLine writes each tick's label from its tick onwards, leaving
// out labels that would run into the previous one or off the end.
func (r *textRenderer) tickLabelLine(ticks []timeTick) string {
	line := []byte(strings.Repeat(" ", r.l.HeatWidth))
	next := 0
	for _, t := range ticks {
		x := tickX(t, r.l.HeatWidth)
		if x < next || x+len(t.label) > len(line) {
			continue
		}
		copy(line[x:], t.label)
		next = x + len(t.label) + 1
	}
	return r.gutter() + r.styles.Axis.Render(string(line))
}

// tickX returns the heat-area cell of a tick.
func tickX(t timeTick, width int) int { return min(int(t.frac*float64(width)), width-1) }
