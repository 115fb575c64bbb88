package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/view"
)

// Model is the TUI's root Bubble Tea model. It alone returns a tea.View
// and sets the terminal's modes (alternate screen, mouse); its parts
// render to strings through [view.RenderFrame]'s code. Build it with [New].
type Model struct {
	// ctx is the program's lifetime: scans and background waits end
	// with it.
	ctx     context.Context
	cfg     Config
	backend source.Source
	sh      *view.Shared
	width   int
	height  int

	// The table screen: the drill-down levels (the last is shown), the
	// findings of the first level's snapshot, and the current level's
	// heatmap (rebuilt whenever what it depends on changes).
	table    string
	levels   []level
	nextID   int
	findings []diagnose.Finding
	matrix   *heatmap.Matrix
	path     []*keyspace.Node
	buildErr error

	// picker is the table list, shown when pickerOpen; pendingOpen is a
	// table to open once it has loaded.
	picker      *view.Picker
	pickerOpen  bool
	pendingOpen string
	loads       <-chan source.LoadProgress

	// The running (or last) scan and what it fills.
	scan       *view.ScanStatus
	scanID     int
	scanLevel  int // level id the scan fills
	cancelScan context.CancelFunc
	stopping   bool // the user stopped the running scan

	// Diagnosis runs in a command; gen tells current results from stale.
	diagGen     int
	diagnosing  bool
	diagPending bool

	search    textinput.Model
	searching bool
	fullHelp  bool
	message   view.StatusMessage

	// traffic is the latest look at the recording's traffic of the table
	// shown, and liveStatus the recording's status (live view only).
	traffic    *keyspace.Snapshot
	liveStatus source.RecordingStatus

	// hot is the table's hot tablets (nil before they arrive, or without
	// a source), hotErr why they could not be had.
	hot    *keyspace.HotTablets
	hotErr error
}

// level is one drill-down step: a snapshot (the table's, or a re-read of
// one key range) and the view state on it. In the live view snap is the
// scan's stored snapshot joined with the recording's traffic.
type level struct {
	id   int
	snap *keyspace.Snapshot
	// stored is what the level's scan read, before traffic is joined.
	stored *keyspace.Snapshot
	state  view.ViewState
	// rescan is the options that re-read this level's key range; nil for
	// a level that shows its parent's snapshot.
	rescan *rescanRange
}

// rescanRange is a key range a level re-read at full resolution.
type rescanRange struct {
	start, end keyspace.Key
}

// New returns the root model for cfg; ctx bounds every scan it starts.
// [Run] builds one; tests drive one with Update directly.
func New(ctx context.Context, cfg Config) *Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ScreenshotDir == "" {
		cfg.ScreenshotDir = "."
	}
	profile := cfg.Profile
	if profile == colorprofile.Unknown {
		profile = colorprofile.TrueColor
	}
	// A live source's table sizes are what SampleRowKeys reports; saved
	// files' are what their scans counted.
	m := &Model{ctx: ctx, cfg: cfg, backend: cfg.Source, picker: &view.Picker{Listing: cfg.Source != nil, Stored: cfg.Source != nil && cfg.Source.Live()}}
	m.fullHelp = cfg.View.FullHelp
	m.sh = view.NewShared(cfg.Theme != view.ThemeLight, profile, 0, 0, m.fullHelp)
	m.search = newSearchInput(&m.sh.Styles)
	if cfg.Snapshot != nil {
		m.table = cfg.Snapshot.Table
		m.levels = []level{{id: m.newID(), snap: cfg.Snapshot, stored: cfg.Snapshot, state: cfg.View.Normalized(nil)}}
		m.findings = cfg.Findings
	} else if cfg.Table == "" {
		m.pickerOpen = true
	}
	if m.backend != nil {
		m.loads = m.backend.Loads()
		m.picker.Where, m.picker.Reads = m.backend.Where(), m.backend.Reads()
	}
	return m
}

// newID returns a fresh level id.
func (m *Model) newID() int {
	m.nextID++
	return m.nextID
}

// Init asks for the terminal's background colour, and lists tables,
// starts the first scan or diagnoses the given snapshot.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.cfg.Theme == view.ThemeAuto || m.cfg.Theme == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	cmds = append(cmds, waitLoadCmd(m.loads))
	if m.cfg.Recording != nil {
		cmds = append(cmds, liveTickCmd(m.cfg.Recording, m.table))
	}
	switch {
	case m.cfg.Snapshot != nil:
		if m.findings == nil {
			cmds = append(cmds, m.diagnose())
		}
		if m.backend != nil {
			cmds = append(cmds, listTablesCmd(m.ctx, m.backend))
		}
	case m.cfg.Table != "" && m.loads != nil:
		// Background loading: open the table once it is loaded.
		m.pendingOpen = m.cfg.Table
		m.table = m.cfg.Table
		cmds = append(cmds, listTablesCmd(m.ctx, m.backend))
	case m.cfg.Table != "":
		cmds = append(cmds, m.openTable(m.cfg.Table))
	default:
		cmds = append(cmds, listTablesCmd(m.ctx, m.backend))
	}
	return tea.Batch(cmds...)
}

// current returns the level shown.
func (m *Model) current() *level {
	if len(m.levels) == 0 {
		return nil
	}
	return &m.levels[len(m.levels)-1]
}

// levelByID returns the level with id, or nil when it was popped.
func (m *Model) levelByID(id int) *level {
	for i := range m.levels {
		if m.levels[i].id == id {
			return &m.levels[i]
		}
	}
	return nil
}

// frame assembles what View draws from the model's state.
func (m *Model) frame() *view.Frame {
	f := &view.Frame{Shared: m.sh, Table: m.table, Findings: m.findings, Scan: m.scan, Message: m.message,
		Matrix: m.matrix, Path: m.path, BuildErr: m.buildErr, Recording: m.cfg.Recording != nil, Live: m.liveStatus}
	if cur := m.current(); cur != nil {
		f.Snap, f.Depth = m.snapOf(len(m.levels)-1), len(m.levels)-1
		f.State = cur.state.Normalized(f.Snap)
		if m.scan != nil && cur.id == m.scanLevel {
			f.Preview = m.scan.Preview
		}
	} else {
		f.State = m.cfg.View.Normalized(nil)
	}
	f.State.FullHelp = m.fullHelp
	if m.searching {
		f.Search = m.searchView()
	}
	if m.pickerOpen {
		f.Picker = m.picker
	}
	return f
}

// ViewState returns the view state on screen: with the snapshot and
// findings, what [view.RenderFrame] needs to draw the same frame headless.
func (m *Model) ViewState() view.ViewState { return m.frame().State }

// View draws the screen: the frame [view.RenderFrame] would draw for the same
// state, plus what only a live program has (scan progress, messages, the
// search prompt), in the alternate screen with mouse reporting on (motion
// too, for hovering). It
// leaves the window title alone: nothing could restore it on exit.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeAllMotion // hovering a heatmap row shows its range
	return v
}

// render returns the exact frame string View shows.
func (m *Model) render() string { return m.frame().Render() }

// rebuild rebuilds the current level's heatmap for the current size and
// state, keeping the selected bucket's start key selected.
func (m *Model) rebuild() {
	cur := m.current()
	if cur == nil || m.sh.Layout.TooSmall {
		m.matrix, m.path, m.buildErr = nil, nil, nil
		return
	}
	var keep keyspace.Key
	hadSelection := m.matrix != nil && cur.state.Selected < len(m.matrix.Buckets)
	if hadSelection {
		keep = m.matrix.Buckets[cur.state.Selected].Start
	}
	f := m.frame()
	f.BuildMatrix()
	m.matrix, m.path, m.buildErr = f.Matrix, f.Path, f.BuildErr
	if m.matrix == nil {
		return
	}
	if hadSelection {
		m.selectKey(string(keep))
	}
	cur.state.Selected = view.ClampIndex(cur.state.Selected, len(m.matrix.Buckets))
}

// selectKey selects the bucket holding key.
func (m *Model) selectKey(key string) {
	cur := m.current()
	if cur == nil || m.matrix == nil {
		return
	}
	for i, b := range m.matrix.Buckets {
		if keyspace.InRange(key, string(b.Start), string(b.End)) {
			cur.state.Selected = i
			return
		}
	}
}

// diagnose starts diagnosing the first level's snapshot, or marks that
// it should run again when one is already running.
func (m *Model) diagnose() tea.Cmd {
	if len(m.levels) == 0 || m.levels[0].snap == nil {
		return nil
	}
	if m.diagnosing {
		m.diagPending = true
		return nil
	}
	m.diagnosing = true
	m.diagGen++
	return diagnoseCmd(m.diagGen, m.levels[0].snap)
}

// setMessage shows text in the status line until the next key.
func (m *Model) setMessage(text string, isErr bool) {
	m.message = view.StatusMessage{Text: text, IsErr: isErr}
}
