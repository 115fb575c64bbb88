package view

import (
	"maps"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
)

// ViewState is everything about what the TUI shows that is not data: where
// in the key space, how, what is selected, what the main area shows and
// which pane has the keyboard. Its zero value is the whole table's writes
// over time in the heatmap pane, first bucket selected. [RenderFrame]
// draws a snapshot in a ViewState; the interactive program keeps one per
// drill level.
type ViewState struct {
	// Main is the pane the main area shows (default [PaneHeatmap]).
	Main Pane
	// Focus is the pane that has the keyboard when it is not Main: a
	// side pane such as [PaneFindings]. Empty: Main has it.
	Focus Pane
	// Prefix is the key prefix whose rows the view shows: the tree node
	// with that prefix when the snapshot has one, else the key range of
	// all keys starting with it. Empty (with Start and End empty) is the
	// whole table. Raw bytes, not escaped.
	Prefix keyspace.Key
	// Start and End give an explicit key range [Start, End) instead of a
	// prefix (an empty End is the end of the table).
	Start, End keyspace.Key
	// Metric, Bucketing and Scale pick what the heatmap measures, how it
	// cuts the key range and how values map to colour (defaults: writes,
	// [DefaultBucketing] or, for a recording, even buckets of operations;
	// linear).
	Metric    heatmap.Metric
	Bucketing heatmap.Bucketing
	Scale     heatmap.Scale
	// Palette is the heatmap's colour ramp (default viridis).
	Palette render.Palette
	// Selected is the selected key bucket.
	Selected int
	// TimeColumn is the selected time column counted from 1; 0 (or out
	// of range) selects none.
	TimeColumn int
	// Lines holds the selected line of each list pane (the findings, the
	// largest rows, the hot rows), by pane; a pane without an entry has
	// its first line selected. Read and set it with [ViewState.Line] and
	// [ViewState.SetLine], which never change a map another state shares.
	Lines map[Pane]int
	// RowColumns shows the selected row's columns instead of the list of
	// the largest rows.
	RowColumns bool
	// FullHelp shows every key instead of the one-line help.
	FullHelp bool
	// LabelTimes writes the time a key label holds beside it.
	LabelTimes bool
}

// DefaultBucketing is the bucketing a view of a scan starts with: one row
// per child prefix, hot children kept apart, which reads best while
// drilling down.
const DefaultBucketing = heatmap.BucketPrefix

// defaultBucketing returns the bucketing a view of snap starts with:
// [DefaultBucketing], or for a traffic recording (alone or joined with a
// scan), whose metric is operations, even buckets of operations, which
// give the rows of the heatmap to where the operations went: a hotspot
// gets rows of its own, however deep it lies and however few rows it
// stores, rather than one row among a thousand cold keys.
func defaultBucketing(snap *keyspace.Snapshot) heatmap.Bucketing {
	if snap.HasTraffic() {
		return heatmap.BucketEven
	}
	return DefaultBucketing
}

// Normalized fills the defaults of the zero fields; the metric's depends
// on the snapshot shown (operations for a traffic recording, writes for a
// scan), so a state without a snapshot keeps it empty until one comes.
func (s ViewState) Normalized(snap *keyspace.Snapshot) ViewState {
	if s.Main == "" || paneOf(s.Main).place() != placeMain {
		s.Main = PaneHeatmap
	}
	if s.Focus == s.Main {
		s.Focus = ""
	}
	if s.Metric == "" && snap != nil {
		s.Metric = heatmap.DefaultMetric(snap)
	}
	if s.Bucketing == "" {
		s.Bucketing = defaultBucketing(snap)
	}
	if s.Scale.Kind == "" {
		s.Scale.Kind = heatmap.ScaleLinear
	}
	return s
}

// Line returns the selected line of list pane p.
func (s ViewState) Line(p Pane) int { return s.Lines[p] }

// SetLine selects line i of list pane p. The map is copied first, so a
// state copied from this one (a drill level's parent) keeps its lines.
func (s *ViewState) SetLine(p Pane, i int) {
	lines := maps.Clone(s.Lines)
	if lines == nil {
		lines = map[Pane]int{}
	}
	lines[p] = i
	s.Lines = lines
}

// Shown returns the pane the state is named after: the one with the
// keyboard (as `btviz export --view` names a view).
func (s ViewState) Shown() Pane {
	if s.Focus != "" {
		return s.Focus
	}
	if s.Main == "" {
		return PaneHeatmap
	}
	return s.Main
}

// Showing returns s with pane p shown and given the keyboard: a main-area
// pane replaces what the main area shows, a side pane takes the keyboard
// beside it.
func (s ViewState) Showing(p Pane) ViewState {
	if paneOf(p).place() == placeMain {
		s.Main, s.Focus, s.RowColumns = p, "", false
	} else {
		s.Focus = p
	}
	return s
}

// Child returns the state of a drill-down level below s: s's view
// settings and main pane when it shows buckets (else the heatmap), with
// the keyboard, nothing selected, at prefix or [start, end).
func (s ViewState) Child(prefix, start, end keyspace.Key) ViewState {
	next := s
	next.Prefix, next.Start, next.End = prefix, start, end
	next.Selected, next.TimeColumn, next.RowColumns = 0, 0, false
	next.Focus = ""
	if !paneOf(next.Main).showsBuckets() {
		next.Main = PaneHeatmap
	}
	return next
}

// focused returns the pane that has the keyboard.
func (s ViewState) focused() pane { return paneOf(s.Shown()) }

// column returns the selected time column counted from 0, or −1.
func (s ViewState) column() int { return s.TimeColumn - 1 }

// IsRange reports whether the state names an explicit key range.
func (s ViewState) IsRange() bool { return s.Prefix == "" && (s.Start != "" || s.End != "") }

// heatView returns the heatmap view of the state over snap, sized rows ×
// columns, and the tree path from the root to the node the view hangs
// from (for the breadcrumb).
func (s ViewState) heatView(snap *keyspace.Snapshot, rows, columns int) (heatmap.View, []*keyspace.Node) {
	v := heatmap.View{Bucketing: s.Bucketing, Metric: s.Metric, Rows: max(rows, 1), Columns: max(columns, 0)}
	if snap == nil || snap.Root == nil {
		return v, nil
	}
	if s.Prefix != "" {
		if path := snap.Root.Lookup(string(s.Prefix)); path != nil && !path[len(path)-1].IsLeaf() {
			v.Node = path[len(path)-1]
			return v, path
		}
		v.Start, v.End = s.Prefix, keyspace.Key(keyspace.PrefixEnd(string(s.Prefix)))
		return v, containingPath(snap.Root, string(v.Start), string(v.End))
	}
	if s.IsRange() {
		v.Start, v.End = s.Start, s.End
		return v, containingPath(snap.Root, string(s.Start), string(s.End))
	}
	v.Node = snap.Root
	return v, []*keyspace.Node{snap.Root}
}

// containingPath returns the path from root to the deepest node whose
// range holds all of [start, end).
func containingPath(root *keyspace.Node, start, end string) []*keyspace.Node {
	path := root.Find(start)
	for i := len(path) - 1; i > 0; i-- {
		n := path[i]
		if string(n.Start) <= start && !keyspace.EndBefore(string(n.End), end) && !n.IsLeaf() {
			return path[:i+1]
		}
	}
	return path[:1]
}

// Cycle returns the item after current in items (the first when current
// is not there).
func Cycle[T comparable](items []T, current T) T {
	for i, item := range items {
		if item == current {
			return items[(i+1)%len(items)]
		}
	}
	return items[0]
}
