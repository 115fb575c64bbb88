package view

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/render"
	"github.com/charmbracelet/x/ansi"
)

// heatPane is the heatmap: key buckets against write time (or one metric
// column), with drill-down.
type heatPane struct{}

func (heatPane) id() Pane                   { return PaneHeatmap }
func (heatPane) place() placement           { return placeMain }
func (heatPane) open() key.Binding          { return key.Binding{} }
func (heatPane) tabStop() bool              { return true }
func (heatPane) showsBuckets() bool         { return true }
func (heatPane) help(s *Shared) help.KeyMap { return heatHelp{s.Keys, s.panes} }

func (heatPane) lines(f *Frame, r Rect, focused bool) []string       { return f.heatLines(r, focused) }
func (heatPane) details(f *Frame, r Rect) []string                   { return f.bucketDetails(r) }
func (heatPane) key(f *Frame, s *ViewState, msg fmt.Stringer) Action { return f.heatKey(s, msg) }
func (heatPane) wheel(f *Frame, s *ViewState, delta int)             { f.moveBucket(s, delta) }

// click selects the bucket (and time column) under the pointer.
func (heatPane) click(f *Frame, s *ViewState, _ Rect, x, y int) Action {
	hit, ok := f.HitHeat(x, y)
	if !ok {
		return nil
	}
	if hit.Bucket >= 0 {
		s.Selected = hit.Bucket
	}
	if hit.Column >= 0 && (hit.Area == render.HitHeat || hit.Area == render.HitAxis) {
		s.TimeColumn = hit.Column + 1
	}
	return nil
}

// heatTitleLines is the pane title above the heatmap.
const heatTitleLines = 1

// heatOptions returns the text options the heatmap pane draws with; the
// matrix is built for them and mouse clicks are mapped back through them.
// A nil matrix sizes for the state's metric.
func (f *Frame) heatOptions(m *heatmap.Matrix) render.TextOptions {
	r := f.Layout.Main
	o := render.TextOptions{
		Width: r.W, Height: max(r.H-heatTitleLines, 0),
		Profile: f.Profile, Theme: f.Styles.Heat, Scale: f.State.Scale, Palette: f.State.Palette,
		LabelTimes: f.State.LabelTimes,
	}
	if m != nil {
		o.Selected = &render.Cell{Bucket: f.State.Selected, Column: f.State.column()}
		if !m.Timed() || f.State.column() >= m.Columns() {
			o.Selected.Column = -1
		}
	}
	return o
}

// sharedPrefixWidth is the most cells a pane title gives the key prefix
// that "…" stands for in labels.
const sharedPrefixWidth = 24

// bucketCount says how many buckets a view has and, when its labels
// elide the view's shared prefix and a title of title leaves room in
// width cells, what their leading "…" stands for.
func bucketCount(m *heatmap.Matrix, title string, width int) string {
	count := fmt.Sprintf("%d buckets", len(m.Buckets))
	for i := range m.Buckets {
		if !strings.HasPrefix(m.Buckets[i].ShortLabel, ellipsis) {
			continue
		}
		long := count + " · " + ellipsis + " = " + KeyText(m.SharedPrefix, sharedPrefixWidth)
		if ansi.StringWidth(title)+ansi.StringWidth(long)+minTitleRule+4 <= width {
			return long
		}
		break
	}
	return count
}

// minTitleRule is the shortest rule a pane title keeps between its two
// ends.
const minTitleRule = 2

// heatRect is where the heatmap itself (below its title) is drawn.
func (f *Frame) heatRect() Rect {
	r := f.Layout.Main
	return Rect{r.X, r.Y + heatTitleLines, r.W, max(r.H-heatTitleLines, 0)}
}

// heatLines draws the heatmap pane: its title and the heatmap.
func (f *Frame) heatLines(r Rect, focused bool) []string {
	title := "Heatmap · " + f.metricDescription() + " by key"
	switch {
	case f.State.Metric.Timed() && f.Snap != nil && f.State.Metric.OnCallTime(f.Snap):
		title += " and time"
	case f.State.Metric.Timed():
		title += " and write time"
	}
	right := ""
	if f.Matrix != nil {
		right = bucketCount(f.Matrix, title, r.W)
	}
	lines := []string{paneTitle(&f.Styles, title, right, r.W, focused)}
	switch {
	case f.BuildErr != nil:
		lines = append(lines, "", " "+f.Styles.Error.Render("cannot draw this view: ")+f.Styles.Text.Render(f.BuildErr.Error()))
	case f.Matrix == nil:
		lines = append(lines, "")
		for _, line := range wrap(escape.Text(f.emptyText()), r.W-2) {
			lines = append(lines, " "+f.Styles.Muted.Render(line))
		}
	default:
		lines = append(lines, splitLines(render.HeatText(f.Matrix, f.heatOptions(f.Matrix)))...)
	}
	return lines
}

// emptyText says why there is nothing to draw yet.
func (f *Frame) emptyText() string {
	switch {
	case f.Scan != nil && f.Scan.Loading:
		return "the demo is loading this table into the emulator; the scan starts as soon as it is in"
	case f.Scan != nil && f.Scan.Running && f.Preview != nil:
		return "the heatmap fills in as ranges finish; this scan " + f.Preview.String()
	case f.Scan != nil && f.Scan.Running:
		return "reading the tablet map… the heatmap fills in as ranges finish"
	}
	if f.Scan != nil && f.Scan.Err != nil {
		return "no data: the scan failed (see below)"
	}
	return "no data"
}

// HitHeat maps a mouse cell to the heatmap bucket (and time column)
// under it.
func (f *Frame) HitHeat(x, y int) (render.Hit, bool) {
	if f.Matrix == nil {
		return render.Hit{}, false
	}
	r := f.heatRect()
	if !r.Contains(x, y) {
		return render.Hit{}, false
	}
	return render.HitTest(f.Matrix, f.heatOptions(f.Matrix), x-r.X, y-r.Y)
}

// heatHelp is the key help of the heatmap and prefix-table panes; its
// full help lists the keys that open panes.
type heatHelp struct {
	k     KeyMap
	panes []pane
}

// ShortHelp lists the keys a first-time user needs.
func (h heatHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Drill, h.k.Back, h.k.Search, h.k.Metric, h.k.Bucketing, h.k.Scale, findingsPane{}.open(), rowsPane{}.open(), h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists every key, by theme.
func (h heatHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Left, h.k.Right, h.k.Top, h.k.Bottom},
		append([]key.Binding{h.k.Drill, h.k.Back, h.k.Search, h.k.Focus}, openKeys(h.panes, true)...),
		{h.k.Metric, h.k.Bucketing, h.k.Brighter, h.k.Dimmer, h.k.Scale, h.k.LabelTimes},
		append(openKeys(h.panes, false), h.k.Tables, h.k.Rescan, h.k.Stop),
		{relabel(h.k.Copy, "copy start key"), h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}
