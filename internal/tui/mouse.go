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
	x, y := mouse.X, mouse.Y
	if m.pickerOpen {
		return m.clickPicker(x, y)
	}
	cur := m.current()
	if cur == nil {
		return nil
	}
	return m.act(m.frame().click(&cur.state, x, y))
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
	if cur := m.current(); cur != nil {
		m.frame().wheel(&cur.state, mouse.X, mouse.Y, delta)
	}
	return nil
}
