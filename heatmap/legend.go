package heatmap

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Legend sizes in cells.
const (
	minLegendBar = 4
	maxLegendBar = 24
)

// legendCaption says what a cell holds: the metric and, on a time axis,
// the time a column covers.
func legendCaption(m *Matrix) string {
	caption := m.Description()
	if m.Timed() {
		caption += " per " + m.Time.ColumnText()
	}
	return caption
}

// legendEnds returns the labels of the ramp's bottom and top values.
func legendEnds(m *Matrix, mapping Mapping) (low, high string) {
	unit := m.View.Metric.Unit()
	low = "0"
	if mapping.Kind == ScaleLog {
		low = unit.Format(mapping.Lo)
	}
	return low, unit.Format(mapping.Hi)
}

// scaleNote names the scale and a brightness other than 1.
func scaleNote(mapping Mapping) string {
	return Scale{Kind: mapping.Kind, Brightness: mapping.Brightness}.String()
}

// legendLine draws "caption  low ▕ramp▏ high  scale · start", dropping
// the start time, the scale note and the caption in turn when the width
// is short.
func (r *textRenderer) legendLine() string {
	width := r.l.Width
	caption := legendCaption(r.m)
	low, high := legendEnds(r.m, r.mapping)
	note := scaleNote(r.mapping)
	start := ""
	if r.m.Timed() {
		start = r.m.Time.Start.In(locationOr(r.o.Location)).Format("2006-01-02 15:04 MST")
	}
	parts := func() (head, tail string) {
		head = low + " "
		if caption != "" {
			head = caption + "  " + head
		}
		tail = " " + high
		if note != "" {
			tail += "  " + note
		}
		if start != "" {
			tail += " · " + start
		}
		return head, tail
	}
	room := func() int {
		head, tail := parts()
		return width - ansi.StringWidth(head) - ansi.StringWidth(tail)
	}
	for _, drop := range []*string{&start, &note, &caption} {
		if room() >= minLegendBar {
			break
		}
		*drop = ""
	}
	head, tail := parts()
	bar := min(room(), maxLegendBar)
	if bar < minLegendBar {
		return r.styles.Legend.Render(fit(low+"–"+high, width))
	}
	return r.styles.Legend.Render(head) + r.legendRamp(bar) +
		r.styles.Legend.Render(fit(tail, width-ansi.StringWidth(head)-bar))
}

// legendRamp draws width cells running through the ramp from its first
// visible step to its top.
func (r *textRenderer) legendRamp(width int) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	steps := r.ramp.levels() - 1
	for x := range width {
		level := 1 + x*steps/width
		if x == width-1 {
			level = steps
		}
		if r.ramp.colored {
			b.WriteString("\x1b[" + r.ramp.bg[level] + "m ")
		} else {
			b.WriteString(shadeChar(level))
		}
	}
	if r.ramp.colored {
		b.WriteString(sgrReset)
	}
	return b.String()
}
