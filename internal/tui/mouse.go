package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/btviz/btviz/internal/view"
)

// handleClick handles a left click: a table in the picker (a second
// click opens it), a breadcrumb segment, a heatmap bucket or time
// column, a prefix-table line or a finding.
func (m *Model) handleClick(mouse tea.Mouse) tea.Cmd {
	if mouse.Button != tea.MouseLeft || m.sh.Layout.TooSmall {
		return nil
	}
	m.message = view.StatusMessage{}
	x, y := mouse.X, mouse.Y
	if m.pickerOpen {
		return m.clickPicker(x, y)
	}
	cur := m.current()
	if cur == nil {
		return nil
	}
	return m.act(m.frame().Click(&cur.state, x, y))
}

// clickPicker selects the table under the pointer, or opens it when it
// is already selected.
func (m *Model) clickPicker(x, y int) tea.Cmd {
	p := m.picker
	body := m.sh.Layout.Picker
	n := len(p.Shown())
	if !body.Contains(x, y) || y == body.Y || n == 0 {
		return nil
	}
	visible := max(body.H-1, 1)
	i := view.ScrollStart(p.Selected, n, visible) + y - body.Y - 1
	if i >= n {
		return nil
	}
	if i == p.Selected {
		return m.pickerKey(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	p.Selected = i
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
	l := m.sh.Layout
	if l.TooSmall {
		return nil
	}
	if m.pickerOpen {
		m.picker.Selected = view.ClampIndex(m.picker.Selected+delta, len(m.picker.Shown()))
		return nil
	}
	if cur := m.current(); cur != nil {
		m.frame().Wheel(&cur.state, mouse.X, mouse.Y, delta)
	}
	return nil
}
