package tui

import (
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/units"
)

// scanStatus is a scan the program runs or ran: its latest progress and
// how it ended.
type scanStatus struct {
	table string
	// what names the scan in the status line: "scanning", "re-reading
	// [a, b) in full".
	what     string
	running  bool
	progress source.Progress
	// preview is what the scan said it would read before it read, nil
	// until it says (a saved snapshot never does).
	preview *source.Preview
	err     error
	// loading is set while the table waits for the demo to load it; load
	// is that load's progress.
	loading bool
	load    source.LoadProgress
}

// keyHelp returns the key help of what has the keyboard.
func (f *frame) keyHelp() help.KeyMap {
	switch {
	case f.search != "":
		return searchHelp{f.keys}
	case f.picker != nil:
		return pickerHelp{f.keys}
	}
	return f.state.focused().help(f.shared)
}

// helpLines draws the one-line key help at the bottom of the screen.
func (f *frame) helpLines(width int) []string {
	h := f.help
	h.SetWidth(width - 1)
	h.ShowAll = false
	return prefixLines(" ", splitLines(h.View(f.keyHelp())))
}

// fullHelpArea is where the full help is drawn while it is open: over the
// details and findings panes (the side column, or the strip below the
// main pane), or the bottom of the table picker's list, never over the
// heatmap.
func (f *frame) fullHelpArea() rect {
	l := f.layout
	switch {
	case f.picker != nil:
		lines := min(l.picker.h/2, fullHelpPickerLines)
		return rect{l.picker.x, l.picker.y + l.picker.h - lines, l.picker.w, lines}
	case l.wide:
		return rect{l.details.x, l.details.y, l.details.w, l.details.h + l.findings.h}
	}
	return rect{0, l.details.y, l.width, l.details.h}
}

// fullHelpPickerLines is the most lines the full help takes at the bottom
// of the table picker.
const fullHelpPickerLines = 8

// fullHelpBlock draws every key of what has the keyboard for r: the
// help's columns side by side when they fit r, else one below the other
// when that fits, else side by side cut to r's width.
func (f *frame) fullHelpBlock(r rect) []string {
	h := f.help
	h.ShowAll = true
	h.SetWidth(0) // no width: the columns side by side, whole, to measure them
	km := f.keyHelp()
	title := " " + f.styles.Strong.Render("Keys") + f.styles.Muted.Render(" · ? closes")
	lines := splitLines(h.View(km))
	widest := 0
	for _, line := range lines {
		widest = max(widest, ansi.StringWidth(line))
	}
	if widest > r.w-2 || len(lines)+1 > r.h {
		var stacked []string
		for _, column := range km.FullHelp() {
			if len(stacked) > 0 {
				stacked = append(stacked, "")
			}
			stacked = append(stacked, splitLines(h.FullHelpView([][]key.Binding{column}))...)
		}
		lines = stacked
		if len(stacked)+1 > r.h {
			h.SetWidth(max(r.w-2, 1))
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
	case f.recording:
		return f.liveLine(width)
	case f.scan != nil && f.scan.err != nil:
		return " " + st.Error.Render("✗ ") + st.Text.Render(cut(safeText(f.scan.err.Error()), width-4))
	case f.picker != nil:
		return " " + st.Muted.Render(safeText(f.picker.statusText()))
	case f.snap != nil:
		return " " + st.Muted.Render(readSummary(f))
	}
	return ""
}

// readSummary says what the snapshot's scan read, or what a recording
// alone (no scan joined) recorded.
func readSummary(f *frame) string {
	s := f.snap.Scan
	text := fmt.Sprintf("read %s rows, %s cells in %s", heatmap.UnitCount.Format(float64(s.RowsRead)),
		heatmap.UnitCount.Format(float64(s.CellsRead)), units.Duration(s.Duration))
	if f.snap.TrafficOnly() {
		text = fmt.Sprintf("recorded %s in %s", units.Plural(int64(f.snap.TrafficTotals().Ops), "op"), units.Duration(f.snap.Traffic.Duration))
	}
	if s.Mode == "sample" && s.RowsEstimated > 0 {
		text += fmt.Sprintf(" · about %s rows in all", heatmap.UnitCount.Format(float64(s.RowsEstimated)))
	}
	if p := f.preview; p != nil && p.ReadRows >= 0 {
		// Planned against read over the wire (probes and re-reads too),
		// which the rows above (those the snapshot holds) leave out.
		text += fmt.Sprintf(" · planned about %s rows", units.Thousands(p.ReadRows))
		if f.scan != nil && f.scan.progress.Final {
			text += fmt.Sprintf(", read %s", units.Thousands(f.scan.progress.RowsRead))
		}
	}
	if f.depth > 0 {
		text += " · esc goes back up"
	}
	return text
}

// progressLine draws a running scan, or the demo's load of the table
// it waits for, as btviz's one progress line ([progressText]) in the
// theme's colours.
func (f *frame) progressLine(width int) string {
	st := &f.styles
	style := progressStyle{label: st.Strong.Render, bar: st.Bar.Render, rest: st.Muted.Render}
	width-- // the status line's left margin
	if f.scan.loading {
		l := f.scan.load
		stats := []string{fmt.Sprintf("%s of %s rows", units.Count(float64(l.RowsWritten)), units.Count(float64(l.RowsTotal)))}
		if !l.Started {
			stats = []string{"waiting for its turn"}
		}
		return " " + progressText(f.scan.what, l.Share(), stats, width, style)
	}
	p := f.scan.progress
	label := f.scan.what
	if p.Mode == keyspace.ModeSample && p.Fraction > 0 && p.Fraction < 1 {
		label += " (sample " + units.Percent(p.Fraction) + ")"
	}
	planned := int64(-1)
	if f.preview != nil {
		planned = f.preview.ReadRows
	}
	return " " + progressText(label, p.Done, append(scanStats(p, planned), "x stops"), width, style)
}
