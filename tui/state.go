package tui

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/keyspace"
)

// Pane names the part of the screen that has the keyboard, and with it
// what the main area shows. The names are stable: they are the values of
// `btviz export --view`.
type Pane string

const (
	// PaneHeatmap shows the heatmap; the arrows move the bucket selection.
	PaneHeatmap Pane = "heatmap"
	// PanePrefixes shows the same buckets as a table of numbers.
	PanePrefixes Pane = "prefixes"
	// PaneFindings gives the keyboard to the findings list and shows the
	// selected finding in the details pane.
	PaneFindings Pane = "findings"
	// PaneRows shows the largest and most versioned rows.
	PaneRows Pane = "rows"
)

// Panes returns every pane in the order tab visits them (rows is reached
// with its own key).
func Panes() []Pane { return []Pane{PaneHeatmap, PanePrefixes, PaneFindings, PaneRows} }

// ParsePane returns the pane named name; the error lists the valid names.
func ParsePane(name string) (Pane, error) {
	for _, p := range Panes() {
		if string(p) == name {
			return p, nil
		}
	}
	names := make([]string, len(Panes()))
	for i, p := range Panes() {
		names[i] = string(p)
	}
	return "", fmt.Errorf("unknown view %q: use one of %s", name, strings.Join(names, ", "))
}

// ViewState is everything about what the TUI shows that is not data: where
// in the key space, how, what is selected and which pane has the
// keyboard. Its zero value is the whole table's writes over time in the
// heatmap pane, first bucket selected. [RenderFrame] draws a snapshot in
// a ViewState; the interactive program keeps one per drill level.
type ViewState struct {
	// Pane has the keyboard (default [PaneHeatmap]).
	Pane Pane
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
	// [DefaultBucketing], linear).
	Metric    heatmap.Metric
	Bucketing heatmap.Bucketing
	Scale     heatmap.Scale
	// Selected is the selected key bucket.
	Selected int
	// TimeColumn is the selected time column counted from 1; 0 (or out
	// of range) selects none.
	TimeColumn int
	// Finding is the selected finding of the findings list.
	Finding int
	// Row is the selected row of the largest-rows view; RowColumns shows
	// its columns instead of the list.
	Row        int
	RowColumns bool
	// FullHelp shows every key instead of the one-line help.
	FullHelp bool
}

// DefaultBucketing is the bucketing a view starts with: one row per child
// prefix, hot children kept apart, which reads best while drilling down.
const DefaultBucketing = heatmap.BucketPrefix

// normalized fills the defaults of the zero fields.
func (s ViewState) normalized() ViewState {
	if s.Pane == "" {
		s.Pane = PaneHeatmap
	}
	if s.Metric == "" {
		s.Metric = heatmap.MetricWrites
	}
	if s.Bucketing == "" {
		s.Bucketing = DefaultBucketing
	}
	if s.Scale.Kind == "" {
		s.Scale.Kind = heatmap.ScaleLinear
	}
	return s
}

// column returns the selected time column counted from 0, or −1.
func (s ViewState) column() int { return s.TimeColumn - 1 }

// isRange reports whether the state names an explicit key range.
func (s ViewState) isRange() bool { return s.Prefix == "" && (s.Start != "" || s.End != "") }

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
	if s.isRange() {
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

// cycle returns the item after current in items (the first when current
// is not there).
func cycle[T comparable](items []T, current T) T {
	for i, item := range items {
		if item == current {
			return items[(i+1)%len(items)]
		}
	}
	return items[0]
}
