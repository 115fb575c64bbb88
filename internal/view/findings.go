package view

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// findingsPane is the findings list beside the details pane; with the
// keyboard, the details pane shows the selected finding and enter jumps
// to where it points.
type findingsPane struct{}

func (findingsPane) id() Pane           { return PaneFindings }
func (findingsPane) place() placement   { return placeSide }
func (findingsPane) tabStop() bool      { return true }
func (findingsPane) showsBuckets() bool { return false }
func (findingsPane) open() key.Binding {
	return key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "findings"))
}
func (findingsPane) help(s *Shared) help.KeyMap { return findingsHelp{s.Keys} }

func (findingsPane) lines(f *Frame, r Rect, focused bool) []string {
	return f.findingsLines(r, focused)
}
func (findingsPane) details(f *Frame, r Rect) []string { return f.findingDetails(r) }

// key moves through the findings; enter shows where the selected one
// points, esc gives the keyboard back to the main area.
func (findingsPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.Keys
	n := len(f.Findings)
	if i, ok := ListMove(k, msg, s.Line(PaneFindings), n, 0); ok {
		s.SetLine(PaneFindings, i)
		return nil
	}
	switch {
	case key.Matches(msg, k.Drill):
		if n > 0 {
			return ShowFinding{f.Findings[ClampIndex(s.Line(PaneFindings), n)]}
		}
	case key.Matches(msg, k.Back):
		s.Focus = ""
	}
	return nil
}

// click selects the finding on the clicked line.
func (findingsPane) click(f *Frame, s *ViewState, r Rect, _, y int) Action {
	n := len(f.Findings)
	if y <= r.Y || n == 0 {
		return nil
	}
	first := ScrollStart(ClampIndex(s.Line(PaneFindings), n), n, max(r.H-1, 1))
	if i := first + y - r.Y - 1; i < n {
		s.SetLine(PaneFindings, i)
	}
	return nil
}

func (findingsPane) wheel(f *Frame, s *ViewState, delta int) {
	s.SetLine(PaneFindings, ClampIndex(s.Line(PaneFindings)+delta, len(f.Findings)))
}

// findingsLines draws the findings list: one line per finding, worst
// first, the selected one highlighted when the list has the keyboard.
func (f *Frame) findingsLines(r Rect, focused bool) []string {
	st := &f.Styles
	lines := []string{paneTitle(st, "Findings", findingCounts(f.Findings), r.W, focused)}
	if len(f.Findings) == 0 {
		text := "none"
		switch {
		case f.Snap == nil:
			text = ""
		case f.Scan != nil && f.Scan.Running:
			text = "diagnosing as the scan goes…"
		}
		return append(lines, " "+st.Muted.Render(text))
	}
	kindWidth := 0
	for _, fi := range f.Findings {
		kindWidth = max(kindWidth, ansi.StringWidth(string(fi.Kind))+1)
	}
	kindWidth = min(kindWidth, max(r.W*2/5, 8))
	visible := max(r.H-1, 1)
	selected := ClampIndex(f.State.Line(PaneFindings), len(f.Findings))
	first := ScrollStart(selected, len(f.Findings), visible)
	for i := first; i < len(f.Findings) && i < first+visible; i++ {
		fi := f.Findings[i]
		summary := escape.Text(fi.Summary)
		if fi.Uncertain {
			// The summary's end says why; a cut line keeps its start.
			summary = "(uncertain) " + summary
		}
		text := padRight(Cut(escape.Text(string(fi.Kind)), kindWidth-1), kindWidth) + findingWhere(fi) + summary
		lines = append(lines, f.findingLine(i == selected, focused, fi.Severity, text, r.W))
	}
	return lines
}

// findingLine draws one finding with its severity mark.
func (f *Frame) findingLine(selected, focused bool, severity diagnose.Severity, text string, width int) string {
	st := &f.Styles
	mark := f.severityMark(severity) + " "
	switch {
	case selected && focused:
		return fitLine(st.Cursor.Render("▶")+mark+st.Selected.Render(fitLine(text, width-3)), width)
	case selected:
		return fitLine(st.Cursor.Render("▶")+mark+st.Strong.Render(text), width)
	}
	return fitLine(" "+mark+st.Text.Render(text), width)
}

// findingCounts summarises findings by severity: "1 warning · 3 info".
func findingCounts(findings []diagnose.Finding) string {
	c := diagnose.CountBySeverity(findings)
	var parts []string
	if c.Error > 0 {
		parts = append(parts, units.Plural(int64(c.Error), "error"))
	}
	if c.Warning > 0 {
		parts = append(parts, units.Plural(int64(c.Warning), "warning"))
	}
	if c.Info > 0 {
		parts = append(parts, fmt.Sprintf("%d info", c.Info))
	}
	return strings.Join(parts, " · ")
}

// findingWhere names where a finding points, unless its summary does.
func findingWhere(fi diagnose.Finding) string {
	switch {
	case fi.Prefix == "" && fi.Dataset != "":
		return "" // its summary opens with its dataset
	case fi.Prefix == "":
		return "table-wide: "
	case strings.Contains(fi.Summary, fi.Prefix.String()):
		return ""
	}
	return fi.Prefix.String() + ": "
}

// findingsHelp is the key help of the findings pane.
type findingsHelp struct{ k KeyMap }

// ShortHelp lists the findings pane's keys.
func (h findingsHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, relabel(h.k.Drill, "show range"), h.k.Focus, h.k.Back, h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists the findings pane's keys by theme.
func (h findingsHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom},
		{relabel(h.k.Drill, "show range"), h.k.Focus, h.k.Back},
		{rowsPane{}.open(), h.k.Tables, h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}
