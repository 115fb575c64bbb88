package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/sampler"
)

// Progress bar sizes in the status line.
const (
	minProgressBar = 10
	maxProgressBar = 40
)

// scanStatus is a scan the program runs or ran: its latest progress and
// how it ended.
type scanStatus struct {
	table string
	// what names the scan in the status line: "scanning", "re-reading
	// [a, b) in full".
	what     string
	running  bool
	progress sampler.Progress
	err      error
	// loading is set while the table waits for the demo to load it; load
	// is that load's progress.
	loading bool
	load    LoadProgress
}

// keyHelp returns the key help of what has the keyboard.
func (f *frame) keyHelp() help.KeyMap {
	switch {
	case f.search != "":
		return searchHelp{f.keys}
	case f.picker != nil:
		return pickerHelp{f.keys}
	case f.state.Pane == PaneFindings:
		return findingsHelp{f.keys}
	case f.state.Pane == PaneRows:
		return rowsHelp{f.keys}
	}
	return heatHelp{f.keys}
}

// helpLines draws the help: one line, or every key when the full help is
// open.
func (f *frame) helpLines(width int) []string {
	h := f.help
	h.SetWidth(width - 1)
	h.ShowAll = f.state.FullHelp
	return prefixLines(" ", splitLines(h.View(f.keyHelp())))
}

// prefixLines puts p before every line.
func prefixLines(p string, lines []string) []string {
	for i := range lines {
		lines[i] = p + lines[i]
	}
	return lines
}

// statusLine draws the status line: the search prompt, a message, the
// running scan's progress, or what the scan read.
func (f *frame) statusLine(width int) string {
	st := &f.styles
	switch {
	case f.search != "":
		return f.search
	case f.message.text != "" && f.message.isErr:
		return " " + st.Error.Render("✗ ") + st.Text.Render(cut(safeText(f.message.text), width-4))
	case f.message.text != "" && f.message.done:
		return " " + st.Good.Render("✓ ") + st.Text.Render(cut(safeText(f.message.text), width-4))
	case f.message.text != "":
		return " " + st.Info.Render("• ") + st.Text.Render(cut(safeText(f.message.text), width-4))
	case f.scan != nil && f.scan.running:
		return f.progressLine(width)
	case f.scan != nil && f.scan.err != nil:
		return " " + st.Error.Render("✗ ") + st.Text.Render(cut(safeText(f.scan.err.Error()), width-4))
	case f.picker != nil:
		return " " + st.Muted.Render(safeText(f.picker.statusText()))
	case f.snap != nil:
		return " " + st.Muted.Render(readSummary(f))
	}
	return ""
}

// readSummary says what the snapshot's scan read.
func readSummary(f *frame) string {
	s := f.snap.Scan
	text := fmt.Sprintf("read %s rows, %s cells in %s", heatmap.UnitCount.Format(float64(s.RowsRead)),
		heatmap.UnitCount.Format(float64(s.CellsRead)), shortDuration(s.Duration.Round(100*time.Millisecond)))
	if s.Mode == "sample" && s.RowsEstimated > 0 {
		text += fmt.Sprintf(" · about %s rows in all", heatmap.UnitCount.Format(float64(s.RowsEstimated)))
	}
	if f.depth > 0 {
		text += " · esc goes back up"
	}
	return text
}

// progressLine draws a running scan: what, a bar, rows, rate and time
// left.
func (f *frame) progressLine(width int) string {
	st := &f.styles
	if f.scan.loading {
		l := f.scan.load
		head := " " + st.Strong.Render(f.scan.what) + " "
		tail := fmt.Sprintf(" %s of %s rows", heatmap.UnitCount.Format(float64(l.RowsWritten)), heatmap.UnitCount.Format(float64(l.RowsTotal)))
		if !l.Started {
			tail = " waiting for its turn"
		}
		bar := min(width-ansi.StringWidth(head)-ansi.StringWidth(tail), maxProgressBar)
		if bar < minProgressBar {
			return fitLine(head+st.Muted.Render(tail), width)
		}
		return head + f.progressBar(bar).ViewAs(l.Share()) + st.Muted.Render(tail)
	}
	p := f.scan.progress
	label := f.scan.what
	if p.Mode == "sample" && p.Fraction > 0 && p.Fraction < 1 {
		label += " (sample " + heatmap.UnitShare.Format(p.Fraction) + ")"
	}
	stats := []string{
		fmt.Sprintf("%d/%d ranges", p.RangesDone, p.RangesTotal),
		heatmap.UnitCount.Format(float64(p.RowsRead)) + " rows",
		heatmap.UnitCount.Format(p.RowsPerSecond) + " rows/s",
	}
	if p.ETA > 0 {
		stats = append(stats, shortDuration(p.ETA.Round(time.Second))+" left")
	}
	stats = append(stats, "x stops")
	tail := " " + strings.Join(stats, " · ")
	head := " " + st.Strong.Render(safeText(label)) + " "
	room := width - ansi.StringWidth(head) - ansi.StringWidth(tail)
	bar := min(room, maxProgressBar)
	if bar < minProgressBar {
		return fitLine(head+st.Muted.Render(fmt.Sprintf("%.0f%%", p.Done*100)+tail), width)
	}
	return head + f.progressBar(bar).ViewAs(p.Done) + st.Muted.Render(tail)
}

// progressBar returns a bubbles progress bar of width cells in the
// theme's colours (plain characters without colour).
func (f *frame) progressBar(width int) progress.Model {
	opts := []progress.Option{progress.WithWidth(width), progress.WithFillCharacters('█', '░')}
	if f.styles.BarFull != nil {
		opts = append(opts, progress.WithColors(f.styles.BarFull))
	}
	bar := progress.New(opts...)
	bar.PercentageStyle = f.styles.Text
	if f.styles.BarEmpty != nil {
		bar.EmptyColor = f.styles.BarEmpty
	} else {
		bar.EmptyColor = nil
		bar.FullColor = nil
	}
	return bar
}
