package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/view"
)

// Update handles one message. It does no I/O: every read and write runs
// in a returned command.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		if m.cfg.Theme == view.ThemeAuto || m.cfg.Theme == "" {
			m.setTheme(msg.IsDark(), m.sh.Profile)
		}
		return m, nil
	case tea.ColorProfileMsg:
		if msg.Profile != m.sh.Profile {
			m.setTheme(m.sh.IsDark, msg.Profile)
			m.rebuild()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseClickMsg:
		return m, m.handleClick(msg.Mouse())
	case tea.MouseWheelMsg:
		return m, m.handleWheel(msg.Mouse())
	case tea.MouseMotionMsg:
		m.handleMotion(msg.Mouse())
		return m, nil
	case tea.PasteMsg:
		if m.searching {
			var cmd tea.Cmd
			m.search, cmd = m.search.Update(msg)
			return m, cmd
		}
		return m, nil
	}
	return m, m.handleResult(msg)
}

// handleResult handles the messages of the package's commands.
func (m *Model) handleResult(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tablesMsg:
		return m.gotTables(msg)
	case sizesMsg:
		m.picker.SizeErr = msg.err
		if m.picker.Sizes == nil {
			m.picker.Sizes = map[string]int64{}
		}
		for name, size := range msg.sizes {
			m.picker.Sizes[name] = size
		}
		return nil
	case loadMsg:
		return m.gotLoad(msg)
	case loadsDoneMsg:
		m.loads = nil
		return nil
	case scanStartedMsg:
		return waitScanCmd(msg.events)
	case scanProgressMsg:
		if msg.id != m.scanID {
			return waitScanCmd(msg.events) // stale scans are drained to their end
		}
		return tea.Batch(m.gotProgress(msg.progress), waitScanCmd(msg.events))
	case scanPreviewMsg:
		if msg.id == m.scanID && m.scan != nil {
			m.scan.Preview = &msg.preview
		}
		return waitScanCmd(msg.events)
	case scanDoneMsg:
		if msg.id != m.scanID {
			return nil
		}
		return m.gotScan(msg)
	case liveMsg:
		return m.gotLive(msg)
	case hotMsg:
		return m.gotHot(msg)
	case findingsMsg:
		m.diagnosing = false
		if msg.gen == m.diagGen {
			m.findings = msg.findings
		}
		if m.diagPending {
			m.diagPending = false
			return m.diagnose()
		}
		return nil
	case screenshotMsg:
		text, err := screenshotText(msg)
		if err != nil {
			m.setMessage(err.Error(), true)
		} else {
			m.message = view.StatusMessage{Text: text, Done: true}
		}
		return nil
	}
	if m.searching {
		var cmd tea.Cmd
		m.search, cmd = m.search.Update(msg)
		return cmd
	}
	return nil
}

// resize recomputes the layout and the heatmap for the current size.
func (m *Model) resize() {
	m.sh.Resize(m.width, m.height, m.fullHelp)
	m.sizeSearch()
	m.rebuild()
}

// sizeSearch fits the status line's text input, after its prompt, to the
// terminal's width.
func (m *Model) sizeSearch() {
	m.search.SetWidth(max(m.width-ansi.StringWidth(m.search.Prompt)-2, 10))
}

// setTheme rebuilds the styles for a background and profile.
func (m *Model) setTheme(isDark bool, profile colorprofile.Profile) {
	m.sh.SetTheme(isDark, profile)
	m.search.SetStyles(inputStyles(&m.sh.Styles))
}

// gotTables fills the picker with the table list, asks for sizes, and
// opens a table waiting for the list.
func (m *Model) gotTables(msg tablesMsg) tea.Cmd {
	p := m.picker
	selected, _ := p.SelectedTable()
	p.Listing, p.Err, p.Tables = false, msg.err, msg.tables
	p.SelectTable(selected.Name)
	var ready []string
	for _, t := range msg.tables {
		if t.Loading == nil {
			ready = append(ready, t.Name)
		}
	}
	sizes := tableSizesCmd(m.ctx, m.backend, ready)
	if m.pendingOpen == "" {
		return sizes
	}
	for _, t := range msg.tables {
		if t.Name != m.pendingOpen {
			continue
		}
		if t.Loading == nil {
			table := m.pendingOpen
			m.pendingOpen = ""
			return tea.Batch(m.openTable(table), sizes)
		}
		m.scan = &view.ScanStatus{Table: t.Name, What: "loading " + t.Name + " into the emulator", Running: true, Loading: true, Load: *t.Loading}
		return sizes
	}
	table := m.pendingOpen
	m.pendingOpen = ""
	m.scan = &view.ScanStatus{Table: table, Err: fmt.Errorf("table %s is not in %s", escape.Quote(table), m.backend.Where())}
	return sizes
}

// gotLoad records a background load event and re-arms the wait.
func (m *Model) gotLoad(msg loadMsg) tea.Cmd {
	cmds := []tea.Cmd{waitLoadCmd(msg.ch)}
	e := msg.event
	m.picker.SetLoad(e)
	switch {
	case e.Done && e.Err == nil:
		cmds = append(cmds, tableSizesCmd(m.ctx, m.backend, []string{e.Table}))
		if e.Table == m.pendingOpen {
			m.pendingOpen = ""
			cmds = append(cmds, m.openTable(e.Table))
		}
	case e.Table == m.pendingOpen && e.Err != nil:
		m.pendingOpen = ""
		m.scan = &view.ScanStatus{Table: e.Table, Err: fmt.Errorf("loading %s into the emulator: %w", e.Table, e.Err)}
	case e.Table == m.pendingOpen && m.scan != nil && m.scan.Loading:
		m.scan.Load = e
	}
	return tea.Batch(cmds...)
}

// openTable leaves the picker and starts scanning table.
func (m *Model) openTable(table string) tea.Cmd {
	m.pickerOpen = false
	m.table = table
	state := m.cfg.View.Normalized(nil)
	state.Selected, state.Lines = 0, nil
	m.levels = []level{{id: m.newID(), state: state}}
	m.findings = nil
	m.traffic = nil // the next look at the recording brings this table's
	m.diagGen++     // results of the previous table's diagnosis are stale
	m.diagnosing, m.diagPending = false, false
	m.matrix, m.path, m.buildErr = nil, nil, nil
	if m.backend == nil {
		m.setMessage("no connection to scan "+table+" with", true)
		return nil
	}
	return tea.Batch(m.startScan(table, nil, m.levels[0].id, "scanning "+table), m.fetchHotTablets(table))
}

// startScan cancels any running scan and starts a new one that fills the
// level with id levelID.
func (m *Model) startScan(table string, within *source.Range, levelID int, what string) tea.Cmd {
	m.stopScan()
	scanCtx, cancel := context.WithCancel(m.ctx)
	m.cancelScan = cancel
	m.scanID++
	m.scanLevel = levelID
	m.scan = &view.ScanStatus{Table: table, What: what, Running: true}
	return scanCmd(scanCtx, m.ctx, m.backend, m.scanID, table, within)
}

// stopScan cancels the running scan; its partial result still arrives.
func (m *Model) stopScan() {
	if m.cancelScan != nil {
		m.cancelScan()
		m.cancelScan = nil
	}
}

// gotProgress shows a scan's progress and its snapshot so far.
func (m *Model) gotProgress(p source.Progress) tea.Cmd {
	if m.scan == nil {
		return nil
	}
	m.scan.Progress = p
	if p.Snapshot == nil {
		return nil
	}
	if lv := m.levelByID(m.scanLevel); lv != nil {
		lv.stored = p.Snapshot
		lv.snap = m.compose(lv.stored)
		m.rebuild()
		if lv == &m.levels[0] && !m.diagnosing {
			return m.diagnose()
		}
	}
	return nil
}

// gotScan takes a finished (or stopped, or failed) scan's snapshot.
func (m *Model) gotScan(msg scanDoneMsg) tea.Cmd {
	m.cancelScan = nil
	stopping := m.stopping
	m.stopping = false
	lv := m.levelByID(m.scanLevel)
	if lv == nil {
		m.scan = nil // its level was left: nothing to show
		return nil
	}
	m.scan.Running = false
	m.scan.Err = msg.err
	if errors.Is(msg.err, source.ErrIncomplete) && msg.snapshot != nil {
		// Stopped part-way: show what was read, marked incomplete.
		m.scan.Err = nil
		m.setMessage("the scan stopped ("+msg.snapshot.Scan.Incomplete+"); showing what it read", !stopping)
	}
	if msg.snapshot == nil {
		return nil
	}
	lv.stored = msg.snapshot
	lv.snap = m.compose(lv.stored)
	m.rebuild()
	if lv == &m.levels[0] {
		return m.diagnose()
	}
	return nil
}

// rangeOf is the key range [start, end) re-read in full, with the
// delimiters of snap so that the tree splits the same way.
func rangeOf(start, end keyspace.Key, snap *keyspace.Snapshot) *source.Range {
	r := &source.Range{Start: start, End: end}
	if snap != nil {
		r.Delimiters = snap.Delimiters
	}
	return r
}
