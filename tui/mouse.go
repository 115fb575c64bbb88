package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/heatmap"
)

// handleClick handles a left click: a table in the picker (a second
// click opens it), a breadcrumb segment, a heatmap bucket or time
// column, a prefix-table line or a finding.
func (m *Model) handleClick(mouse tea.Mouse) tea.Cmd {
	if mouse.Button != tea.MouseLeft || m.sh.layout.tooSmall {
		return nil
	}
	m.message = statusMessage{}
	l := m.sh.layout
	x, y := mouse.X, mouse.Y
	if m.pickerOpen {
		return m.clickPicker(x, y)
	}
	cur := m.current()
	if cur == nil {
		return nil
	}
	f := m.frame()
	switch {
	case y == l.header.y+1:
		for _, c := range f.crumbs() {
			if x >= c.x0 && x < c.x1 && !c.isRange {
				m.goToPrefix(c.prefix)
				return nil
			}
		}
	case l.main.contains(x, y) && cur.state.Pane == PanePrefixes:
		if i, ok := m.prefixLineAt(y); ok {
			cur.state.Selected = i
		}
	case l.main.contains(x, y) && cur.state.Pane != PaneRows:
		hit, ok := f.hitHeat(x, y)
		if !ok {
			return nil
		}
		cur.state.Pane = PaneHeatmap
		if hit.Bucket >= 0 {
			cur.state.Selected = hit.Bucket
		}
		if hit.Column >= 0 && (hit.Area == heatmap.HitHeat || hit.Area == heatmap.HitAxis) {
			cur.state.TimeColumn = hit.Column + 1
		}
	case l.findings.contains(x, y) && y > l.findings.y && len(m.findings) > 0:
		visible := max(l.findings.h-1, 1)
		first := scrollStart(clampIndex(cur.state.Finding, len(m.findings)), len(m.findings), visible)
		if i := first + y - l.findings.y - 1; i < len(m.findings) {
			cur.state.Finding = i
			cur.state.Pane = PaneFindings
		}
	}
	return nil
}

// prefixLineAt returns the bucket on line y of the prefix table.
func (m *Model) prefixLineAt(y int) (int, bool) {
	cur := m.current()
	if m.matrix == nil {
		return 0, false
	}
	r := m.sh.layout.main
	visible := max(r.h-2, 1)
	first := scrollStart(cur.state.Selected, len(m.matrix.Buckets), visible)
	i := first + y - r.y - 2
	return i, y >= r.y+2 && i < len(m.matrix.Buckets)
}

// clickPicker selects the table under the pointer, or opens it when it
// is already selected.
func (m *Model) clickPicker(x, y int) tea.Cmd {
	p := m.picker
	body := m.sh.layout.picker
	n := len(p.shown())
	if !body.contains(x, y) || y == body.y || n == 0 {
		return nil
	}
	visible := max(body.h-1, 1)
	i := scrollStart(p.selected, n, visible) + y - body.y - 1
	if i >= n {
		return nil
	}
	if i == p.selected {
		return m.pickerKey(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	p.selected = i
	return nil
}

// handleWheel scrolls the list or heatmap under the pointer by moving its
// selection.
func (m *Model) handleWheel(mouse tea.Mouse) tea.Cmd {
	delta := 0
	switch mouse.Button {
	case tea.MouseWheelUp:
		delta = -1
	case tea.MouseWheelDown:
		delta = 1
	default:
		return nil
	}
	l := m.sh.layout
	if l.tooSmall {
		return nil
	}
	if m.pickerOpen {
		m.picker.selected = clampIndex(m.picker.selected+delta, len(m.picker.shown()))
		return nil
	}
	cur := m.current()
	if cur == nil {
		return nil
	}
	switch {
	case l.findings.contains(mouse.X, mouse.Y):
		cur.state.Finding = clampIndex(cur.state.Finding+delta, len(m.findings))
	case cur.state.Pane == PaneRows:
		rows, _ := topRows(m.snapOf(len(m.levels) - 1))
		cur.state.Row = clampIndex(cur.state.Row+delta, len(rows))
	case m.matrix != nil:
		cur.state.Selected = clampIndex(cur.state.Selected+delta, len(m.matrix.Buckets))
	}
	return nil
}
