package view

import (
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/units"
)

// ScanStatus is a scan the program runs or ran: its latest progress and
// how it ended.
type ScanStatus struct {
	// Table is the table scanned.
	Table string
	// What names the scan in the status line: "scanning", "re-reading
	// [a, b) in full".
	What string
	// Running is set until the scan ends; Progress is its latest event
	// and Err why it failed.
	Running  bool
	Progress source.Progress
	// Preview is what the scan said it would read before it read, nil
	// until it says (a saved snapshot never does).
	Preview *source.Preview
	Err     error
	// Loading is set while the table waits for the demo to load it; Load
	// is that load's progress.
	Loading bool
	Load    source.LoadProgress
}

// keyHelp returns the key help of what has the keyboard.
func (f *Frame) keyHelp() help.KeyMap {
	switch {
	case f.Search != "":
		return searchHelp{f.Keys}
	case f.Picker != nil:
		return pickerHelp{f.Keys}
	}
	return f.State.focused().help(f.Shared)
}

// helpLines draws the one-line key help at the bottom of the screen.
func (f *Frame) helpLines(width int) []string {
	h := f.help
	h.SetWidth(width - 1)
	h.ShowAll = false
	return prefixLines(" ", splitLines(h.View(f.keyHelp())))
}

// fullHelpArea is where the full help is drawn while it is open: over the
// details and findings panes (the side column, or the strip below the
// main pane), or the bottom of the table picker's list, never over the
// heatmap.
func (f *Frame) fullHelpArea() Rect {
	l := f.Layout
	switch {
	case f.Picker != nil:
		lines := min(l.Picker.H/2, fullHelpPickerLines)
		return Rect{l.Picker.X, l.Picker.Y + l.Picker.H - lines, l.Picker.W, lines}
	case l.Wide:
		return Rect{l.Details.X, l.Details.Y, l.Details.W, l.Details.H + l.Findings.H}
	}
	return Rect{0, l.Details.Y, l.width, l.Details.H}
}

// fullHelpPickerLines is the most lines the full help takes at the bottom
// of the table picker.
const fullHelpPickerLines = 8

// fullHelpBlock draws every key of what has the keyboard for r: the
// help's columns side by side when they fit r, else one below the other
// when that fits, else side by side cut to r's width.
func (f *Frame) fullHelpBlock(r Rect) []string {
	h := f.help
	h.ShowAll = true
	h.SetWidth(0) // no width: the columns side by side, whole, to measure them
	km := f.keyHelp()
	title := " " + f.Styles.Strong.Render("Keys") + f.Styles.Muted.Render(" · ? closes")
	lines := splitLines(h.View(km))
	widest := 0
	for _, line := range lines {
		widest = max(widest, ansi.StringWidth(line))
	}
	if widest > r.W-2 || len(lines)+1 > r.H {
		var stacked []string
		for _, column := range km.FullHelp() {
			if len(stacked) > 0 {
				stacked = append(stacked, "")
			}
			stacked = append(stacked, splitLines(h.FullHelpView([][]key.Binding{column}))...)
		}
		lines = stacked
		if len(stacked)+1 > r.H {
			h.SetWidth(max(r.W-2, 1))
			lines = splitLines(h.View(km))
		}
	}
	return append([]string{title}, prefixLines(" ", lines)...)
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
func (f *Frame) statusLine(width int) string {
	st := &f.Styles
	switch {
	case f.Search != "":
		return f.Search
	case f.Message.Text != "" && f.Message.IsErr:
		return " " + st.Error.Render("✗ ") + st.Text.Render(Cut(escape.Text(f.Message.Text), width-4))
	case f.Message.Text != "" && f.Message.Done:
		return " " + st.Good.Render("✓ ") + st.Text.Render(Cut(escape.Text(f.Message.Text), width-4))
	case f.Message.Text != "":
		return " " + st.Info.Render("• ") + st.Text.Render(Cut(escape.Text(f.Message.Text), width-4))
	case f.Scan != nil && f.Scan.Running:
		return f.progressLine(width)
	case f.Recording:
		return f.liveLine(width)
	case f.Scan != nil && f.Scan.Err != nil:
		return " " + st.Error.Render("✗ ") + st.Text.Render(Cut(escape.Text(f.Scan.Err.Error()), width-4))
	case f.Picker != nil:
		return " " + st.Muted.Render(escape.Text(f.Picker.statusText()))
	case f.Snap != nil:
		return " " + st.Muted.Render(readSummary(f))
	}
	return ""
}

// readSummary says what the snapshot's scan read, or what a recording
// alone (no scan joined) recorded.
func readSummary(f *Frame) string {
	s := f.Snap.Scan
	text := fmt.Sprintf("read %s rows, %s cells in %s", heatmap.UnitCount.Format(float64(s.RowsRead)),
		heatmap.UnitCount.Format(float64(s.CellsRead)), units.Duration(s.Duration))
	if f.Snap.TrafficOnly() {
		text = fmt.Sprintf("recorded %s in %s", units.Plural(int64(f.Snap.TrafficTotals().Ops), "op"), units.Duration(f.Snap.Traffic.Duration))
	}
	if s.Mode == "sample" && s.RowsEstimated > 0 {
		text += fmt.Sprintf(" · about %s rows in all", heatmap.UnitCount.Format(float64(s.RowsEstimated)))
	}
	if p := f.Preview; p != nil && p.ReadRows >= 0 {
		// Planned against read over the wire (probes and re-reads too),
		// which the rows above (those the snapshot holds) leave out.
		text += fmt.Sprintf(" · planned about %s rows", units.Thousands(p.ReadRows))
		if f.Scan != nil && f.Scan.Progress.Final {
			text += fmt.Sprintf(", read %s", units.Thousands(f.Scan.Progress.RowsRead))
		}
	}
	if f.Depth > 0 {
		text += " · esc goes back up"
	}
	return text
}

// progressLine draws a running scan, or the demo's load of the table
// it waits for, as btviz's one progress line ([progressText]) in the
// theme's colours.
func (f *Frame) progressLine(width int) string {
	st := &f.Styles
	style := progressStyle{label: st.Strong.Render, bar: st.Bar.Render, rest: st.Muted.Render}
	width-- // the status line's left margin
	if f.Scan.Loading {
		l := f.Scan.Load
		stats := []string{fmt.Sprintf("%s of %s rows", units.Count(float64(l.RowsWritten)), units.Count(float64(l.RowsTotal)))}
		if !l.Started {
			stats = []string{"waiting for its turn"}
		}
		return " " + progressText(f.Scan.What, l.Share(), stats, width, style)
	}
	p := f.Scan.Progress
	label := f.Scan.What
	if p.Mode.IsSample() && p.Fraction > 0 && p.Fraction < 1 {
		label += " (sample " + units.Percent(p.Fraction) + ")"
	}
	planned := int64(-1)
	if f.Preview != nil {
		planned = f.Preview.ReadRows
	}
	return " " + progressText(label, p.Done, append(scanStats(p, planned), "x stops"), width, style)
}

// searchHelp is the key help of the search prompt.
type searchHelp struct{ k KeyMap }

// ShortHelp lists the prompt's keys.
func (h searchHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Accept, h.k.Cancel, h.k.ForceQuit}
}

// FullHelp lists the prompt's keys.
func (h searchHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
