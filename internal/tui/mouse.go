package tui

import (
	tea "charm.land/bubbletea/v2"
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
	if y == l.header.y+1 {
		for _, c := range m.frame().crumbs() {
			if x >= c.x0 && x < c.x1 && !c.isRange {
				m.goToPrefix(c.prefix)
				return nil
			}
		}
		return nil
	}
	p, r, ok := m.paneAt(x, y)
	if !ok {
		return nil
	}
	m.focus(p.id())
	return p.click(m, r, x, y)
}

// paneAt returns the pane drawn at screen cell (x, y) and its rectangle.
func (m *Model) paneAt(x, y int) (pane, rect, bool) {
	l := m.sh.layout
	switch {
	case l.main.contains(x, y):
		return paneOf(m.current().state.Main), l.main, true
	case l.findings.contains(x, y):
		return sidePane(), l.findings, true
	}
	return nil, rect{}, false
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
	if m.current() == nil {
		return nil
	}
	if p, _, ok := m.paneAt(mouse.X, mouse.Y); ok {
		p.wheel(m, delta)
	}
	return nil
}
