package tui

import (
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// hotPane is the hot-rows view of a traffic recording: the rows read and
// written most often and the key ranges scanned most often, with their
// counts; enter shows the selected one in the heatmap.
type hotPane struct{}

func (hotPane) id() Pane           { return PaneHot }
func (hotPane) place() placement   { return placeMain }
func (hotPane) tabStop() bool      { return false }
func (hotPane) showsBuckets() bool { return false }
func (hotPane) open() key.Binding {
	return key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "hot rows"))
}
func (hotPane) help(s *shared) help.KeyMap { return listHelp{s.keys} }

// PaneHot shows the hottest rows and scans of a traffic recording.
const PaneHot Pane = "hot"

// Column widths of the hot-rows view: the count (a range, "1,200–1,350",
// where the bounded counter had to estimate it) and the bytes (or rows).
const (
	hotCountColumn  = 13
	hotVolumeColumn = 14
)

// hotItem is one line of the hot-rows view: a section heading (kind ""),
// or a hot row or scanned range.
type hotItem struct {
	kind  string // "read", "written", "scanned"
	row   keyspace.HotRow
	scan  keyspace.HotScan
	title string
}

// hotItems lists the view's lines: headings and items, in order.
func hotItems(snap *keyspace.Snapshot) []hotItem {
	if !snap.HasTraffic() {
		return nil
	}
	t := snap.Traffic
	var items []hotItem
	for _, section := range []struct {
		title, kind string
		rows        []keyspace.HotRow
	}{{"Most read rows", "read", t.TopReads}, {"Most written rows", "written", t.TopWrites}} {
		rows := keyspace.RepeatedRows(section.rows)
		if len(rows) == 0 {
			continue
		}
		items = append(items, hotItem{title: section.title})
		for _, row := range rows {
			items = append(items, hotItem{kind: section.kind, row: row})
		}
	}
	if len(t.TopScans) > 0 {
		items = append(items, hotItem{title: "Most scanned key ranges"})
		for _, scan := range t.TopScans {
			items = append(items, hotItem{kind: "scanned", scan: scan})
		}
	}
	return items
}

// selectable returns the indexes of items that are not headings.
func selectable(items []hotItem) []int {
	var out []int
	for i, it := range items {
		if it.kind != "" {
			out = append(out, i)
		}
	}
	return out
}

// selectedHot returns the selected item, if any.
func (f *frame) selectedHot() (hotItem, bool) {
	items := hotItems(f.snap)
	picks := selectable(items)
	if len(picks) == 0 {
		return hotItem{}, false
	}
	return items[picks[clampIndex(f.state.Line(PaneHot), len(picks))]], true
}

func (hotPane) lines(f *frame, r rect, _ bool) []string {
	st := &f.styles
	items := hotItems(f.snap)
	picks := selectable(items)
	lines := []string{paneTitle(st, "Hot rows", fmt.Sprintf("%d rows and ranges", len(picks)), r.w, true)}
	if len(picks) == 0 {
		return append(lines, "", " "+st.Muted.Render("no traffic recorded: btviz record (or btviz --emulator --traffic NAME) records an application's reads and writes"))
	}
	keyWidth := max(r.w-4-hotCountColumn-hotVolumeColumn, 12)
	lines = append(lines, st.Muted.Render(fitLine("  "+padRight("row key or range", keyWidth)+padLeft("count", hotCountColumn)+padLeft("bytes or rows", hotVolumeColumn), r.w)))
	selected := picks[clampIndex(f.state.Line(PaneHot), len(picks))]
	first := scrollStart(selected, len(items), listLines(r))
	for i := first; i < len(items) && i < first+listLines(r); i++ {
		it := items[i]
		if it.kind == "" {
			lines = append(lines, " "+st.Strong.Render(it.title))
			continue
		}
		lines = append(lines, f.listLine(i == selected, true, hotLine(it, keyWidth), "", r.w))
	}
	return lines
}

// hotLine writes one hot row or range: key, count and bytes (or rows a
// scan returned).
func hotLine(it hotItem, keyWidth int) string {
	if it.kind == "scanned" {
		return padRight(cut(rangeText(it.scan.Start, it.scan.End), keyWidth-1), keyWidth) +
			padLeft(units.CountRange(it.scan.Count-it.scan.Error, it.scan.Count), hotCountColumn) + padLeft(units.Short(it.scan.Rows)+" rows", hotVolumeColumn)
	}
	return padRight(keyText(it.row.Key, keyWidth-1), keyWidth) +
		padLeft(units.CountRange(it.row.Count-it.row.Error, it.row.Count), hotCountColumn) + padLeft(units.Bytes(it.row.Bytes), hotVolumeColumn)
}

func (hotPane) details(f *frame, r rect) []string {
	st := &f.styles
	it, ok := f.selectedHot()
	if !ok {
		return []string{paneTitle(st, "Hot row", "", r.w, false)}
	}
	total := f.snap.TrafficTotals()
	valueWidth := r.w - detailLabelColumn - 2
	if it.kind == "scanned" {
		s := it.scan
		perScan := 0.0
		if s.Count > 0 {
			perScan = s.Rows / s.Count
		}
		return []string{
			paneTitle(st, "Scanned range", "enter: show it", r.w, false),
			f.field("range", cut(rangeText(s.Start, s.End), valueWidth)),
			f.field("scans", units.CountRange(s.Count-s.Error, s.Count)+fmt.Sprintf("  (%s of %s scans)", percentOf(s.Count, total.Scans), units.Count(total.Scans))),
			f.field("rows", units.Count(s.Rows)+" returned, "+units.Short(perScan)+" a scan"),
		}
	}
	row := it.row
	of, all := total.RowsRead, "rows read"
	if it.kind == "written" {
		of, all = total.RowsWritten, "rows written"
	}
	return []string{
		paneTitle(st, "Hot row", "enter: show it", r.w, false),
		f.field("key", keyText(row.Key, valueWidth)),
		f.field(it.kind, units.CountRange(row.Count-row.Error, row.Count)+" times  ("+percentOf(row.Count, of)+" of "+all+")"),
		f.field("bytes", units.Bytes(row.Bytes)),
	}
}

// percentOf writes part/whole as a percentage, 0% for an empty whole.
func percentOf(part, whole float64) string {
	if whole <= 0 {
		return units.Percent(0)
	}
	return units.Percent(part / whole)
}

// key moves through the hot rows; enter shows the selected row or range
// in the heatmap, esc goes back to the heatmap.
func (hotPane) key(f *frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.keys
	n := len(selectable(hotItems(f.snap)))
	if i, ok := listMove(k, msg, s.Line(PaneHot), n, 0); ok {
		s.SetLine(PaneHot, i)
		return nil
	}
	switch {
	case key.Matches(msg, k.Drill):
		if it, ok := f.selectedHot(); ok {
			where := it.row.Key
			if it.kind == "scanned" {
				where = it.scan.Start
			}
			return Jump{Key: string(where)}
		}
	case key.Matches(msg, k.Back):
		*s = s.Showing(PaneHeatmap)
	}
	return nil
}

// click selects the item on the clicked line.
func (hotPane) click(f *frame, s *ViewState, r rect, _, y int) Action {
	items := hotItems(f.snap)
	picks := selectable(items)
	if len(picks) == 0 {
		return nil
	}
	selected := picks[clampIndex(s.Line(PaneHot), len(picks))]
	i := scrollStart(selected, len(items), listLines(r)) + y - r.y - listHeadLines
	for p, index := range picks {
		if index == i && y >= r.y+listHeadLines {
			s.SetLine(PaneHot, p)
		}
	}
	return nil
}

func (hotPane) wheel(f *frame, s *ViewState, delta int) {
	s.SetLine(PaneHot, clampIndex(s.Line(PaneHot)+delta, len(selectable(hotItems(f.snap)))))
}

// listHelp is the key help of a list pane whose enter shows the selected
// item in the heatmap: the hot rows, the datasets.
type listHelp struct{ k KeyMap }

// ShortHelp lists the list pane's keys.
func (h listHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, relabel(h.k.Drill, "show it"), h.k.Back, findingsPane{}.open(), h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists the list pane's keys by theme.
func (h listHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom},
		{relabel(h.k.Drill, "show it"), h.k.Back, h.k.Focus},
		{findingsPane{}.open(), h.k.Tables, h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}
