package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/units"
)

// Picker strings an end-to-end test may wait for.
const (
	pickerTitle = "Tables"
	pickerHint  = "enter opens a table"
)

// Picker column widths.
const (
	pickerFamiliesColumn = 9
	pickerSizeColumn     = 10
	pickerStatusColumn   = 16
	pickerLoadBar        = 8
)

// picker is the table picker: the instance's tables with their sizes
// and, for the demo, how far each has loaded.
type picker struct {
	where string
	// reads says how a picked table is read ([source.Source.Reads]).
	reads  string
	tables []source.TableInfo
	sizes  map[string]int64
	// selected indexes shown().
	selected int
	// filter keeps the tables whose name holds it, in any case; empty
	// keeps them all.
	filter string
	// listing is set while the table list is being fetched; err when it
	// failed.
	listing bool
	err     error
	// sizeErr is why sizes are missing, when they are.
	sizeErr error
	// stored says that the sizes are SampleRowKeys' (a live backend),
	// not a saved scan's logical bytes.
	stored bool
}

// shown returns the tables the filter keeps, in order.
func (p *picker) shown() []source.TableInfo {
	if p.filter == "" {
		return p.tables
	}
	needle := strings.ToLower(p.filter)
	var kept []source.TableInfo
	for _, t := range p.tables {
		if strings.Contains(strings.ToLower(t.Name), needle) {
			kept = append(kept, t)
		}
	}
	return kept
}

// selectedTable returns the selected table, if any.
func (p *picker) selectedTable() (source.TableInfo, bool) {
	shown := p.shown()
	if len(shown) == 0 {
		return source.TableInfo{}, false
	}
	return shown[clampIndex(p.selected, len(shown))], true
}

// selectTable selects the table called name when it is shown, and the
// first table shown otherwise.
func (p *picker) selectTable(name string) {
	p.selected = 0
	for i, t := range p.shown() {
		if t.Name == name {
			p.selected = i
		}
	}
}

// setFilter shows only the tables whose name holds filter, keeping the
// selected table selected when it is still shown.
func (p *picker) setFilter(filter string) {
	selected, _ := p.selectedTable()
	p.filter = filter
	p.selectTable(selected.Name)
}

// setLoad records a load event on its table.
func (p *picker) setLoad(event source.LoadProgress) {
	for i := range p.tables {
		if p.tables[i].Name != event.Table {
			continue
		}
		if event.Done && event.Err == nil {
			p.tables[i].Loading = nil
		} else {
			e := event
			p.tables[i].Loading = &e
		}
	}
}

// loadingCount returns how many tables are still loading.
func (p *picker) loadingCount() int {
	n := 0
	for _, t := range p.tables {
		if t.Loading != nil && t.Loading.Err == nil {
			n++
		}
	}
	return n
}

// statusText is the picker's status line.
func (p *picker) statusText() string {
	switch {
	case p.err != nil:
		return ""
	case p.listing:
		return "listing tables…"
	case len(p.tables) == 0:
		return "the instance has no tables"
	case p.sizeErr != nil:
		return fmt.Sprintf("%d tables · %s · sizes unavailable: %v", len(p.tables), pickerHint, p.sizeErr)
	}
	if p.filter != "" {
		n := len(p.shown())
		if n == 0 {
			return fmt.Sprintf("no table name holds %q · / starts a new filter, esc clears it", p.filter)
		}
		return fmt.Sprintf("%d of %d tables hold %q · esc clears the filter · %s", n, len(p.tables), p.filter, pickerHint)
	}
	if n := p.loadingCount(); n > 0 {
		return fmt.Sprintf("%d tables, %d still loading in the background · %s", len(p.tables), n, pickerHint)
	}
	return fmt.Sprintf("%d tables · / filters · %s", len(p.tables), pickerHint)
}

// render paints the picker: a title and the table list.
func (p *picker) render(f *frame, c *canvas) {
	st := &f.styles
	l := f.layout
	header := []string{
		st.AppName.Render(" btviz ") + " " + st.Table.Render(pickerTitle) + "  " + st.Text.Render(safeText(p.where)),
		" " + st.Muted.Render(cut("Pick a table to see its key space; "+p.reads+".", l.header.w-1)),
		"",
	}
	c.paint(l.header, header)
	body := l.picker
	if f.state.FullHelp {
		body.h -= f.fullHelpArea().h // the full help is drawn below the list
	}
	lines := []string{}
	if p.err != nil {
		lines = append(lines, " "+st.Error.Render("✗ ")+st.Text.Render(safeText(p.err.Error())))
		c.paint(body, lines)
		return
	}
	nameWidth := 12
	for _, t := range p.tables {
		nameWidth = max(nameWidth, ansi.StringWidth(safeText(t.Name))+2)
	}
	nameWidth = min(nameWidth, body.w/3)
	sizeHead, sizeNote := "size", pickerScanSizeNote
	if p.stored {
		sizeHead, sizeNote = pickerSizeHead, pickerSizeNote
	}
	head := "  " + padRight("table", nameWidth) + padLeft("families", pickerFamiliesColumn) + padLeft(sizeHead, pickerSizeColumn) +
		"  " + padRight("status", pickerStatusColumn) + "description"
	lines = append(lines, st.Muted.Render(fitLine(head, body.w)))
	shown := p.shown()
	visible := max(body.h-1, 1)
	note := ""
	if body.h >= pickerNoteMinLines && len(shown) > 0 {
		note = " " + cut(sizeNote, body.w-1)
		visible = max(body.h-3, 1) // the note and a blank line above it
	}
	first := scrollStart(p.selected, len(shown), visible)
	for i := first; i < len(shown) && i < first+visible; i++ {
		t := shown[i]
		size := "…"
		if bytes, ok := p.sizes[t.Name]; ok {
			size = heatmap.UnitBytes.Format(float64(bytes))
		}
		text := padRight(cut(safeText(t.Name), nameWidth-1), nameWidth) + padLeft(strconv.Itoa(len(t.Families)), pickerFamiliesColumn) +
			padLeft(size, pickerSizeColumn) + "  " + padRight(loadText(t.Loading), pickerStatusColumn)
		lines = append(lines, f.listLine(i == p.selected, true, text, safeText(t.Description), body.w))
	}
	if note != "" {
		for len(lines) < body.h-1 {
			lines = append(lines, "")
		}
		lines = append(lines, st.Muted.Render(note))
	}
	c.paint(body, lines)
}

// The picker's size column and what it measures: what SampleRowKeys
// says a table stores, which is not what a scan counts (the table's
// header): on an emulator the offsets count only the values' bytes, on
// Cloud Bigtable compressed stored bytes, where a scan adds up keys,
// column names, timestamps and values.
const (
	pickerSizeHead     = "stored"
	pickerSizeNote     = "stored: the bytes SampleRowKeys reports (an emulator counts only values; Cloud Bigtable, compressed data) · a table's header shows logical bytes, keys and column names included"
	pickerScanSizeNote = "size: the logical bytes each saved scan counted (keys, column names, values), as the table's header shows them"
	pickerNoteMinLines = 6
)

// loadText is a table's load status: "ready", "waiting", a bar and share,
// or "failed".
func loadText(load *source.LoadProgress) string {
	switch {
	case load == nil:
		return "ready"
	case load.Err != nil:
		return "load failed"
	case !load.Started:
		return "waiting"
	}
	return units.Bar(load.Share(), pickerLoadBar) + fmt.Sprintf(" %3.0f%%", load.Share()*100)
}

// pickerHelp is the key help of the table picker.
type pickerHelp struct{ k KeyMap }

// ShortHelp lists the picker's keys.
func (h pickerHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, h.k.OpenTable, relabel(h.k.Search, "filter"), h.k.Back, h.k.Help, h.k.Quit}
}

// FullHelp lists the picker's keys by theme.
func (h pickerHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom}, {h.k.OpenTable, relabel(h.k.Search, "filter"), h.k.Back}, {h.k.Screenshot, h.k.Help, h.k.Quit}}
}
