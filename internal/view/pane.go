package view

import (
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// Pane names a pane of the table screen. The names are stable: they are
// the values of `btviz export --view`.
type Pane string

const (
	// PaneHeatmap shows the heatmap in the main area; the arrows move the
	// bucket selection.
	PaneHeatmap Pane = "heatmap"
	// PanePrefixes shows the same buckets as a table of numbers.
	PanePrefixes Pane = "prefixes"
	// PaneFindings is the findings list beside the details: with the
	// keyboard, it shows the selected finding in the details pane.
	PaneFindings Pane = "findings"
	// PaneRows shows the largest and most versioned rows.
	PaneRows Pane = "rows"
)

// pane is one unit of the table screen, bundled in one file the way
// soft-serve bundles a component: what it draws, what the details pane
// says while it has the keyboard, its keys and their help, and what a
// click or the wheel does in it. Panes are dumb renderers over a [Frame];
// they keep no state of their own (what they select lives in [ViewState]).
// Their keys, clicks and wheel change the view state they are given and
// return an [Action] for what only the program can do (drill down, jump,
// show a finding), so that a pane does no I/O and knows no program. To add
// a pane, write its file and add it to [panes].
type pane interface {
	// id is the pane's stable name.
	id() Pane
	// place says where the pane is drawn.
	place() placement
	// open is the key that shows the pane and gives it the keyboard
	// (toggling back to the heatmap when it has it); a binding without
	// keys for a pane reached otherwise.
	open() key.Binding
	// tabStop reports whether tab and shift+tab visit the pane.
	tabStop() bool
	// showsBuckets reports whether the pane shows the view's key buckets
	// (and so stays on screen when a drill-down changes the view).
	showsBuckets() bool
	// lines draws the pane in r; focused says whether it has the
	// keyboard.
	lines(f *Frame, r Rect, focused bool) []string
	// details draws the details pane while the pane has the keyboard.
	details(f *Frame, r Rect) []string
	// help is the key help while the pane has the keyboard.
	help(s *Shared) help.KeyMap
	// key handles a key press that no global key took, while the pane
	// has the keyboard: it changes s, the state f was drawn from, and says
	// what else to do (nil: nothing).
	key(f *Frame, s *ViewState, msg fmt.Stringer) Action
	// click handles a left click at screen cell (x, y) inside the pane's
	// rectangle r.
	click(f *Frame, s *ViewState, r Rect, x, y int) Action
	// wheel moves the pane's selection by delta lines.
	wheel(f *Frame, s *ViewState, delta int)
}

// placement is where a pane is drawn.
type placement int

const (
	// placeMain panes fill the main area, one at a time.
	placeMain placement = iota
	// placeSide panes stand beside the details pane and are always
	// drawn; one at a time has the keyboard.
	placeSide
)

// panes lists every pane, in the order tab visits those that are tab
// stops. It is the one place a pane is registered.
func panes() []pane {
	return []pane{heatPane{}, prefixPane{}, findingsPane{}, rowsPane{}, hotPane{}, datasetsPane{}}
}

// paneOf returns the pane named id, or the heatmap for an unknown name.
func paneOf(id Pane) pane {
	for _, p := range panes() {
		if p.id() == id {
			return p
		}
	}
	return heatPane{}
}

// ShowsBuckets reports whether pane p shows the view's key buckets (the
// heatmap and the prefix table do), and so stays on screen when a
// drill-down changes the view.
func ShowsBuckets(p Pane) bool { return paneOf(p).showsBuckets() }

// sidePane returns the pane drawn beside the details pane.
func sidePane() pane {
	for _, p := range panes() {
		if p.place() == placeSide {
			return p
		}
	}
	return findingsPane{}
}

// Panes returns every pane's name, in the order help texts list them.
func Panes() []Pane {
	all := panes()
	ids := make([]Pane, len(all))
	for i, p := range all {
		ids[i] = p.id()
	}
	return ids
}

// ParsePane returns the pane named name; the error lists the valid names.
func ParsePane(name string) (Pane, error) {
	for _, p := range Panes() {
		if string(p) == name {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown view %q: use %s", escape.Text(name), PaneNames())
}

// PaneNames returns the names of [Panes] as help texts list them: "heatmap,
// prefixes, findings or rows".
func PaneNames() string { return units.OrList(Panes()) }

// TabOrder returns the panes tab visits, in order (reversed for
// shift+tab).
func TabOrder(reverse bool) []Pane {
	var ids []Pane
	for _, p := range panes() {
		if p.tabStop() {
			ids = append(ids, p.id())
		}
	}
	if reverse {
		for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
			ids[i], ids[j] = ids[j], ids[i]
		}
	}
	return ids
}

// openKeys returns the keys that open the panes of all, for the full
// help: of the panes that show the view's buckets (buckets set), or of
// the others.
func openKeys(all []pane, buckets bool) []key.Binding {
	var keys []key.Binding
	for _, p := range all {
		if b := p.open(); len(b.Keys()) > 0 && p.showsBuckets() == buckets {
			keys = append(keys, b)
		}
	}
	return keys
}
