package render

import (
	"time"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/charmbracelet/x/ansi"

	"github.com/charmbracelet/colorprofile"
)

// TextOptions set how [HeatText] draws a matrix. The zero value of each
// field picks a default, except Width and Height.
type TextOptions struct {
	// Width and Height are the exact size of the output in cells.
	Width, Height int
	// Profile is the terminal's colour profile; with NoTTY, ASCII or
	// Unknown (NO_COLOR, a pipe) intensity is drawn with the characters
	// " ░▒▓█", one key bucket per line.
	Profile colorprofile.Profile
	Theme   Theme
	Palette Palette
	Scale   heatmap.Scale
	// Title, when set and there is room, takes the first line.
	Title string
	// Selected marks a bucket (and a time column, unless Column < 0).
	Selected *Cell
	// Location is the time zone of the time axis (default UTC).
	Location *time.Location
	// LabelTimes writes the time a label's key holds beside it
	// ([TimedLabel]).
	LabelTimes bool
	// Marks point at key ranges (a finding's): a bracket right of the
	// heat area beside the lines of the buckets each covers, with its
	// number and note on its first line ([Mark]).
	Marks []Mark
}

// Cell addresses one value of a [heatmap.Matrix]: a bucket and a column. Column
// −1 stands for the whole bucket.
type Cell struct {
	Bucket, Column int
}

// Minimum sizes below which parts of the text heatmap are left out.
const (
	minWidthForLabels   = 24
	minLabelWidth       = 8
	maxLabelWidth       = 32
	minHeightForLegend  = 4
	minHeightForAxis    = 6 // tick labels only
	minHeightForTicks   = 9 // tick marks and labels
	minHeightForTitle   = 8
	gutterMarkerWidth   = 1
	minWidthForMarks    = 40
	maxMarkWidth        = 44
	labelWidthDivisor   = 4
	samplesPerLineColor = 2
)

// Layout is where the parts of a text heatmap fall in its frame, in cells
// from the top left (0, 0). Parts left out for lack of room have a
// negative line. The TUI sizes its [heatmap.View] from KeySamples and HeatWidth.
type Layout struct {
	Width, Height int
	// TitleLine, AxisLine (tick marks, or labels when TickLabelLine is
	// −1), TickLabelLine and LegendLine are the lines of those parts.
	TitleLine, AxisLine, TickLabelLine, LegendLine int
	// LabelWidth is the key-label gutter's width (0: no labels), followed
	// by a one-cell selection marker when MarkerX ≥ 0.
	LabelWidth, MarkerX int
	// MarkX is where the marks' column starts, right of the heat area
	// (−1: no marks), and MarkWidth its width.
	MarkX, MarkWidth int
	// HeatX, HeatY, HeatWidth and HeatLines place the heat area.
	HeatX, HeatY, HeatWidth, HeatLines int
	// KeySamples is how many key buckets the heat area shows one by one:
	// two per line with colour (half blocks), one without.
	KeySamples int
}

// TextLayout returns the layout of a Width×Height text heatmap; timed
// says whether the matrix has a time axis to make room for. Build the
// matrix with View.Rows = KeySamples and View.Columns = HeatWidth to get
// one bucket per sample and one time column per cell; other sizes are
// stretched (fewer) or pooled by their maximum (more).
func TextLayout(o TextOptions, timed bool) Layout {
	l := Layout{Width: max(o.Width, 0), Height: max(o.Height, 0), TitleLine: -1, AxisLine: -1, TickLabelLine: -1, LegendLine: -1, MarkerX: -1, MarkX: -1}
	if l.Width == 0 || l.Height == 0 {
		return l
	}
	switch {
	case l.Width >= minWidthForLabels:
		l.LabelWidth = min(max(l.Width/labelWidthDivisor, minLabelWidth), maxLabelWidth)
		l.MarkerX = l.LabelWidth
		l.HeatX = l.LabelWidth + gutterMarkerWidth
	case l.Width >= 2:
		l.MarkerX = 0
		l.HeatX = gutterMarkerWidth
	}
	l.HeatWidth = l.Width - l.HeatX
	if len(o.Marks) > 0 && l.Width >= minWidthForMarks {
		longest := 0
		for _, k := range o.Marks {
			longest = max(longest, ansi.StringWidth(k.Text()))
		}
		l.MarkWidth = min(longest+2, l.Width/3, maxMarkWidth)
		l.HeatWidth -= l.MarkWidth
		l.MarkX = l.HeatX + l.HeatWidth
	}

	lines := l.Height
	top := 0
	if o.Title != "" && lines >= minHeightForTitle {
		l.TitleLine = 0
		top = 1
		lines--
	}
	bottom := l.Height
	if l.Height >= minHeightForLegend {
		bottom--
		l.LegendLine = bottom
		lines--
	}
	if timed && l.Height >= minHeightForTicks {
		l.AxisLine, l.TickLabelLine = bottom-2, bottom-1
		lines -= 2
	} else if timed && l.Height >= minHeightForAxis {
		l.AxisLine = bottom - 1
		lines--
	}
	l.HeatY, l.HeatLines = top, lines
	l.KeySamples = l.HeatLines
	if colored(o.Profile) {
		l.KeySamples *= samplesPerLineColor
	}
	return l
}

// colored reports whether the profile draws colours.
func colored(p colorprofile.Profile) bool { return p > colorprofile.ASCII }

// span is a half-open range of indexes [lo, hi).
type span struct{ lo, hi int }

// spanFor maps slot i of n slots onto items: the items it covers, at
// least one (slots then repeat items when there are fewer items).
func spanFor(i, n, items int) span {
	lo := i * items / n
	hi := max((i+1)*items/n, lo+1)
	return span{lo: min(lo, items-1), hi: min(hi, items)}
}

// rowSpans returns, per sample row of the heat area, the buckets it
// shows. With colour and no more buckets than lines, both halves of a line
// show the same bucket, so buckets keep whole lines and their labels.
func (l Layout) rowSpans(buckets int, color bool) []span {
	samples := l.KeySamples
	spans := make([]span, samples)
	if buckets <= 0 || samples == 0 {
		return spans
	}
	if color && buckets <= l.HeatLines {
		for s := range spans {
			spans[s] = spanFor(s/samplesPerLineColor, l.HeatLines, buckets)
		}
		return spans
	}
	for s := range spans {
		spans[s] = spanFor(s, samples, buckets)
	}
	return spans
}

// columnSpans returns, per cell of the heat area's width, the matrix
// columns it shows.
func (l Layout) columnSpans(columns int) []span {
	spans := make([]span, l.HeatWidth)
	for x := range spans {
		spans[x] = spanFor(x, l.HeatWidth, columns)
	}
	return spans
}
