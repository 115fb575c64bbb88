package view

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
func (hotPane) help(s *Shared) help.KeyMap { return listHelp{s.Keys} }

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
func (f *Frame) selectedHot() (hotItem, bool) {
	items := hotItems(f.Snap)
	picks := selectable(items)
	if len(picks) == 0 {
		return hotItem{}, false
	}
	return items[picks[ClampIndex(f.State.Line(PaneHot), len(picks))]], true
}

func (hotPane) lines(f *Frame, r Rect, _ bool) []string {
	st := &f.Styles
	items := hotItems(f.Snap)
	picks := selectable(items)
	lines := []string{paneTitle(st, "Hot rows", fmt.Sprintf("%d rows and ranges", len(picks)), r.W, true)}
	if len(picks) == 0 {
		return append(lines, "", " "+st.Muted.Render("no traffic recorded: btviz record (or btviz --emulator --traffic NAME) records an application's reads and writes"))
	}
	keyWidth := max(r.W-4-hotCountColumn-hotVolumeColumn, 12)
	lines = append(lines, st.Muted.Render(fitLine("  "+padRight("row key or range", keyWidth)+padLeft("count", hotCountColumn)+padLeft("bytes or rows", hotVolumeColumn), r.W)))
	selected := picks[ClampIndex(f.State.Line(PaneHot), len(picks))]
	first := ScrollStart(selected, len(items), listLines(r))
	for i := first; i < len(items) && i < first+listLines(r); i++ {
		it := items[i]
		if it.kind == "" {
			lines = append(lines, " "+st.Strong.Render(it.title))
			continue
		}
		lines = append(lines, f.listLine(i == selected, true, hotLine(it, keyWidth), "", r.W))
	}
	return lines
}

// hotLine writes one hot row or range: key, count and bytes (or rows a
// scan returned).
func hotLine(it hotItem, keyWidth int) string {
	if it.kind == "scanned" {
		return padRight(Cut(RangeText(it.scan.Start, it.scan.End), keyWidth-1), keyWidth) +
			padLeft(units.CountRange(it.scan.Count-it.scan.Error, it.scan.Count), hotCountColumn) + padLeft(units.Short(it.scan.Rows)+" rows", hotVolumeColumn)
	}
	return padRight(KeyText(it.row.Key, keyWidth-1), keyWidth) +
		padLeft(units.CountRange(it.row.Count-it.row.Error, it.row.Count), hotCountColumn) + padLeft(units.Bytes(it.row.Bytes), hotVolumeColumn)
}

func (hotPane) details(f *Frame, r Rect) []string {
	st := &f.Styles
	it, ok := f.selectedHot()
	if !ok {
		return []string{paneTitle(st, "Hot row", "", r.W, false)}
	}
	total := f.Snap.TrafficTotals()
	valueWidth := r.W - detailLabelColumn - 2
	if it.kind == "scanned" {
		s := it.scan
		perScan := 0.0
		if s.Count > 0 {
			perScan = s.Rows / s.Count
		}
		return []string{
			paneTitle(st, "Scanned range", "enter: show it", r.W, false),
			f.field("range", Cut(RangeText(s.Start, s.End), valueWidth)),
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
		paneTitle(st, "Hot row", "enter: show it", r.W, false),
		f.field("key", KeyText(row.Key, valueWidth)),
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
func (hotPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action {
	k := f.Keys
	n := len(selectable(hotItems(f.Snap)))
	if i, ok := ListMove(k, msg, s.Line(PaneHot), n, 0); ok {
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
func (hotPane) click(f *Frame, s *ViewState, r Rect, _, y int) Action {
	items := hotItems(f.Snap)
	picks := selectable(items)
	if len(picks) == 0 {
		return nil
	}
	selected := picks[ClampIndex(s.Line(PaneHot), len(picks))]
	i := ScrollStart(selected, len(items), listLines(r)) + y - r.Y - listHeadLines
	for p, index := range picks {
		if index == i && y >= r.Y+listHeadLines {
			s.SetLine(PaneHot, p)
		}
	}
	return nil
}

func (hotPane) wheel(f *Frame, s *ViewState, delta int) {
	s.SetLine(PaneHot, ClampIndex(s.Line(PaneHot)+delta, len(selectable(hotItems(f.Snap)))))
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
