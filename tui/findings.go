package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/diagnose"
)

// findingsLines draws the findings list: one line per finding, worst
// first, the selected one highlighted when the list has the keyboard.
func (f *frame) findingsLines(r rect) []string {
	st := &f.styles
	focused := f.state.Pane == PaneFindings
	lines := []string{paneTitle(st, "Findings", findingCounts(f.findings), r.w, focused)}
	if len(f.findings) == 0 {
		text := "none"
		switch {
		case f.snap == nil:
			text = ""
		case f.scan != nil && f.scan.running:
			text = "diagnosing as the scan goes…"
		}
		return append(lines, " "+st.Muted.Render(text))
	}
	kindWidth := 0
	for _, fi := range f.findings {
		kindWidth = max(kindWidth, ansi.StringWidth(string(fi.Kind))+1)
	}
	kindWidth = min(kindWidth, max(r.w*2/5, 8))
	visible := max(r.h-1, 1)
	selected := clampIndex(f.state.Finding, len(f.findings))
	first := scrollStart(selected, len(f.findings), visible)
	for i := first; i < len(f.findings) && i < first+visible; i++ {
		fi := f.findings[i]
		text := padRight(cut(safeText(string(fi.Kind)), kindWidth-1), kindWidth) + findingWhere(fi) + safeText(fi.Summary)
		lines = append(lines, f.findingLine(i == selected, focused, fi.Severity, text, r.w))
	}
	return lines
}

// findingLine draws one finding with its severity mark.
func (f *frame) findingLine(selected, focused bool, severity diagnose.Severity, text string, width int) string {
	st := &f.styles
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
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, word)
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	if c.Error > 0 {
		parts = append(parts, plural(c.Error, "error"))
	}
	if c.Warning > 0 {
		parts = append(parts, plural(c.Warning, "warning"))
	}
	if c.Info > 0 {
		parts = append(parts, fmt.Sprintf("%d info", c.Info))
	}
	return strings.Join(parts, " · ")
}

// findingWhere names where a finding points, unless its summary does.
func findingWhere(fi diagnose.Finding) string {
	switch {
	case fi.Prefix == "":
		return "table-wide: "
	case strings.Contains(fi.Summary, fi.Prefix.String()):
		return ""
	}
	return fi.Prefix.String() + ": "
}
