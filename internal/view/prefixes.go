package view

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/units"
)

// Column widths of the prefix table.
const (
	numberColumn   = 9
	shareColumn    = 7
	minLabelColumn = 16
	maxBarColumn   = 24
	minBarColumn   = 6
)

// prefixPane is the prefix table: the heatmap's buckets as lines of
// numbers, with a bar of the metric.
type prefixPane struct{}

func (prefixPane) id() Pane           { return PanePrefixes }
func (prefixPane) place() placement   { return placeMain }
func (prefixPane) tabStop() bool      { return true }
func (prefixPane) showsBuckets() bool { return true }
func (prefixPane) open() key.Binding {
	return key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "prefix table"))
}
func (prefixPane) help(s *Shared) help.KeyMap { return heatHelp{s.Keys, s.panes} }

func (prefixPane) lines(f *Frame, r Rect, focused bool) []string       { return f.prefixLines(r, focused) }
func (prefixPane) details(f *Frame, r Rect) []string                   { return f.bucketDetails(r) }
func (prefixPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action { return f.heatKey(s, msg) }
func (prefixPane) wheel(f *Frame, s *ViewState, delta int)             { f.moveBucket(s, delta) }

// click selects the bucket on the clicked line.
func (prefixPane) click(f *Frame, s *ViewState, r Rect, _, y int) Action {
	if f.Matrix == nil {
		return nil
	}
	first := ScrollStart(s.Selected, len(f.Matrix.Buckets), listLines(r))
	if i := first + y - r.Y - listHeadLines; y >= r.Y+listHeadLines && i < len(f.Matrix.Buckets) {
		s.Selected = i
	}
	return nil
}

// listHeadLines are a list pane's title and column heads.
const listHeadLines = 2

// listLines is how many list lines a list pane in r shows.
func listLines(r Rect) int { return max(r.H-listHeadLines, 1) }

// prefixLines draws the prefix table: the heatmap's buckets as lines of
// numbers with a bar of the metric.
func (f *Frame) prefixLines(r Rect, focused bool) []string {
	st := &f.Styles
	title, right := "Prefixes · "+f.metricDescription(), ""
	if f.Matrix != nil {
		right = bucketCount(f.Matrix, title, r.W)
	}
	lines := []string{paneTitle(st, title, right, r.W, focused)}
	if f.Matrix == nil {
		return append(lines, "", " "+st.Muted.Render(f.emptyText()))
	}
	columns := f.prefixColumns()
	numbers := 0
	for _, c := range columns {
		numbers += c.width
	}
	bar := min(max(r.W-2-minLabelColumn-numbers-2, 0), maxBarColumn)
	if bar < minBarColumn {
		bar = 0
	}
	labelWidth := r.W - 2 - numbers - bar - 1
	head := "  " + padRight("key bucket", labelWidth)
	for _, c := range columns {
		head += padLeft(c.head, c.width)
	}
	lines = append(lines, st.Muted.Render(fitLine(head, r.W)))

	values := make([]float64, len(f.Matrix.Buckets))
	top := 0.0
	for i := range f.Matrix.Buckets {
		values[i] = f.Matrix.BucketTotal(i)
		top = max(top, values[i])
	}
	labels := f.Matrix.FitLabels(labelWidth)
	visible := listLines(r)
	first := ScrollStart(f.State.Selected, len(f.Matrix.Buckets), visible)
	for i := first; i < len(f.Matrix.Buckets) && i < first+visible; i++ {
		b := &f.Matrix.Buckets[i]
		text := padRight(labels[i], labelWidth)
		for _, c := range columns {
			text += padLeft(c.value(b), c.width)
		}
		barText := ""
		if bar > 0 {
			barText = " " + units.Bar(values[i]/top, bar) // 0/0 (an empty view) is NaN: an empty bar
		}
		lines = append(lines, f.listLine(i == f.State.Selected, focused, text, barText, r.W))
	}
	return lines
}

// listLine draws one list line with the selection marker; selected lines
// are highlighted when their list has the keyboard.
func (f *Frame) listLine(selected, focused bool, text, extra string, width int) string {
	st := &f.Styles
	if !selected {
		return fitLine("  "+st.Text.Render(text)+st.Muted.Render(extra), width)
	}
	marker := st.Cursor.Render("▶ ")
	if !focused {
		return fitLine(marker+st.Strong.Render(text)+st.Muted.Render(extra), width)
	}
	return fitLine(marker+st.Selected.Render(fitLine(text+extra, width-2)), width)
}

// ScrollStart returns the first visible item of a list of n items shown
// visible at a time, keeping selected in view and roughly centred.
func ScrollStart(selected, n, visible int) int {
	if n <= visible {
		return 0
	}
	return min(max(selected-visible/2, 0), n-visible)
}

// prefixColumn is one number column of the prefix table.
type prefixColumn struct {
	head  string
	width int
	value func(b *heatmap.Bucket) string
}

// prefixColumns returns the prefix table's number columns: what a scan
// stored (rows, share, bytes, cells, largest row, versions), or, for a
// metric that reads a traffic recording, what the traffic did
// (operations, share, rows and bytes read and written).
func (f *Frame) prefixColumns() []prefixColumn {
	count := func(head string, v func(b *heatmap.Bucket) float64) prefixColumn {
		return prefixColumn{head, numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitCount.Format(v(b)) }}
	}
	size := func(head string, v func(b *heatmap.Bucket) float64) prefixColumn {
		return prefixColumn{head, numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitBytes.Format(v(b)) }}
	}
	shareOf := func(v func(b *heatmap.Bucket) float64, total float64) prefixColumn {
		return prefixColumn{"share", shareColumn, func(b *heatmap.Bucket) string {
			if total <= 0 {
				return heatmap.UnitShare.Format(0)
			}
			return heatmap.UnitShare.Format(v(b) / total)
		}}
	}
	if f.Snap != nil && f.State.Metric == heatmap.MetricCPU {
		cpu := func(b *heatmap.Bucket) float64 { return b.CPU }
		total := 0.0
		if f.Snap.Root != nil && f.Snap.Root.CPU != nil {
			total = f.Snap.Root.CPU.Total()
		}
		minutes := 1.0
		if first, last, micros := f.Snap.CPUSpan(); last > first {
			minutes = float64(last-first) * float64(micros) / 60e6
		}
		columns := []prefixColumn{
			{"cpu", numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitPercent.Format(b.CPU / minutes) }},
			shareOf(cpu, total),
		}
		if f.Snap.Totals().Rows > 0 {
			rows := func(b *heatmap.Bucket) float64 { return b.Stats.Rows }
			columns = append(columns, count("rows", rows), size("bytes", func(b *heatmap.Bucket) float64 { return b.Stats.Bytes }))
		}
		return columns
	}
	if f.Snap != nil && f.State.Metric.FromTraffic(f.Snap) {
		ops := func(b *heatmap.Bucket) float64 { return b.Traffic.Ops }
		columns := []prefixColumn{
			count("ops", ops), shareOf(ops, f.Snap.TrafficTotals().Ops),
			count("reads", func(b *heatmap.Bucket) float64 { return b.Traffic.RowsRead }),
			size("read", func(b *heatmap.Bucket) float64 { return b.Traffic.BytesRead }),
			count("writes", func(b *heatmap.Bucket) float64 { return b.Traffic.RowsWritten }),
			size("written", func(b *heatmap.Bucket) float64 { return b.Traffic.BytesWritten }),
		}
		if f.State.Metric.Latency() {
			latency := func(head string, v func(b *heatmap.Bucket) time.Duration) prefixColumn {
				return prefixColumn{head, numberColumn, func(b *heatmap.Bucket) string {
					if b.Latency.Empty() {
						return "–"
					}
					return units.Latency(v(b))
				}}
			}
			columns = append(columns[:2],
				latency("median", func(b *heatmap.Bucket) time.Duration { return b.Latency.Median() }),
				latency("max", func(b *heatmap.Bucket) time.Duration { return b.Latency.Max() }),
				count("calls", func(b *heatmap.Bucket) float64 { return b.Latency.Count() }))
		}
		return columns
	}
	rows := func(b *heatmap.Bucket) float64 { return b.Stats.Rows }
	return []prefixColumn{
		count("rows", rows), shareOf(rows, f.Snap.Totals().Rows),
		size("bytes", func(b *heatmap.Bucket) float64 { return b.Stats.Bytes }),
		count("cells", func(b *heatmap.Bucket) float64 { return b.Stats.Cells }),
		size("max row", func(b *heatmap.Bucket) float64 { return float64(b.Stats.MaxRowBytes) }),
		{"versions", numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitRatio.Format(b.Stats.VersionsPerColumn()) }},
	}
}
