package tui

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
func (prefixPane) help(s *shared) help.KeyMap { return heatHelp{s.keys, s.panes} }

func (prefixPane) lines(f *frame, r rect, focused bool) []string       { return f.prefixLines(r, focused) }
func (prefixPane) details(f *frame, r rect) []string                   { return f.bucketDetails(r) }
func (prefixPane) key(f *frame, s *ViewState, msg fmt.Stringer) Action { return f.heatKey(s, msg) }
func (prefixPane) wheel(f *frame, s *ViewState, delta int)             { f.moveBucket(s, delta) }

// click selects the bucket on the clicked line.
func (prefixPane) click(f *frame, s *ViewState, r rect, _, y int) Action {
	if f.matrix == nil {
		return nil
	}
	first := scrollStart(s.Selected, len(f.matrix.Buckets), listLines(r))
	if i := first + y - r.y - listHeadLines; y >= r.y+listHeadLines && i < len(f.matrix.Buckets) {
		s.Selected = i
	}
	return nil
}

// listHeadLines are a list pane's title and column heads.
const listHeadLines = 2

// listLines is how many list lines a list pane in r shows.
func listLines(r rect) int { return max(r.h-listHeadLines, 1) }

// prefixLines draws the prefix table: the heatmap's buckets as lines of
// numbers with a bar of the metric.
func (f *frame) prefixLines(r rect, focused bool) []string {
	st := &f.styles
	title, right := "Prefixes · "+f.metricDescription(), ""
	if f.matrix != nil {
		right = bucketCount(f.matrix, title, r.w)
	}
	lines := []string{paneTitle(st, title, right, r.w, focused)}
	if f.matrix == nil {
		return append(lines, "", " "+st.Muted.Render(f.emptyText()))
	}
	columns := f.prefixColumns()
	numbers := 0
	for _, c := range columns {
		numbers += c.width
	}
	bar := min(max(r.w-2-minLabelColumn-numbers-2, 0), maxBarColumn)
	if bar < minBarColumn {
		bar = 0
	}
	labelWidth := r.w - 2 - numbers - bar - 1
	head := "  " + padRight("key bucket", labelWidth)
	for _, c := range columns {
		head += padLeft(c.head, c.width)
	}
	lines = append(lines, st.Muted.Render(fitLine(head, r.w)))

	values := make([]float64, len(f.matrix.Buckets))
	top := 0.0
	for i := range f.matrix.Buckets {
		values[i] = f.matrix.BucketTotal(i)
		top = max(top, values[i])
	}
	labels := f.matrix.FitLabels(labelWidth)
	visible := listLines(r)
	first := scrollStart(f.state.Selected, len(f.matrix.Buckets), visible)
	for i := first; i < len(f.matrix.Buckets) && i < first+visible; i++ {
		b := &f.matrix.Buckets[i]
		text := padRight(labels[i], labelWidth)
		for _, c := range columns {
			text += padLeft(c.value(b), c.width)
		}
		barText := ""
		if bar > 0 {
			barText = " " + units.Bar(values[i]/top, bar) // 0/0 (an empty view) is NaN: an empty bar
		}
		lines = append(lines, f.listLine(i == f.state.Selected, focused, text, barText, r.w))
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

// scrollStart returns the first visible item of a list of n items shown
// visible at a time, keeping selected in view and roughly centred.
func scrollStart(selected, n, visible int) int {
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
func (f *frame) prefixColumns() []prefixColumn {
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
	if f.snap != nil && f.state.Metric == heatmap.MetricCPU {
		cpu := func(b *heatmap.Bucket) float64 { return b.CPU }
		total := 0.0
		if f.snap.Root != nil && f.snap.Root.CPU != nil {
			total = f.snap.Root.CPU.Total()
		}
		minutes := 1.0
		if first, last, micros := f.snap.CPUSpan(); last > first {
			minutes = float64(last-first) * float64(micros) / 60e6
		}
		columns := []prefixColumn{
			{"cpu", numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitPercent.Format(b.CPU / minutes) }},
			shareOf(cpu, total),
		}
		if f.snap.Totals().Rows > 0 {
			rows := func(b *heatmap.Bucket) float64 { return b.Stats.Rows }
			columns = append(columns, count("rows", rows), size("bytes", func(b *heatmap.Bucket) float64 { return b.Stats.Bytes }))
		}
		return columns
	}
	if f.snap != nil && f.state.Metric.FromTraffic(f.snap) {
		ops := func(b *heatmap.Bucket) float64 { return b.Traffic.Ops }
		columns := []prefixColumn{
			count("ops", ops), shareOf(ops, f.snap.TrafficTotals().Ops),
			count("reads", func(b *heatmap.Bucket) float64 { return b.Traffic.RowsRead }),
			size("read", func(b *heatmap.Bucket) float64 { return b.Traffic.BytesRead }),
			count("writes", func(b *heatmap.Bucket) float64 { return b.Traffic.RowsWritten }),
			size("written", func(b *heatmap.Bucket) float64 { return b.Traffic.BytesWritten }),
		}
		if f.state.Metric.Latency() {
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
		count("rows", rows), shareOf(rows, f.snap.Totals().Rows),
		size("bytes", func(b *heatmap.Bucket) float64 { return b.Stats.Bytes }),
		count("cells", func(b *heatmap.Bucket) float64 { return b.Stats.Cells }),
		size("max row", func(b *heatmap.Bucket) float64 { return float64(b.Stats.MaxRowBytes) }),
		{"versions", numberColumn, func(b *heatmap.Bucket) string { return heatmap.UnitRatio.Format(b.Stats.VersionsPerColumn()) }},
	}
}
