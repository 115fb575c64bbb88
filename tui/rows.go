package tui

import (
	"fmt"
	"strconv"

	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/keyspace"
)

// Column widths of the largest-rows view.
const (
	rowNumberColumn = 9
	rowSmallColumn  = 9
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
	return rows[clampIndex(f.state.Row, len(rows))], true
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
	numbers := rowNumberColumn + 4*rowSmallColumn
	keyWidth := max(r.w-2-numbers, 12)
	head := "  " + padRight("row key", keyWidth) + padLeft("size", rowNumberColumn) + padLeft("cells", rowSmallColumn) +
		padLeft("columns", rowSmallColumn) + padLeft("families", rowSmallColumn) + padLeft("versions", rowSmallColumn)
	type item struct {
		text  string
		index int // −1 for a section heading
	}
	items := []item{{st.Strong.Render(" By size"), -1}}
	for i, row := range rows {
		if i == bySize {
			items = append(items, item{st.Strong.Render(" By versions of one column"), -1})
		}
		text := padRight(keyText(row.Key, keyWidth-1), keyWidth) + padLeft(heatmap.UnitBytes.Format(float64(row.Bytes)), rowNumberColumn) +
			padLeft(strconv.FormatInt(row.Cells, 10), rowSmallColumn) + padLeft(strconv.FormatInt(row.Columns, 10), rowSmallColumn) +
			padLeft(strconv.Itoa(row.Families), rowSmallColumn) + padLeft(strconv.FormatInt(row.MaxVersions, 10), rowSmallColumn)
		items = append(items, item{text, i})
	}
	selected := clampIndex(f.state.Row, len(rows))
	selectedLine := 0
	for i, it := range items {
		if it.index == selected {
			selectedLine = i
		}
	}
	lines = append(lines, st.Muted.Render(fitLine(head, r.w)))
	visible := max(r.h-2, 1)
	first := scrollStart(selectedLine, len(items), visible)
	for _, it := range items[first:min(len(items), first+visible)] {
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
		f.field("key", keyText(row.Key, valueWidth)),
		f.field("size", heatmap.UnitBytes.Format(float64(row.Bytes))+"   cells "+strconv.FormatInt(row.Cells, 10)),
		f.field("columns", fmt.Sprintf("%d in %d families", row.Columns, row.Families)),
		f.field("versions", fmt.Sprintf("at most %d per column", row.MaxVersions)),
		f.field("max cell", heatmap.UnitBytes.Format(float64(row.MaxCellBytes))),
	}
	if row.Cells > 0 {
		lines = append(lines, f.field("writes", microsTime(row.FirstWrite)+" → "+microsTime(row.LastWrite)))
	}
	if len(row.TopColumns) > 0 && !f.state.RowColumns {
		lines = append(lines, " "+st.Strong.Render("Largest columns"))
		for _, c := range row.TopColumns {
			lines = append(lines, "   "+st.Text.Render(columnName(c, r.w/2))+st.Muted.Render("  "+plural(c.Versions, "version")+"  "+heatmap.UnitBytes.Format(float64(c.Bytes))))
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

// plural writes n and a noun, with an s unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}
