package view

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/units"
)

// Progress bar sizes: the bar is dropped when fewer than minProgressBar
// cells would be left for it, and never grows past maxProgressBar.
const (
	minProgressBar = 8
	maxProgressBar = 40
)

// progressStyle colours the parts of a progress line; a nil function
// writes its part plain.
type progressStyle struct {
	label, bar, rest func(...string) string
}

// paint applies style f to s, or returns s when f is nil.
func paint(f func(...string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// progressText draws "label ▕bar▏ 41% · stat · stat" in at most width
// cells: btviz's one progress line, in the status line and on a headless
// command's terminal alike. The bar goes when it would be narrower than
// [minProgressBar] cells; what does not fit is cut with "…".
func progressText(label string, done float64, stats []string, width int, st progressStyle) string {
	label = escape.Text(label)
	tail := fmt.Sprintf(" %3.0f%%", min(max(done, 0), 1)*100)
	if len(stats) > 0 {
		tail += " · " + strings.Join(stats, " · ")
	}
	cells := min(width-ansi.StringWidth(label)-ansi.StringWidth(tail)-3, maxProgressBar)
	if cells < minProgressBar {
		return ansi.Truncate(paint(st.label, label)+paint(st.rest, tail), width, ellipsis)
	}
	return paint(st.label, label) + " " + paint(st.rest, "▕") + paint(st.bar, units.Bar(done, cells)) + paint(st.rest, "▏"+tail)
}

// scanLabel names what a scan does: "scanning", "sampling 5% of spans".
func scanLabel(p source.Progress) string {
	if !p.Mode.IsSample() {
		return "scanning"
	}
	label := "sampling"
	if p.Fraction > 0 && p.Fraction < 1 {
		label += " " + units.Percent(p.Fraction)
	}
	if p.Method == keyspace.MethodSpans {
		label += " of spans"
	}
	return label
}

// scanStats lists a running scan's counters: ranges, rows (of the
// planned rows when planned is not -1), rate, time left and rescans.
func scanStats(p source.Progress, planned int64) []string {
	rows := units.Short(float64(p.RowsRead))
	if planned >= 0 {
		rows += " of ~" + units.Short(float64(planned))
	}
	rows += " rows"
	stats := []string{
		fmt.Sprintf("%d/%d ranges", p.RangesDone, p.RangesTotal),
		rows,
		units.Short(p.RowsPerSecond) + " rows/s",
	}
	if p.ETA > 0 {
		stats = append(stats, units.Duration(p.ETA)+" left")
	}
	if p.Rescans > 0 {
		stats = append(stats, fmt.Sprintf("%d re-read", p.Rescans))
	}
	return stats
}

// ProgressLine renders a scan's progress as one plain line of at most
// width cells, for a headless command's terminal:
//
//	sampling 5% ▕██████▌      ▏  41% · 12/30 ranges · 1.23M rows · 180K rows/s · 13s left
//
// and, for the final event, what the scan read. It holds no control
// characters and no key bytes; the interactive status line draws the
// same line in colour.
func ProgressLine(p source.Progress, width int) string {
	if !p.Final {
		return progressText(scanLabel(p), p.Done, scanStats(p, -1), width, progressStyle{})
	}
	label := strings.Replace(scanLabel(p), "ing", "ed", 1)
	stats := []string{
		fmt.Sprintf("%d/%d ranges", p.RangesDone, p.RangesTotal),
		units.Short(float64(p.RowsRead)) + " rows",
		units.Bytes(float64(p.BytesRead)),
		"in " + units.Duration(p.Elapsed),
	}
	if p.Rescans > 0 {
		stats = append(stats, fmt.Sprintf("%d re-read in full", p.Rescans))
	}
	return ansi.Truncate(label+"  "+strings.Join(stats, " · "), width, ellipsis)
}
