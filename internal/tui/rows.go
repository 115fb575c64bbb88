package tui

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

// topRows returns the rows of the largest-rows view: the largest by bytes,
// then the most versioned, each list as the snapshot holds it.
func topRows(snap *keyspace.Snapshot) (rows []keyspace.RowStat, bySize int) {
	if snap == nil {
		return nil, 0
	}
	rows = append(rows, snap.Largest...)
	rows = append(rows, snap.MostVersioned...)
	return rows, len(snap.Largest)
}

// selectedRow returns the row the state selects, if any.
func (f *frame) selectedRow() (keyspace.RowStat, bool) {
	rows, _ := topRows(f.snap)
	if len(rows) == 0 {
		return keyspace.RowStat{}, false
	}
	return rows[clampIndex(f.state.Line(PaneRows), len(rows))], true
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
func (rowsPane) help(s *shared) help.KeyMap { return rowsHelp{s.keys} }

func (rowsPane) details(f *frame, r rect) []string { return f.rowDetails(r) }

func (rowsPane) lines(f *frame, r rect, _ bool) []string {
	if f.state.RowColumns {
		return f.rowColumnsLines(r)
	}
	return f.rowsLines(r)
}

// key moves through the rows; enter shows the selected row's columns, esc
// goes back to the list and then to the heatmap.
func (rowsPane) key(f *frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.keys
	rows, _ := topRows(f.snap)
	n := len(rows)
	if i, ok := listMove(k, msg, s.Line(PaneRows), n, 0); ok {
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
func (rowsPane) click(f *frame, s *ViewState, r rect, _, y int) Action {
	if s.RowColumns {
		return nil
	}
	items, selectedLine := rowItems(f)
	first := scrollStart(selectedLine, len(items), listLines(r))
	if i := first + y - r.y - listHeadLines; y >= r.y+listHeadLines && i < len(items) && items[i].index >= 0 {
		s.SetLine(PaneRows, items[i].index)
	}
	return nil
}

func (rowsPane) wheel(f *frame, s *ViewState, delta int) {
	rows, _ := topRows(f.snap)
	s.SetLine(PaneRows, clampIndex(s.Line(PaneRows)+delta, len(rows)))
}

// rowItem is one line of the largest-rows list: a row (index into
// [topRows]) or a section heading (index −1).
type rowItem struct {
	text  string
	index int
}

// rowItems lists the largest-rows list's lines, sized for the main area,
// and which line holds the selected row.
func rowItems(f *frame) (items []rowItem, selectedLine int) {
	st := &f.styles
	rows, bySize := topRows(f.snap)
	table := newRowTable(rows, f.layout.main.w)
	items = []rowItem{{st.Strong.Render(" By size"), -1}}
	for i, row := range rows {
		if i == bySize {
			items = append(items, rowItem{st.Strong.Render(" By versions of one column"), -1})
		}
		items = append(items, rowItem{table.line(keyWithTime(row.Key, f.delimiters(), table.keyWidth-1), rowFigures(row)), i})
	}
	selected := clampIndex(f.state.Line(PaneRows), len(rows))
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
func (f *frame) rowsLines(r rect) []string {
	st := &f.styles
	rows, bySize := topRows(f.snap)
	lines := []string{paneTitle(st, "Largest rows", fmt.Sprintf("%d by size · %d by versions", bySize, len(rows)-bySize), r.w, true)}
	if len(rows) == 0 {
		return append(lines, "", " "+st.Muted.Render("no rows read yet"))
	}
	head := "  " + newRowTable(rows, r.w).line("row key", rowHeads)
	lines = append(lines, st.Muted.Render(fitLine(head, r.w)))
	items, selectedLine := rowItems(f)
	selected := clampIndex(f.state.Line(PaneRows), len(rows))
	first := scrollStart(selectedLine, len(items), listLines(r))
	for _, it := range items[first:min(len(items), first+listLines(r))] {
		if it.index < 0 {
			lines = append(lines, it.text)
			continue
		}
		lines = append(lines, f.listLine(it.index == selected, true, it.text, "", r.w))
	}
	return lines
}

// rowDetails describes the selected row in the details pane.
func (f *frame) rowDetails(r rect) []string {
	st := &f.styles
	row, ok := f.selectedRow()
	if !ok {
		return []string{paneTitle(st, "Row", "", r.w, false)}
	}
	valueWidth := r.w - detailLabelColumn - 2
	hint := "enter: columns"
	if f.state.RowColumns {
		hint = "esc: list"
	}
	lines := []string{
		paneTitle(st, "Row", hint, r.w, false),
		f.field("key", cutKeySegments(row.Key, f.delimiters(), valueWidth)),
	}
	if t := keyTime(row.Key, f.delimiters()); t != "" {
		lines = append(lines, f.field("", st.Muted.Render(cut(t, valueWidth))))
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
	if len(row.TopColumns) > 0 && !f.state.RowColumns {
		lines = append(lines, " "+st.Strong.Render("Largest columns"))
		for _, c := range row.TopColumns {
			lines = append(lines, "   "+st.Text.Render(columnName(c, r.w/2))+st.Muted.Render("  "+units.Plural(c.Versions, "version")+"  "+heatmap.UnitBytes.Format(float64(c.Bytes))))
		}
	}
	return lines
}

// rowColumnsLines draws the selected row's columns in the main pane.
func (f *frame) rowColumnsLines(r rect) []string {
	st := &f.styles
	row, ok := f.selectedRow()
	if !ok {
		return []string{paneTitle(st, "Columns", "", r.w, true)}
	}
	lines := []string{paneTitle(st, "Columns of "+keyText(row.Key, r.w/2), "esc: back to the list", r.w, true)}

	nameWidth := max(r.w-2-4*rowNumberColumn, 12)
	lines = append(lines, st.Muted.Render(fitLine("  "+padRight("family:qualifier", nameWidth)+padLeft("versions", rowNumberColumn)+
		padLeft("bytes", rowNumberColumn)+padLeft("largest", rowNumberColumn)+padLeft("share", rowNumberColumn), r.w)))
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
	return cut(keyspace.Printable(c.Family)+":"+c.Qualifier.String(), width)
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
