package render

import (
	"math"
	"strings"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/charmbracelet/x/ansi"
)

// Legend sizes in cells.
const (
	minLegendBar = 4
	maxLegendBar = 24
)

// legendCaption says what a cell holds: the metric and, on a time axis,
// the time a column covers.
func legendCaption(m *heatmap.Matrix) string {
	caption := m.Description()
	switch {
	case !m.Timed():
	case m.View.Metric == heatmap.MetricCPU:
		caption += ", mean of the sampled minutes of each " + m.Time.ColumnText()
	case m.View.Metric.Latency():
		caption += " in each " + m.Time.ColumnText()
	default:
		caption += " per " + m.Time.ColumnText()
	}
	return caption
}

// legendEnds returns the labels of the ramp's bottom and top values.
func legendEnds(m *heatmap.Matrix, mapping heatmap.Mapping) (low, high string) {
	ticks := legendTicks(m.View.Metric.Unit(), mapping)
	return ticks[0].label, ticks[len(ticks)-1].label
}

// legendTick is a value written along a legend's ramp: its label and its
// place on the ramp (0 the bottom, 1 the top).
type legendTick struct {
	label string
	at    float64
}

// legendTicks returns the values a legend writes along its ramp: the
// bottom, the top and one between. A count is written whole (a column's
// value is often a fraction of a cell, spread over the columns from the
// snapshot's time grid): the top as the count rounded, the one between
// at a round count placed where it falls on the ramp, and a log scale's
// bottom at one (see [heatmap.Scale.Fit]). Other units are written at the bottom,
// the middle and the top of the ramp.
func legendTicks(unit heatmap.Unit, mapping heatmap.Mapping) []legendTick {
	low := 0.0
	if mapping.Kind == heatmap.ScaleLog {
		low = mapping.Lo
	}
	if unit != heatmap.UnitCount {
		return []legendTick{{unit.Format(low), 0}, {unit.Format(mapping.ValueAt(0.5)), 0.5}, {unit.Format(mapping.Hi), 1}}
	}
	whole := func(v float64) string { return unit.Format(math.Round(v)) }
	ticks := []legendTick{{whole(low), 0}}
	top := legendTick{whole(mapping.Hi), 1}
	if mapping.Hi < 0.5 {
		top.label = "<1"
	}
	if middle := roundCount(mapping.ValueAt(0.5)); middle > math.Round(low) && middle < math.Round(mapping.Hi) {
		if at := mapping.Intensity(middle); at > 0.15 && at < 0.85 {
			ticks = append(ticks, legendTick{unit.Format(middle), at})
		}
	}
	return append(ticks, top)
}

// roundCount rounds a count to a number a legend writes: whole, and to
// one or two leading digits (1, 2, 5, 10, 20, 50, 100, 150, …).
func roundCount(v float64) float64 {
	if v < 1 {
		return 0
	}
	magnitude := math.Pow(10, math.Floor(math.Log10(v)))
	for _, step := range []float64{0.5, 0.25, 0.1} {
		if rounded := math.Round(v/(magnitude*step)) * magnitude * step; rounded >= 1 && rounded == math.Round(rounded) {
			return rounded
		}
	}
	return math.Round(v)
}

// scaleNote names the scale and a brightness other than 1.
func scaleNote(mapping heatmap.Mapping) string {
	return heatmap.Scale{Kind: mapping.Kind, Brightness: mapping.Brightness}.String()
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
