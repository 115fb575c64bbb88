package render

import "github.com/btviz/btviz/internal/heatmap"

// HitArea says which part of a text heatmap a cell lies in.
type HitArea uint8

const (
	// HitNone is outside every part that maps to data.
	HitNone HitArea = iota
	// HitHeat is a heat cell: a bucket and a column.
	HitHeat
	// HitLabel is the key-label gutter: a bucket.
	HitLabel
	// HitAxis is the time axis: a column.
	HitAxis
)

// Hit is what [HitTest] finds under a cell. Bucket or Column is −1 when
// the area does not give one (a label has no column, the axis no bucket).
type Hit struct {
	Area   HitArea
	Bucket int
	Column int
}

// HitTest returns what the cell (x, y) of HeatText(m, o) shows, for
// mouse clicks. On a line that shows two buckets (half blocks) it returns
// the upper one. It reports false outside the heat area, labels and axis.
func HitTest(m *heatmap.Matrix, o TextOptions, x, y int) (Hit, bool) {
	none := Hit{Bucket: -1, Column: -1}
	if m == nil || x < 0 || y < 0 || x >= o.Width || y >= o.Height {
		return none, false
	}
	l := TextLayout(o, m.Timed())
	column := func() int {
		if x < l.HeatX || x >= l.HeatX+l.HeatWidth {
			return -1
		}
		return l.columnSpans(m.Columns())[x-l.HeatX].lo
	}
	if y >= l.HeatY && y < l.HeatY+l.HeatLines && len(m.Buckets) > 0 {
		color := colored(o.Profile)
		sample := y - l.HeatY
		if color {
			sample *= samplesPerLineColor
		}
		bucket := l.rowSpans(len(m.Buckets), color)[sample].lo
		if x >= l.HeatX {
			return Hit{Area: HitHeat, Bucket: bucket, Column: column()}, true
		}
		if x < l.LabelWidth {
			return Hit{Area: HitLabel, Bucket: bucket, Column: -1}, true
		}
		return none, false
	}
	if (y == l.AxisLine || y == l.TickLabelLine) && y >= 0 && m.Timed() {
		if c := column(); c >= 0 {
			return Hit{Area: HitAxis, Bucket: -1, Column: c}, true
		}
	}
	return none, false
}
