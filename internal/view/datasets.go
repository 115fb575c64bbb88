package view

import (
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// datasetsPane lists the table's datasets ([diagnose.Datasets]): the keys
// of each top-level form, each diagnosed on its own, with its range and
// its shares of the rows, bytes, writes and recorded operations; enter
// shows the selected dataset in the heatmap.
type datasetsPane struct{}

// PaneDatasets lists the table's datasets.
const PaneDatasets Pane = "datasets"

func (datasetsPane) id() Pane           { return PaneDatasets }
func (datasetsPane) place() placement   { return placeMain }
func (datasetsPane) tabStop() bool      { return false }
func (datasetsPane) showsBuckets() bool { return false }
func (datasetsPane) open() key.Binding {
	return key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "datasets"))
}
func (datasetsPane) help(s *Shared) help.KeyMap { return listHelp{s.Keys} }

// shareColumnWidth is the width of a share column of the datasets pane.
const shareColumnWidth = 11

// datasets returns the datasets of the frame's snapshot, found once per
// snapshot.
func (f *Frame) datasets() []diagnose.Dataset {
	if f.Snap == nil {
		return nil
	}
	if f.Shared.datasetsOf != f.Snap {
		f.Shared.datasetsOf, f.Shared.datasetList = f.Snap, diagnose.Datasets(f.Snap)
	}
	return f.Shared.datasetList
}

func (datasetsPane) lines(f *Frame, r Rect, _ bool) []string {
	st := &f.Styles
	list := f.datasets()
	right := "one dataset: the whole table"
	if len(list) != 1 {
		right = fmt.Sprintf("%d datasets, each diagnosed on its own", len(list))
	}
	lines := []string{paneTitle(st, "Datasets", right, r.W, true)}
	if len(list) == 0 {
		return append(lines, "", " "+st.Muted.Render("no keys to tell datasets by: scan the table or record its traffic"))
	}
	traffic := f.Snap.HasTraffic()
	columns := []string{"rows", "of rows", "of bytes", "of writes"}
	if traffic {
		columns = append(columns, "of ops")
	}
	nameWidth := max(r.W-4-numberColumn-(len(columns)-1)*shareColumnWidth, 16)
	head := "  " + padRight("dataset and range", nameWidth) + padLeft(columns[0], numberColumn)
	for _, c := range columns[1:] {
		head += padLeft(c, shareColumnWidth)
	}
	lines = append(lines, st.Muted.Render(fitLine(head, r.W)))
	names := 0
	for _, ds := range list {
		names = max(names, len(escape.Text(ds.Name)))
	}
	names = min(names, nameWidth/2)
	selected := ClampIndex(f.State.Line(PaneDatasets), len(list))
	first := ScrollStart(selected, len(list), listLines(r))
	for i := first; i < len(list) && i < first+listLines(r); i++ {
		ds := list[i]
		name := padRight(Cut(escape.Text(ds.Name), names), names)
		text := padRight(Cut(name+"  "+RangeText(ds.Start, ds.End), nameWidth-1), nameWidth) +
			padLeft(units.Count(ds.Rows), numberColumn) + padLeft(units.Percent(ds.RowShare), shareColumnWidth) +
			padLeft(units.Percent(ds.ByteShare), shareColumnWidth) + padLeft(units.Percent(ds.WriteShare), shareColumnWidth)
		if traffic {
			text += padLeft(units.Percent(ds.OpShare), shareColumnWidth)
		}
		lines = append(lines, f.listLine(i == selected, true, text, "", r.W))
	}
	return lines
}

func (datasetsPane) details(f *Frame, r Rect) []string {
	st := &f.Styles
	list := f.datasets()
	if len(list) == 0 {
		return []string{paneTitle(st, "Dataset", "", r.W, false)}
	}
	ds := list[ClampIndex(f.State.Line(PaneDatasets), len(list))]
	valueWidth := r.W - detailLabelColumn - 2
	warnings := 0
	for _, fi := range f.Findings {
		if fi.Dataset == ds.Name && fi.Severity >= diagnose.SeverityWarning {
			warnings++
		}
	}
	lines := []string{
		paneTitle(st, "Dataset", "enter: show it", r.W, false),
		f.field("name", Cut(escape.Text(ds.Name), valueWidth)),
		f.field("range", Cut(RangeText(ds.Start, ds.End), valueWidth)),
		f.field("rows", units.Count(ds.Rows)+"  ("+units.Percent(ds.RowShare)+" of the table)"),
		f.field("bytes", units.Bytes(ds.Bytes)+"  ("+units.Percent(ds.ByteShare)+")"),
		f.field("writes", units.Percent(ds.WriteShare)+" of the cell versions stored"),
	}
	if f.Snap.HasTraffic() {
		lines = append(lines, f.field("ops", units.Percent(ds.OpShare)+" of the recorded operations"))
	}
	if len(list) > 1 {
		lines = append(lines, f.field("findings", fmt.Sprintf("%d warning or worse about it", warnings)))
	}
	return lines
}

// key moves through the datasets; enter shows the selected one in the
// heatmap (its prefix, or its range), esc goes back to the heatmap.
func (datasetsPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.Keys
	list := f.datasets()
	if i, ok := ListMove(k, msg, s.Line(PaneDatasets), len(list), 0); ok {
		s.SetLine(PaneDatasets, i)
		return nil
	}
	switch {
	case key.Matches(msg, k.Drill):
		if len(list) > 0 {
			return ShowDataset{list[ClampIndex(s.Line(PaneDatasets), len(list))]}
		}
	case key.Matches(msg, k.Back):
		*s = s.Showing(PaneHeatmap)
	}
	return nil
}

// click selects the dataset on the clicked line.
func (datasetsPane) click(f *Frame, s *ViewState, r Rect, _, y int) Action {
	list := f.datasets()
	first := ScrollStart(ClampIndex(s.Line(PaneDatasets), len(list)), len(list), listLines(r))
	if i := first + y - r.Y - listHeadLines; y >= r.Y+listHeadLines && i < len(list) {
		s.SetLine(PaneDatasets, i)
	}
	return nil
}

func (datasetsPane) wheel(f *Frame, s *ViewState, delta int) {
	s.SetLine(PaneDatasets, ClampIndex(s.Line(PaneDatasets)+delta, len(f.datasets())))
}
