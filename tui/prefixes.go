package tui

import (
	"fmt"

	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/units"
)

// Column widths of the prefix table.
const (
	numberColumn   = 9
	shareColumn    = 7
	minLabelColumn = 16
	maxBarColumn   = 24
	minBarColumn   = 6
)

// prefixLines draws the prefix table: the heatmap's buckets as lines of
// numbers with a bar of the metric.
func (f *frame) prefixLines(r rect) []string {
	st := &f.styles
	right := ""
	if f.matrix != nil {
		right = fmt.Sprintf("%d buckets", len(f.matrix.Buckets))
	}
	lines := []string{paneTitle(st, "Prefixes · "+f.state.Metric.Description(), right, r.w, f.state.Pane == PanePrefixes)}
	if f.matrix == nil {
		return append(lines, "", " "+st.Muted.Render(f.emptyText()))
	}
	numbers := 5*numberColumn + shareColumn
	bar := min(max(r.w-2-minLabelColumn-numbers-2, 0), maxBarColumn)
	if bar < minBarColumn {
		bar = 0
	}
	labelWidth := r.w - 2 - numbers - bar - 1
	head := "  " + padRight("key bucket", labelWidth) + padLeft("rows", numberColumn) + padLeft("share", shareColumn) +
		padLeft("bytes", numberColumn) + padLeft("cells", numberColumn) + padLeft("max row", numberColumn) + padLeft("versions", numberColumn)
	lines = append(lines, st.Muted.Render(fitLine(head, r.w)))

	values := make([]float64, len(f.matrix.Buckets))
	top := 0.0
	for i := range f.matrix.Buckets {
		values[i] = bucketScalar(f.matrix, i)
		top = max(top, values[i])
	}
	total := f.snap.Totals()
	visible := max(r.h-2, 1)
	first := scrollStart(f.state.Selected, len(f.matrix.Buckets), visible)
	for i := first; i < len(f.matrix.Buckets) && i < first+visible; i++ {
		b := &f.matrix.Buckets[i]
		share := 0.0
		if total.Rows > 0 {
			share = b.Stats.Rows / total.Rows
		}
		label := b.ShortLabel
		if label == "" {
			label = b.Label
		}
		text := padRight(fitLine(label, labelWidth), labelWidth) +
			padLeft(heatmap.UnitCount.Format(b.Stats.Rows), numberColumn) +
			padLeft(heatmap.UnitShare.Format(share), shareColumn) +
			padLeft(heatmap.UnitBytes.Format(b.Stats.Bytes), numberColumn) +
			padLeft(heatmap.UnitCount.Format(b.Stats.Cells), numberColumn) +
			padLeft(heatmap.UnitBytes.Format(float64(b.Stats.MaxRowBytes)), numberColumn) +
			padLeft(heatmap.UnitRatio.Format(b.Stats.VersionsPerColumn()), numberColumn)
		barText := ""
		if bar > 0 {
			barText = " " + units.Bar(values[i]/top, bar) // 0/0 (an empty view) is NaN: an empty bar
		}
		lines = append(lines, f.listLine(i == f.state.Selected, f.state.Pane == PanePrefixes, text, barText, r.w))
	}
	return lines
}

// listLine draws one list line with the selection marker; selected lines
// are highlighted when their list has the keyboard.
func (f *frame) listLine(selected, focused bool, text, extra string, width int) string {
	st := &f.styles
	if !selected {
		return fitLine("  "+st.Text.Render(text)+st.Muted.Render(extra), width)
	}
	marker := st.Cursor.Render("▶ ")
	if !focused {
		return fitLine(marker+st.Strong.Render(text)+st.Muted.Render(extra), width)
	}
	return fitLine(marker+st.Selected.Render(fitLine(text+extra, width-2)), width)
}

// bucketScalar is a bucket's value summed over its time columns (or its
// single value).
func bucketScalar(m *heatmap.Matrix, i int) float64 {
	if !m.Timed() {
		return m.Value(i, 0)
	}
	sum := 0.0
	for _, v := range m.Buckets[i].Values {
		sum += v
	}
	if m.View.Metric == heatmap.MetricWriteShare {
		return sum / float64(max(len(m.Buckets[i].Values), 1))
	}
	return sum
}

// scrollStart returns the first visible item of a list of n items shown
// visible at a time, keeping selected in view and roughly centred.
func scrollStart(selected, n, visible int) int {
	if n <= visible {
		return 0
	}
	return min(max(selected-visible/2, 0), n-visible)
}
