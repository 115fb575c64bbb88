package tui

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
func (datasetsPane) help(s *shared) help.KeyMap { return listHelp{s.keys} }

// shareColumnWidth is the width of a share column of the datasets pane.
const shareColumnWidth = 11

// datasets returns the datasets of the frame's snapshot, found once per
// snapshot.
func (f *frame) datasets() []diagnose.Dataset {
	if f.snap == nil {
		return nil
	}
	if f.shared.datasetsOf != f.snap {
		f.shared.datasetsOf, f.shared.datasetList = f.snap, diagnose.Datasets(f.snap)
	}
	return f.shared.datasetList
}

func (datasetsPane) lines(f *frame, r rect, _ bool) []string {
	st := &f.styles
	list := f.datasets()
	right := "one dataset: the whole table"
	if len(list) != 1 {
		right = fmt.Sprintf("%d datasets, each diagnosed on its own", len(list))
	}
	lines := []string{paneTitle(st, "Datasets", right, r.w, true)}
	if len(list) == 0 {
		return append(lines, "", " "+st.Muted.Render("no keys to tell datasets by: scan the table or record its traffic"))
	}
	traffic := f.snap.HasTraffic()
	columns := []string{"rows", "of rows", "of bytes", "of writes"}
	if traffic {
		columns = append(columns, "of ops")
	}
	nameWidth := max(r.w-4-numberColumn-(len(columns)-1)*shareColumnWidth, 16)
	head := "  " + padRight("dataset and range", nameWidth) + padLeft(columns[0], numberColumn)
	for _, c := range columns[1:] {
		head += padLeft(c, shareColumnWidth)
	}
	lines = append(lines, st.Muted.Render(fitLine(head, r.w)))
	names := 0
	for _, ds := range list {
		names = max(names, len(escape.Text(ds.Name)))
	}
	names = min(names, nameWidth/2)
	selected := clampIndex(f.state.Line(PaneDatasets), len(list))
	first := scrollStart(selected, len(list), listLines(r))
	for i := first; i < len(list) && i < first+listLines(r); i++ {
		ds := list[i]
		name := padRight(cut(escape.Text(ds.Name), names), names)
		text := padRight(cut(name+"  "+rangeText(ds.Start, ds.End), nameWidth-1), nameWidth) +
			padLeft(units.Count(ds.Rows), numberColumn) + padLeft(units.Percent(ds.RowShare), shareColumnWidth) +
			padLeft(units.Percent(ds.ByteShare), shareColumnWidth) + padLeft(units.Percent(ds.WriteShare), shareColumnWidth)
		if traffic {
			text += padLeft(units.Percent(ds.OpShare), shareColumnWidth)
		}
		lines = append(lines, f.listLine(i == selected, true, text, "", r.w))
	}
	return lines
}

func (datasetsPane) details(f *frame, r rect) []string {
	st := &f.styles
	list := f.datasets()
	if len(list) == 0 {
		return []string{paneTitle(st, "Dataset", "", r.w, false)}
	}
	ds := list[clampIndex(f.state.Line(PaneDatasets), len(list))]
	valueWidth := r.w - detailLabelColumn - 2
	warnings := 0
	for _, fi := range f.findings {
		if fi.Dataset == ds.Name && fi.Severity >= diagnose.SeverityWarning {
			warnings++
		}
	}
	lines := []string{
		paneTitle(st, "Dataset", "enter: show it", r.w, false),
		f.field("name", cut(escape.Text(ds.Name), valueWidth)),
		f.field("range", cut(rangeText(ds.Start, ds.End), valueWidth)),
		f.field("rows", units.Count(ds.Rows)+"  ("+units.Percent(ds.RowShare)+" of the table)"),
		f.field("bytes", units.Bytes(ds.Bytes)+"  ("+units.Percent(ds.ByteShare)+")"),
		f.field("writes", units.Percent(ds.WriteShare)+" of the cell versions stored"),
	}
	if f.snap.HasTraffic() {
		lines = append(lines, f.field("ops", units.Percent(ds.OpShare)+" of the recorded operations"))
	}
	if len(list) > 1 {
		lines = append(lines, f.field("findings", fmt.Sprintf("%d warning or worse about it", warnings)))
	}
	return lines
}

// key moves through the datasets; enter shows the selected one in the
// heatmap (its prefix, or its range), esc goes back to the heatmap.
func (datasetsPane) key(f *frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.keys
	list := f.datasets()
	if i, ok := listMove(k, msg, s.Line(PaneDatasets), len(list), 0); ok {
		s.SetLine(PaneDatasets, i)
		return nil
	}
	switch {
	case key.Matches(msg, k.Drill):
		if len(list) > 0 {
			return ShowDataset{list[clampIndex(s.Line(PaneDatasets), len(list))]}
		}
	case key.Matches(msg, k.Back):
		*s = s.Showing(PaneHeatmap)
	}
	return nil
}

// click selects the dataset on the clicked line.
func (datasetsPane) click(f *frame, s *ViewState, r rect, _, y int) Action {
	list := f.datasets()
	first := scrollStart(clampIndex(s.Line(PaneDatasets), len(list)), len(list), listLines(r))
	if i := first + y - r.y - listHeadLines; y >= r.y+listHeadLines && i < len(list) {
		s.SetLine(PaneDatasets, i)
	}
	return nil
}

func (datasetsPane) wheel(f *frame, s *ViewState, delta int) {
	s.SetLine(PaneDatasets, clampIndex(s.Line(PaneDatasets)+delta, len(f.datasets())))
}
