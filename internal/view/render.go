package view

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
func renderFrame(s *Shared, snap *keyspace.Snapshot, findings []diagnose.Finding, state ViewState) string {
	f := &Frame{Shared: s, Snap: snap, Findings: findings, State: state.Normalized(snap)}
	f.BuildMatrix()
	return f.Render()
}

// Shared is the one value every component reads: styles, key map, colour
// profile, the layout of the current size, and the panes whose keys the
// full help lists.
type Shared struct {
	// Styles and Keys are the theme's styles and the key map; Profile and
	// IsDark the colour profile and background they were built for;
	// Layout places the panes for the current size.
	Styles  Styles
	Keys    KeyMap
	Profile colorprofile.Profile
	IsDark  bool
	Layout  Layout
	help    help.Model
	// panes is [panes], but in the help goldens the panes they were drawn
	// with, so that a new pane's key changes no golden
	// (TestFullHelpListsEveryPaneKey checks the full help lists it).
	panes []pane
	// datasetList is the datasets of snapshot datasetsOf, found once
	// ([Frame.datasets]).
	datasetsOf  *keyspace.Snapshot
	datasetList []diagnose.Dataset
}

// NewShared builds the shared value of every pane for a dark (isDark) or
// light theme, a colour profile and a size; the program keeps one and
// rebuilds it with [Shared.SetTheme] and [Shared.Resize].
func NewShared(isDark bool, profile colorprofile.Profile, width, height int, fullHelp bool) *Shared {
	return newShared(panes(), isDark, profile, width, height, fullHelp)
}

// newShared builds the shared value for the panes whose keys the full
// help lists ([panes]), a theme, a profile and a size.
func newShared(all []pane, isDark bool, profile colorprofile.Profile, width, height int, fullHelp bool) *Shared {
	s := &Shared{Keys: DefaultKeyMap(), panes: all}
	s.SetTheme(isDark, profile)
	s.Resize(width, height, fullHelp)
	return s
}

// SetTheme rebuilds the styles (on tea.BackgroundColorMsg and
// tea.ColorProfileMsg).
func (s *Shared) SetTheme(isDark bool, profile colorprofile.Profile) {
	if profile == colorprofile.Unknown {
		profile = colorprofile.NoTTY
	}
	s.IsDark, s.Profile = isDark, profile
	s.Styles = NewStyles(isDark, profile)
	s.help = help.New()
	s.help.Styles = s.Styles.Help
	s.help.SetWidth(s.Layout.width)
}

// Resize recomputes the layout (on tea.WindowSizeMsg). The full help
// takes no room from the layout: it is drawn where the details and
// findings panes are ([Frame.fullHelpArea]), so that opening it leaves
// the heatmap and its buckets as they are.
func (s *Shared) Resize(width, height int, _ bool) {
	s.Layout = newLayout(width, height, shortHelpLines)
	s.help.SetWidth(width)
}

// Frame is one screen's inputs: data, view state and the transient parts
// the interactive program adds (a running scan, a message, the search
// prompt). Its Render method is pure.
type Frame struct {
	*Shared
	Snap     *keyspace.Snapshot
	Findings []diagnose.Finding
	State    ViewState
	// Snap is the snapshot shown, Findings its findings, State how.
	// Matrix and Path are the heatmap of the state and the tree path to
	// its node ([Frame.BuildMatrix]); BuildErr says why there is no matrix.
	Matrix   *heatmap.Matrix
	Path     []*keyspace.Node
	BuildErr error

	// Transient parts, zero in a headless frame.
	Table string // the table being opened, before its snapshot arrives
	Scan  *ScanStatus
	// Preview is what the scan that fills the level on screen said it
	// would read; nil when it has not said (or the level is another's).
	Preview *source.Preview
	Message StatusMessage
	Search  string // the rendered search prompt, when open
	Depth   int    // drill levels below the first (for the back hint)
	Picker  *Picker
	// Recording is set in the live view, Live is its latest status.
	Recording bool
	Live      source.RecordingStatus
}

// StatusMessage is a line the program shows until the next key.
type StatusMessage struct {
	Text  string
	IsErr bool
	// Done marks the report of something finished (a screenshot saved).
	Done bool
	// Hover marks the key range of the heatmap row under the pointer,
	// which the pointer's next move replaces.
	Hover bool
}

// BuildMatrix builds the heatmap of the frame's state, sized for its
// layout.
func (f *Frame) BuildMatrix() {
	f.Matrix, f.Path, f.BuildErr = buildMatrix(f.Snap, f.State, f.heatOptions(nil))
	if f.Matrix != nil {
		f.State.Selected = ClampIndex(f.State.Selected, len(f.Matrix.Buckets))
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
func (f *Frame) metricDescription() string {
	return f.State.Metric.DescriptionFor(f.Snap)
}

// ClampIndex keeps i within [0, n).
func ClampIndex(i, n int) int { return max(0, min(i, n-1)) }

// Render draws the whole screen.
func (f *Frame) Render() string {
	l := f.Layout
	switch {
	case l.width <= 0 || l.height <= 0:
		return "" // no size yet: the first tea.WindowSizeMsg is on its way
	case l.TooSmall:
		return tooSmall(&f.Styles, l.width, l.height)
	}
	c := newCanvas(l.width, l.height)
	if f.Picker != nil {
		f.Picker.render(f, c)
		if f.State.FullHelp {
			area := f.fullHelpArea()
			c.paint(area, f.fullHelpBlock(area))
		}
	} else {
		focused := f.State.focused()
		c.paint(l.Header, f.headerLines())
		c.paint(l.Main, paneOf(f.State.Main).lines(f, l.Main, f.State.Focus == ""))
		c.paint(f.separator(), vrule(f.Styles.Rule, f.separator().H))
		if f.State.FullHelp {
			area := f.fullHelpArea()
			c.paint(area, f.fullHelpBlock(area))
		} else {
			c.paint(l.Details, focused.details(f, l.Details))
			side := sidePane()
			c.paint(l.Findings, side.lines(f, l.Findings, focused.id() == side.id()))
		}
	}
	c.paint(l.Status, []string{f.statusLine(l.Status.W)})
	c.paint(l.Help, f.helpLines(l.Help.W))
	return c.String()
}

// separator is the vertical rule between side-by-side panes.
func (f *Frame) separator() Rect {
	l := f.Layout
	if l.Wide {
		return Rect{l.Main.W, l.Main.Y, separatorWidth, l.Main.H}
	}
	return Rect{l.Details.W, l.Details.Y, separatorWidth, l.Details.H}
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
	c.paint(Rect{0, 0, max(width, 1), len(lines)}, lines)
	return c.String()
}

// HeatView returns the heatmap view the heatmap pane draws for state on
// snap in a width×height frame: its key range, metric and bucketing, one
// key bucket a heat line and one time column a cell. A chart of the same
// view (`btviz export` without --frame) builds its matrix from it, so
// that it shows the buckets the interactive view shows at that size.
func HeatView(snap *keyspace.Snapshot, state ViewState, width, height int) heatmap.View {
	s := newShared(panes(), true, colorprofile.TrueColor, width, height, state.FullHelp)
	f := &Frame{Shared: s, Snap: snap, State: state.Normalized(snap)}
	l := render.TextLayout(f.heatOptions(nil), f.State.Metric.Timed())
	view, _ := f.State.heatView(snap, l.HeatLines, l.HeatWidth)
	return view
}
