package view

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
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

// Picker is the table picker: the instance's tables with their sizes
// and, for the demo, how far each has loaded.
type Picker struct {
	// Where names what the source reads ([source.Source.Where]).
	Where string
	// Reads says how a picked table is read ([source.Source.Reads]).
	Reads string
	// Tables are the source's tables, Sizes their sizes as they come.
	Tables []source.TableInfo
	Sizes  map[string]int64
	// Selected indexes [Picker.Shown].
	Selected int
	// Filter keeps the tables whose name holds it, in any case; empty
	// keeps them all.
	Filter string
	// Listing is set while the table list is being fetched; Err when it
	// failed.
	Listing bool
	Err     error
	// SizeErr is why sizes are missing, when they are.
	SizeErr error
	// Stored says that the sizes are SampleRowKeys' (a live source),
	// not a saved scan's logical bytes.
	Stored bool
}

// Shown returns the tables the filter keeps, in order.
func (p *Picker) Shown() []source.TableInfo {
	if p.Filter == "" {
		return p.Tables
	}
	needle := strings.ToLower(p.Filter)
	var kept []source.TableInfo
	for _, t := range p.Tables {
		if strings.Contains(strings.ToLower(t.Name), needle) {
			kept = append(kept, t)
		}
	}
	return kept
}

// SelectedTable returns the selected table, if any.
func (p *Picker) SelectedTable() (source.TableInfo, bool) {
	shown := p.Shown()
	if len(shown) == 0 {
		return source.TableInfo{}, false
	}
	return shown[ClampIndex(p.Selected, len(shown))], true
}

// SelectTable selects the table called name when it is shown, and the
// first table shown otherwise.
func (p *Picker) SelectTable(name string) {
	p.Selected = 0
	for i, t := range p.Shown() {
		if t.Name == name {
			p.Selected = i
		}
	}
}

// SetFilter shows only the tables whose name holds filter, keeping the
// selected table selected when it is still shown.
func (p *Picker) SetFilter(filter string) {
	selected, _ := p.SelectedTable()
	p.Filter = filter
	p.SelectTable(selected.Name)
}

// SetLoad records a load event on its table.
func (p *Picker) SetLoad(event source.LoadProgress) {
	for i := range p.Tables {
		if p.Tables[i].Name != event.Table {
			continue
		}
		if event.Done && event.Err == nil {
			p.Tables[i].Loading = nil
		} else {
			e := event
			p.Tables[i].Loading = &e
		}
	}
}

// loadingCount returns how many tables are still loading.
func (p *Picker) loadingCount() int {
	n := 0
	for _, t := range p.Tables {
		if t.Loading != nil && t.Loading.Err == nil {
			n++
		}
	}
	return n
}

// statusText is the picker's status line.
func (p *Picker) statusText() string {
	switch {
	case p.Err != nil:
		return ""
	case p.Listing:
		return "listing tables…"
	case len(p.Tables) == 0:
		return "the instance has no tables"
	case p.SizeErr != nil:
		return fmt.Sprintf("%d tables · %s · sizes unavailable: %v", len(p.Tables), pickerHint, p.SizeErr)
	}
	if p.Filter != "" {
		n := len(p.Shown())
		if n == 0 {
			return fmt.Sprintf("no table name holds %q · / starts a new filter, esc clears it", p.Filter)
		}
		return fmt.Sprintf("%d of %d tables hold %q · esc clears the filter · %s", n, len(p.Tables), p.Filter, pickerHint)
	}
	if n := p.loadingCount(); n > 0 {
		return fmt.Sprintf("%d tables, %d still loading in the background · %s", len(p.Tables), n, pickerHint)
	}
	return fmt.Sprintf("%d tables · / filters · %s", len(p.Tables), pickerHint)
}

// render paints the picker: a title and the table list.
func (p *Picker) render(f *Frame, c *canvas) {
	st := &f.Styles
	l := f.Layout
	header := []string{
		st.AppName.Render(" btviz ") + " " + st.Table.Render(pickerTitle) + "  " + st.Text.Render(escape.Text(p.Where)),
		" " + st.Muted.Render(Cut("Pick a table to see its key space; "+p.Reads+".", l.Header.W-1)),
		"",
	}
	c.paint(l.Header, header)
	body := l.Picker
	if f.State.FullHelp {
		body.H -= f.fullHelpArea().H // the full help is drawn below the list
	}
	lines := []string{}
	if p.Err != nil {
		lines = append(lines, " "+st.Error.Render("✗ ")+st.Text.Render(escape.Text(p.Err.Error())))
		c.paint(body, lines)
		return
	}
	nameWidth := 12
	for _, t := range p.Tables {
		nameWidth = max(nameWidth, ansi.StringWidth(escape.Text(t.Name))+2)
	}
	nameWidth = min(nameWidth, body.W/3)
	sizeHead, sizeNote := "size", pickerScanSizeNote
	if p.Stored {
		sizeHead, sizeNote = pickerSizeHead, pickerSizeNote
	}
	head := "  " + padRight("table", nameWidth) + padLeft("families", pickerFamiliesColumn) + padLeft(sizeHead, pickerSizeColumn) +
		"  " + padRight("status", pickerStatusColumn) + "description"
	lines = append(lines, st.Muted.Render(fitLine(head, body.W)))
	shown := p.Shown()
	visible := max(body.H-1, 1)
	note := ""
	if body.H >= pickerNoteMinLines && len(shown) > 0 {
		note = " " + Cut(sizeNote, body.W-1)
		visible = max(body.H-3, 1) // the note and a blank line above it
	}
	first := ScrollStart(p.Selected, len(shown), visible)
	for i := first; i < len(shown) && i < first+visible; i++ {
		t := shown[i]
		size := "…"
		if bytes, ok := p.Sizes[t.Name]; ok {
			size = heatmap.UnitBytes.Format(float64(bytes))
		}
		text := padRight(Cut(escape.Text(t.Name), nameWidth-1), nameWidth) + padLeft(strconv.Itoa(len(t.Families)), pickerFamiliesColumn) +
			padLeft(size, pickerSizeColumn) + "  " + padRight(loadText(t.Loading), pickerStatusColumn)
		lines = append(lines, f.listLine(i == p.Selected, true, text, escape.Text(t.Description), body.W))
	}
	if note != "" {
		for len(lines) < body.H-1 {
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
