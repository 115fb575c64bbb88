package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/source"
)

// RenderFrame draws the screen the TUI shows for snap and its findings in
// state, at width×height cells, for a dark (isDark) or light background
// and colour profile, without a terminal: the same code the interactive
// View runs, so `btviz export` and the screenshot key give identical
// frames. The result has exactly height lines of exactly width cells; with
// [colorprofile.NoTTY] it holds no escape sequences at all. Keys are
// escaped by [keyspace.Printable]. Below [MinWidth]×[MinHeight] it is the
// "terminal too small" message.
func RenderFrame(snap *keyspace.Snapshot, findings []diagnose.Finding, state ViewState, width, height int, isDark bool, profile colorprofile.Profile) string {
	return renderFrame(newShared(panes(), isDark, profile, width, height, state.FullHelp), snap, findings, state)
}

// renderFrame is [RenderFrame] with the shared value given.
func renderFrame(s *shared, snap *keyspace.Snapshot, findings []diagnose.Finding, state ViewState) string {
	f := &frame{shared: s, snap: snap, findings: findings, state: state.normalized(snap)}
	f.buildMatrix()
	return f.render()
}

// shared is the one value every component reads: styles, key map, colour
// profile, the layout of the current size, and the panes whose keys the
// full help lists.
type shared struct {
	styles  Styles
	keys    KeyMap
	profile colorprofile.Profile
	isDark  bool
	layout  layout
	help    help.Model
	// panes is [panes], but in the help goldens the panes they were drawn
	// with, so that a new pane's key changes no golden
	// (TestFullHelpListsEveryPaneKey checks the full help lists it).
	panes []pane
	// datasetList is the datasets of snapshot datasetsOf, found once
	// ([frame.datasets]).
	datasetsOf  *keyspace.Snapshot
	datasetList []diagnose.Dataset
}

// newShared builds the shared value for the panes whose keys the full
// help lists ([panes]), a theme, a profile and a size.
func newShared(all []pane, isDark bool, profile colorprofile.Profile, width, height int, fullHelp bool) *shared {
	s := &shared{keys: DefaultKeyMap(), panes: all}
	s.setTheme(isDark, profile)
	s.resize(width, height, fullHelp)
	return s
}

// setTheme rebuilds the styles (on tea.BackgroundColorMsg and
// tea.ColorProfileMsg).
func (s *shared) setTheme(isDark bool, profile colorprofile.Profile) {
	if profile == colorprofile.Unknown {
		profile = colorprofile.NoTTY
	}
	s.isDark, s.profile = isDark, profile
	s.styles = NewStyles(isDark, profile)
	s.help = help.New()
	s.help.Styles = s.styles.Help
	s.help.SetWidth(s.layout.width)
}

// resize recomputes the layout (on tea.WindowSizeMsg). The full help
// takes no room from the layout: it is drawn where the details and
// findings panes are ([frame.fullHelpArea]), so that opening it leaves
// the heatmap and its buckets as they are.
func (s *shared) resize(width, height int, _ bool) {
	s.layout = newLayout(width, height, shortHelpLines)
	s.help.SetWidth(width)
}

// frame is one screen's inputs: data, view state and the transient parts
// the interactive program adds (a running scan, a message, the search
// prompt). Its render method is pure.
type frame struct {
	*shared
	snap     *keyspace.Snapshot
	findings []diagnose.Finding
	state    ViewState
	// matrix and path are the heatmap of state and the tree path to its
	// node; buildErr says why there is no matrix.
	matrix   *heatmap.Matrix
	path     []*keyspace.Node
	buildErr error

	// Transient parts, zero in a headless frame.
	table string // the table being opened, before its snapshot arrives
	scan  *scanStatus
	// preview is what the scan that fills the level on screen said it
	// would read; nil when it has not said (or the level is another's).
	preview *source.Preview
	message statusMessage
	search  string // the rendered search prompt, when open
	depth   int    // drill levels below the first (for the back hint)
	picker  *picker
	// recording is set in the live view, live is its latest status.
	recording bool
	live      source.RecordingStatus
}

// statusMessage is a line the program shows until the next key.
type statusMessage struct {
	text  string
	isErr bool
	// done marks the report of something finished (a screenshot saved).
	done bool
	// hover marks the key range of the heatmap row under the pointer,
	// which the pointer's next move replaces.
	hover bool
}

// buildMatrix builds the heatmap of the frame's state, sized for its
// layout.
func (f *frame) buildMatrix() {
	f.matrix, f.path, f.buildErr = buildMatrix(f.snap, f.state, f.heatOptions(nil))
	if f.matrix != nil {
		f.state.Selected = clampIndex(f.state.Selected, len(f.matrix.Buckets))
	}
}

// buildMatrix builds the heatmap of state over snap for a pane drawn with
// options o.
func buildMatrix(snap *keyspace.Snapshot, state ViewState, o render.TextOptions) (*heatmap.Matrix, []*keyspace.Node, error) {
	if snap == nil || snap.Root == nil {
		return nil, nil, nil
	}
	// One bucket per heat line (not two, as half blocks could show) so
	// that every bucket has its label and the selection marker is exact.
	l := render.TextLayout(o, state.Metric.Timed())
	view, path := state.heatView(snap, l.HeatLines, l.HeatWidth)
	m, err := heatmap.Build(snap, view)
	if err != nil {
		return nil, path, err
	}
	return m, path, nil
}

// metricDescription says what the view's metric measures on its
// snapshot: "cells written" for a scan's writes, "rows written" for a
// recording's.
func (f *frame) metricDescription() string {
	return f.state.Metric.DescriptionFor(f.snap)
}

// clampIndex keeps i within [0, n).
func clampIndex(i, n int) int { return max(0, min(i, n-1)) }

// render draws the whole screen.
func (f *frame) render() string {
	l := f.layout
	switch {
	case l.width <= 0 || l.height <= 0:
		return "" // no size yet: the first tea.WindowSizeMsg is on its way
	case l.tooSmall:
		return tooSmall(&f.styles, l.width, l.height)
	}
	c := newCanvas(l.width, l.height)
	if f.picker != nil {
		f.picker.render(f, c)
		if f.state.FullHelp {
			area := f.fullHelpArea()
			c.paint(area, f.fullHelpBlock(area))
		}
	} else {
		focused := f.state.focused()
		c.paint(l.header, f.headerLines())
		c.paint(l.main, paneOf(f.state.Main).lines(f, l.main, f.state.Focus == ""))
		c.paint(f.separator(), vrule(f.styles.Rule, f.separator().h))
		if f.state.FullHelp {
			area := f.fullHelpArea()
			c.paint(area, f.fullHelpBlock(area))
		} else {
			c.paint(l.details, focused.details(f, l.details))
			side := sidePane()
			c.paint(l.findings, side.lines(f, l.findings, focused.id() == side.id()))
		}
	}
	c.paint(l.status, []string{f.statusLine(l.status.w)})
	c.paint(l.help, f.helpLines(l.help.w))
	return c.String()
}

// separator is the vertical rule between side-by-side panes.
func (f *frame) separator() rect {
	l := f.layout
	if l.wide {
		return rect{l.main.w, l.main.y, separatorWidth, l.main.h}
	}
	return rect{l.details.w, l.details.y, separatorWidth, l.details.h}
}

// tooSmall is the whole screen below the minimum size.
func tooSmall(st *Styles, width, height int) string {
	msg := fmt.Sprintf("terminal too small: need %d×%d, have %d×%d", MinWidth, MinHeight, width, height)
	lines := make([]string, max(height, 1))
	center := func(s string) string { return strings.Repeat(" ", max((width-ansi.StringWidth(s))/2, 0)) + s }
	lines[len(lines)/2] = center(st.Warning.Render(msg))
	if len(lines) > 1 {
		hint := "enlarge the window, or press q to quit"
		lines[len(lines)/2+1] = center(st.Muted.Render(hint))
	}
	c := newCanvas(max(width, 1), len(lines))
	c.paint(rect{0, 0, max(width, 1), len(lines)}, lines)
	return c.String()
}

// HeatView returns the heatmap view the heatmap pane draws for state on
// snap in a width×height frame: its key range, metric and bucketing, one
// key bucket a heat line and one time column a cell. A chart of the same
// view (`btviz export` without --frame) builds its matrix from it, so
// that it shows the buckets the interactive view shows at that size.
func HeatView(snap *keyspace.Snapshot, state ViewState, width, height int) heatmap.View {
	s := newShared(panes(), true, colorprofile.TrueColor, width, height, state.FullHelp)
	f := &frame{shared: s, snap: snap, state: state.normalized(snap)}
	l := render.TextLayout(f.heatOptions(nil), f.state.Metric.Timed())
	view, _ := f.state.heatView(snap, l.HeatLines, l.HeatWidth)
	return view
}
