package view

import (
	"fmt"

	"charm.land/bubbles/v2/key"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// Action is what a key, click or wheel turn in a pane asks of the program
// beyond the change to the view state the pane made itself: what needs the
// drill-down levels, a scan or the status line. Nil asks nothing.
type Action interface{ action() }

// Jump shows Key in context, as the prefix search does: its own prefix view
// when Into is set and it is a prefix, else the view above it with its
// bucket selected.
type Jump struct {
	Key  string
	Into bool
}

// ShowFinding shows where Finding points.
type ShowFinding struct{ Finding diagnose.Finding }

// ShowDataset shows Dataset in the heatmap.
type ShowDataset struct{ Dataset diagnose.Dataset }

// GoToPrefix shows the node with Prefix (a breadcrumb click).
type GoToPrefix struct{ Prefix keyspace.Key }

// Drill goes one level into the selected bucket.
type Drill struct{}

// Back goes one level up.
type Back struct{}

func (Jump) action()        {}
func (ShowFinding) action() {}
func (ShowDataset) action() {}
func (GoToPrefix) action()  {}
func (Drill) action()       {}
func (Back) action()        {}

// Key handles a key press no key of the program's own took: a pane's key
// toggles that pane, any other goes to the pane with the keyboard. It
// changes s, the state the frame was drawn from.
func (f *Frame) Key(s *ViewState, msg fmt.Stringer) Action {
	for _, p := range panes() {
		if b := p.open(); len(b.Keys()) > 0 && key.Matches(msg, b) {
			s.toggle(p.id())
			return nil
		}
	}
	return s.focused().key(f, s, msg)
}

// Click handles a left click at screen cell (x, y) of the table screen: a
// breadcrumb segment, or a pane, which takes the keyboard and handles the
// click.
func (f *Frame) Click(s *ViewState, x, y int) Action {
	if y == f.Layout.Header.Y+1 {
		for _, c := range f.crumbs() {
			if x >= c.x0 && x < c.x1 && !c.isRange {
				return GoToPrefix{c.prefix}
			}
		}
		return nil
	}
	p, r, ok := f.paneAt(x, y)
	if !ok {
		return nil
	}
	*s = s.Showing(p.id())
	full := f.State.FullHelp
	f.State = s.Normalized(f.Snap)
	f.State.FullHelp = full
	return p.click(f, s, r, x, y)
}

// Wheel scrolls the pane under the pointer by moving its selection.
func (f *Frame) Wheel(s *ViewState, x, y, delta int) {
	if p, _, ok := f.paneAt(x, y); ok {
		p.wheel(f, s, delta)
	}
}

// paneAt returns the pane drawn at screen cell (x, y) and its rectangle.
func (f *Frame) paneAt(x, y int) (pane, Rect, bool) {
	l := f.Layout
	switch {
	case l.Main.Contains(x, y):
		return paneOf(f.State.Main), l.Main, true
	case l.Findings.Contains(x, y):
		return sidePane(), l.Findings, true
	}
	return nil, Rect{}, false
}

// toggle shows pane p with the keyboard, or, when p has it already, gives
// the keyboard back to the heatmap (a main-area pane) or to the main area
// (a side pane).
func (s *ViewState) toggle(p Pane) {
	switch {
	case s.Shown() != p:
		*s = s.Showing(p)
	case paneOf(p).place() == placeMain:
		*s = s.Showing(PaneHeatmap)
	default:
		s.Focus = ""
	}
}

// moveBucket moves the bucket selection by delta.
func (f *Frame) moveBucket(s *ViewState, delta int) {
	if f.Matrix != nil {
		s.Selected = ClampIndex(s.Selected+delta, len(f.Matrix.Buckets))
	}
}

// ListMove moves selection i in a list of n entries by an up, down,
// first or last key, and by page entries for the page keys when page > 0.
// It reports whether msg was such a key.
func ListMove(k KeyMap, msg fmt.Stringer, i, n, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return ClampIndex(i-1, n), true
	case key.Matches(msg, k.Down):
		return ClampIndex(i+1, n), true
	case page > 0 && key.Matches(msg, k.PageUp):
		return ClampIndex(i-page, n), true
	case page > 0 && key.Matches(msg, k.PageDown):
		return ClampIndex(i+page, n), true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return ClampIndex(n-1, n), true
	}
	return i, false
}

// heatKey handles a key in the heatmap and prefix-table panes.
func (f *Frame) heatKey(s *ViewState, msg fmt.Stringer) Action {
	k := f.Keys
	n := 0
	if f.Matrix != nil {
		n = len(f.Matrix.Buckets)
	}
	if i, ok := ListMove(k, msg, s.Selected, n, max(f.Layout.Main.H-2, 1)); ok {
		s.Selected = i
		return nil
	}
	switch {
	case key.Matches(msg, k.Left):
		f.moveColumn(s, -1)
	case key.Matches(msg, k.Right):
		f.moveColumn(s, +1)
	case key.Matches(msg, k.Drill):
		return Drill{}
	case key.Matches(msg, k.Back):
		return Back{}
	}
	return nil
}

// moveColumn moves the selected time column; the first move selects the
// latest column.
func (f *Frame) moveColumn(s *ViewState, delta int) {
	if f.Matrix == nil || !f.Matrix.Timed() {
		return
	}
	columns := f.Matrix.Columns()
	if c := s.column(); c < 0 || c >= columns {
		s.TimeColumn = columns
		return
	}
	s.TimeColumn = ClampIndex(s.column()+delta, columns) + 1
}
