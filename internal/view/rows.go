package view

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// TopRows returns the rows of the largest-rows view: the largest by bytes,
// then the most versioned, each list as the snapshot holds it.
func TopRows(snap *keyspace.Snapshot) (rows []keyspace.RowStat, bySize int) {
	if snap == nil {
		return nil, 0
	}
	rows = append(rows, snap.Largest...)
	rows = append(rows, snap.MostVersioned...)
	return rows, len(snap.Largest)
}

// SelectedRow returns the row the state selects, if any.
func (f *Frame) SelectedRow() (keyspace.RowStat, bool) {
	rows, _ := TopRows(f.Snap)
	if len(rows) == 0 {
		return keyspace.RowStat{}, false
	}
	return rows[ClampIndex(f.State.Line(PaneRows), len(rows))], true
}

// rowsPane is the largest-rows view: the top rows by size and by versions
// of one column; enter shows the selected row's columns.
type rowsPane struct{}

func (rowsPane) id() Pane           { return PaneRows }
func (rowsPane) place() placement   { return placeMain }
func (rowsPane) tabStop() bool      { return false }
func (rowsPane) showsBuckets() bool { return false }
func (rowsPane) open() key.Binding {
	return key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "largest rows"))
}
func (rowsPane) help(s *Shared) help.KeyMap { return rowsHelp{s.Keys} }

func (rowsPane) details(f *Frame, r Rect) []string { return f.rowDetails(r) }

func (rowsPane) lines(f *Frame, r Rect, _ bool) []string {
	if f.State.RowColumns {
		return f.rowColumnsLines(r)
	}
	return f.rowsLines(r)
}

// key moves through the rows; enter shows the selected row's columns, esc
// goes back to the list and then to the heatmap.
func (rowsPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.Keys
	rows, _ := TopRows(f.Snap)
	n := len(rows)
	if i, ok := ListMove(k, msg, s.Line(PaneRows), n, 0); ok {
		s.SetLine(PaneRows, i)
		return nil
	}
	switch {
	case key.Matches(msg, k.Drill):
		if n > 0 {
			s.RowColumns = !s.RowColumns
		}
	case key.Matches(msg, k.Back):
		if s.RowColumns {
			s.RowColumns = false
		} else {
			*s = s.Showing(PaneHeatmap)
		}
	}
	return nil
}

// click selects the row on the clicked line of the list.
func (rowsPane) click(f *Frame, s *ViewState, r Rect, _, y int) Action {
	if s.RowColumns {
		return nil
	}
	items, selectedLine := rowItems(f)
	first := ScrollStart(selectedLine, len(items), listLines(r))
	if i := first + y - r.Y - listHeadLines; y >= r.Y+listHeadLines && i < len(items) && items[i].index >= 0 {
		s.SetLine(PaneRows, items[i].index)
	}
	return nil
}

func (rowsPane) wheel(f *Frame, s *ViewState, delta int) {
	rows, _ := TopRows(f.Snap)
	s.SetLine(PaneRows, ClampIndex(s.Line(PaneRows)+delta, len(rows)))
}

// rowItem is one line of the largest-rows list: a row (index into
// [TopRows]) or a section heading (index −1).
type rowItem struct {
	text  string
	index int
}

// rowItems lists the largest-rows list's lines, sized for the main area,
// and which line holds the selected row.
func rowItems(f *Frame) (items []rowItem, selectedLine int) {
	st := &f.Styles
	rows, bySize := TopRows(f.Snap)
	table := newRowTable(rows, f.Layout.Main.W)
	items = []rowItem{{st.Strong.Render(" By size"), -1}}
	for i, row := range rows {
		if i == bySize {
			items = append(items, rowItem{st.Strong.Render(" By versions of one column"), -1})
		}
		items = append(items, rowItem{table.line(keyWithTime(row.Key, f.delimiters(), table.keyWidth-1), rowFigures(row)), i})
	}
	selected := ClampIndex(f.State.Line(PaneRows), len(rows))
	for i, it := range items {
		if it.index == selected {
			selectedLine = i
		}
	}
	return items, selectedLine
}

// rowNumberColumn is the width of a number column of a row's columns.
const rowNumberColumn = 9

// rowHeads are the largest-rows list's number columns.
var rowHeads = []string{"size", "cells", "columns", "families", "versions"}

// rowFigures are a row's numbers, in the order of [rowHeads].
func rowFigures(row keyspace.RowStat) []string {
	return []string{heatmap.UnitBytes.Format(float64(row.Bytes)), units.Thousands(row.Cells), units.Thousands(row.Columns),
		strconv.Itoa(row.Families), units.Thousands(row.MaxVersions)}
}

// rowTable lays out the largest-rows list: each number column as wide as
// its heading or its widest figure, and the key column every cell left,
// so that a key is cut only when the numbers leave it too little room.
type rowTable struct {
	keyWidth int
	widths   []int
}

// rowColumnGap is the space before each number column.
const rowColumnGap = 2

func newRowTable(rows []keyspace.RowStat, width int) rowTable {
	t := rowTable{widths: make([]int, len(rowHeads))}
	for i, head := range rowHeads {
		t.widths[i] = len(head) + rowColumnGap
	}
	for _, row := range rows {
		for i, figure := range rowFigures(row) {
			t.widths[i] = max(t.widths[i], ansi.StringWidth(figure)+rowColumnGap)
		}
	}
	t.keyWidth = width - 2
	for _, w := range t.widths {
		t.keyWidth -= w
	}
	t.keyWidth = max(t.keyWidth, 12)
	return t
}

// line writes one line of the list: key, then the figures right-aligned.
func (t rowTable) line(key string, figures []string) string {
	text := padRight(key, t.keyWidth)
	for i, figure := range figures {
		text += padLeft(figure, t.widths[i])
	}
	return text
}

// rowsLines draws the largest-rows view: the top rows by size and by
// versions with their key, size, cells, columns, families and versions.
func (f *Frame) rowsLines(r Rect) []string {
	st := &f.Styles
	rows, bySize := TopRows(f.Snap)
	lines := []string{paneTitle(st, "Largest rows", fmt.Sprintf("%d by size · %d by versions", bySize, len(rows)-bySize), r.W, true)}
	if len(rows) == 0 {
		return append(lines, "", " "+st.Muted.Render("no rows read yet"))
	}
	head := "  " + newRowTable(rows, r.W).line("row key", rowHeads)
	lines = append(lines, st.Muted.Render(fitLine(head, r.W)))
	items, selectedLine := rowItems(f)
	selected := ClampIndex(f.State.Line(PaneRows), len(rows))
	first := ScrollStart(selectedLine, len(items), listLines(r))
	for _, it := range items[first:min(len(items), first+listLines(r))] {
		if it.index < 0 {
			lines = append(lines, it.text)
			continue
		}
		lines = append(lines, f.listLine(it.index == selected, true, it.text, "", r.W))
	}
	return lines
}

// rowDetails describes the selected row in the details pane.
func (f *Frame) rowDetails(r Rect) []string {
	st := &f.Styles
	row, ok := f.SelectedRow()
	if !ok {
		return []string{paneTitle(st, "Row", "", r.W, false)}
	}
	valueWidth := r.W - detailLabelColumn - 2
	hint := "enter: columns"
	if f.State.RowColumns {
		hint = "esc: list"
	}
	lines := []string{
		paneTitle(st, "Row", hint, r.W, false),
		f.field("key", cutKeySegments(row.Key, f.delimiters(), valueWidth)),
	}
	if t := keyTime(row.Key, f.delimiters()); t != "" {
		lines = append(lines, f.field("", st.Muted.Render(Cut(t, valueWidth))))
	}
	lines = append(lines,
		f.field("size", heatmap.UnitBytes.Format(float64(row.Bytes))+"   cells "+strconv.FormatInt(row.Cells, 10)),
		f.field("columns", fmt.Sprintf("%d in %d families", row.Columns, row.Families)),
		f.field("versions", fmt.Sprintf("at most %d per column", row.MaxVersions)),
		f.field("max cell", heatmap.UnitBytes.Format(float64(row.MaxCellBytes))),
	)
	if row.Cells > 0 {
		lines = append(lines, f.field("writes", microsTime(row.FirstWrite)+" → "+microsTime(row.LastWrite)))
	}
	if len(row.TopColumns) > 0 && !f.State.RowColumns {
		lines = append(lines, " "+st.Strong.Render("Largest columns"))
		for _, c := range row.TopColumns {
			lines = append(lines, "   "+st.Text.Render(columnName(c, r.W/2))+st.Muted.Render("  "+units.Plural(c.Versions, "version")+"  "+heatmap.UnitBytes.Format(float64(c.Bytes))))
		}
	}
	return lines
}

// rowColumnsLines draws the selected row's columns in the main pane.
func (f *Frame) rowColumnsLines(r Rect) []string {
	st := &f.Styles
	row, ok := f.SelectedRow()
	if !ok {
		return []string{paneTitle(st, "Columns", "", r.W, true)}
	}
	lines := []string{paneTitle(st, "Columns of "+KeyText(row.Key, r.W/2), "esc: back to the list", r.W, true)}

	nameWidth := max(r.W-2-4*rowNumberColumn, 12)
	lines = append(lines, st.Muted.Render(fitLine("  "+padRight("family:qualifier", nameWidth)+padLeft("versions", rowNumberColumn)+
		padLeft("bytes", rowNumberColumn)+padLeft("largest", rowNumberColumn)+padLeft("share", rowNumberColumn), r.W)))
	for _, c := range row.TopColumns {
		share := 0.0
		if row.Bytes > 0 {
			share = float64(c.Bytes) / float64(row.Bytes)
		}
		lines = append(lines, "  "+st.Text.Render(padRight(columnName(c, nameWidth-1), nameWidth)+padLeft(strconv.FormatInt(c.Versions, 10), rowNumberColumn)+
			padLeft(heatmap.UnitBytes.Format(float64(c.Bytes)), rowNumberColumn)+padLeft(heatmap.UnitBytes.Format(float64(c.MaxBytes)), rowNumberColumn)+
			padLeft(heatmap.UnitShare.Format(share), rowNumberColumn)))
	}
	if int64(len(row.TopColumns)) < row.Columns {
		lines = append(lines, "  "+st.Muted.Render(fmt.Sprintf("… and %d smaller columns", row.Columns-int64(len(row.TopColumns)))))
	}
	versions := "one version per column"
	if row.MaxVersions > 1 {
		versions = fmt.Sprintf("up to %d versions of one column: every write kept a new cell (only versions kept by GC are visible)", row.MaxVersions)
	}
	lines = append(lines, "", " "+st.Muted.Render(versions))
	return lines
}

// columnName writes family:qualifier with the qualifier escaped.
func columnName(c keyspace.ColumnStat, width int) string {
	return Cut(keyspace.Printable(c.Family)+":"+c.Qualifier.String(), width)
}

// rowsHelp is the key help of the largest-rows view.
type rowsHelp struct{ k KeyMap }

// ShortHelp lists the largest-rows view's keys.
func (h rowsHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, relabel(h.k.Drill, "columns"), h.k.Back, findingsPane{}.open(), relabel(h.k.Copy, "copy row key"), h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists the largest-rows view's keys by theme.
func (h rowsHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom},
		{relabel(h.k.Drill, "columns"), h.k.Back, h.k.Focus},
		{findingsPane{}.open(), h.k.Tables, relabel(h.k.Copy, "copy row key"), h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}
