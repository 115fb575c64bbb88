package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// handleKey handles a key press: the search prompt first, then the keys
// that work everywhere, then the picker's or the focused pane's.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.sh.Keys
	if m.searching {
		return m.searchKey(msg)
	}
	m.message = view.StatusMessage{}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case m.sh.Layout.TooSmall:
		return nil
	case key.Matches(msg, k.Help):
		m.toggleHelp()
		return nil
	case key.Matches(msg, k.Screenshot):
		return m.screenshot()
	case m.pickerOpen:
		return m.pickerKey(msg)
	case key.Matches(msg, k.Tables):
		return m.showPicker()
	}
	cur := m.current()
	if cur == nil {
		return nil
	}
	switch {
	case key.Matches(msg, k.Stop):
		if m.scan != nil && m.scan.Running && m.cancelScan != nil {
			m.stopScan()
			m.stopping = true
			m.setMessage("stopping the scan; keeping what was read", false)
		}
		return nil
	case key.Matches(msg, k.Rescan):
		return m.rescan()
	case key.Matches(msg, k.Copy):
		return m.copyKey()
	case key.Matches(msg, k.LabelTimes):
		m.toggleLabelTimes()
		return nil
	case key.Matches(msg, k.Search):
		return m.openPrompt(searchPrompt, searchPlaceholder, "")
	case key.Matches(msg, k.Focus):
		m.focus(view.Cycle(view.TabOrder(false), cur.state.Shown()))
		return nil
	case key.Matches(msg, k.FocusBack):
		m.focus(view.Cycle(view.TabOrder(true), cur.state.Shown()))
		return nil
	case key.Matches(msg, k.Metric):
		snap := m.snapOf(len(m.levels) - 1)
		cur.state.Metric = view.Cycle(heatmap.MetricsFor(snap), cur.state.Normalized(snap).Metric)
		m.rebuild()
		return nil
	case key.Matches(msg, k.Bucketing):
		m.cycleBucketing()
		return nil
	case key.Matches(msg, k.Brighter):
		cur.state.Scale = cur.state.Scale.Brighter()
		return nil
	case key.Matches(msg, k.Dimmer):
		cur.state.Scale = cur.state.Scale.Dimmer()
		return nil
	case key.Matches(msg, k.Scale):
		if cur.state.Scale.Kind == heatmap.ScaleLog {
			cur.state.Scale.Kind = heatmap.ScaleLinear
		} else {
			cur.state.Scale.Kind = heatmap.ScaleLog
		}
		return nil
	}
	return m.act(m.frame().Key(&cur.state, msg))
}

// act carries out what a pane asked for with a key, a click or the wheel
// ([view.Action]): what needs the levels, the scans or the status line.
func (m *Model) act(a view.Action) tea.Cmd {
	switch a := a.(type) {
	case view.Jump:
		m.jump(a.Key, a.Into)
	case view.ShowFinding:
		m.showFinding(a.Finding)
	case view.ShowDataset:
		m.showDataset(a.Dataset)
	case view.GoToPrefix:
		m.goToPrefix(a.Prefix)
	case view.Drill:
		return m.drill()
	case view.Back:
		m.back()
	}
	return nil
}

// focus shows pane p and gives it the keyboard.
func (m *Model) focus(p view.Pane) {
	cur := m.current()
	cur.state = cur.state.Showing(p)
}

// quit stops every scan and ends the program.
func (m *Model) quit() tea.Cmd {
	m.stopScan()
	return tea.Quit
}

// toggleHelp opens or closes the full help (the layout changes height).
func (m *Model) toggleHelp() {
	m.fullHelp = !m.fullHelp
	m.resize()
}

// screenshot writes the frame on screen as PNG and SVG, titled as
// `btviz export` titles the same view.
func (m *Model) screenshot() tea.Cmd {
	frame := artifact.Frame{Text: m.render(), Columns: m.width, Rows: m.height, Dark: m.sh.IsDark}
	table := m.table
	if m.pickerOpen {
		table = "tables"
		frame.Title = artifact.Title(m.picker.Where, "tables", "")
	} else {
		snap := m.snapOf(len(m.levels) - 1)
		if snap == nil {
			snap = &keyspace.Snapshot{Table: table} // still scanning
		}
		frame.Title = view.ScreenshotTitle(snap, m.ViewState())
	}
	return screenshotCmd(m.cfg.ScreenshotDir, table, frame, m.cfg.Now)
}

// showPicker opens the table picker (refreshing its list).
func (m *Model) showPicker() tea.Cmd {
	if m.backend == nil {
		m.setMessage("no connection to list tables with: this is a saved snapshot", true)
		return nil
	}
	m.pickerOpen = true
	m.picker.Listing = len(m.picker.Tables) == 0
	m.picker.SelectTable(m.table)
	return listTablesCmd(m.ctx, m.backend)
}

// pickerKey handles a key in the table picker.
func (m *Model) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.sh.Keys
	p := m.picker
	if i, ok := view.ListMove(k, msg, p.Selected, len(p.Shown()), m.sh.Layout.Picker.H); ok {
		p.Selected = i
		return nil
	}
	switch {
	case key.Matches(msg, k.Search):
		// A new filter, as / starts a new search anywhere: the old one
		// goes, rather than take the new typing at its end.
		p.SetFilter("")
		return m.openPrompt(filterPrompt, filterPlaceholder, "")
	case key.Matches(msg, k.OpenTable):
		t, ok := p.SelectedTable()
		if !ok {
			return nil
		}
		if t.Loading != nil {
			if t.Loading.Err != nil {
				m.setMessage("table "+t.Name+" failed to load: "+t.Loading.Err.Error(), true)
			} else {
				m.setMessage(t.Name+" is still loading; it opens once it is ready", false)
				m.pendingOpen = t.Name
			}
			return nil
		}
		if t.Name == m.table && len(m.levels) > 0 {
			m.pickerOpen = false
			return nil
		}
		return m.openTable(t.Name)
	case key.Matches(msg, k.Back):
		switch {
		case p.Filter != "":
			p.SetFilter("")
		case len(m.levels) > 0:
			m.pickerOpen = false
		}
	}
	return nil
}

// cycleBucketing moves to the next bucketing mode, skipping tablets when
// the snapshot has no tablet map.
func (m *Model) cycleBucketing() {
	cur := m.current()
	next := view.Cycle(heatmap.Bucketings(), cur.state.Bucketing)
	if snap := m.snapOf(len(m.levels) - 1); next == heatmap.BucketTablets && (snap == nil || len(snap.Ranges) == 0) {
		next = view.Cycle(heatmap.Bucketings(), next)
	}
	cur.state.Bucketing = next
	m.rebuild()
}

// searchKey handles a key while the search prompt is open.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.sh.Keys
	switch {
	case key.Matches(msg, k.ForceQuit):
		return m.quit()
	case key.Matches(msg, k.Cancel):
		m.closeSearch()
		if m.pickerOpen {
			m.picker.SetFilter("")
		}
		return nil
	case key.Matches(msg, k.Accept):
		text := m.search.Value()
		m.closeSearch()
		if m.pickerOpen {
			return nil // the filter follows the typing
		}
		prefix, err := keyspace.ParseKey(text)
		if err != nil {
			m.setMessage(err.Error(), true)
			return nil
		}
		if prefix == "" {
			m.goToPrefix("")
			return nil
		}
		m.jump(prefix, true)
		return nil
	}
	var cmd tea.Cmd
	m.search, cmd = m.search.Update(msg)
	if m.pickerOpen {
		m.picker.SetFilter(m.search.Value())
	}
	return cmd
}

// openPrompt opens the status line's text input: the prefix search, or
// the picker's filter.
func (m *Model) openPrompt(prompt, placeholder, value string) tea.Cmd {
	m.searching = true
	m.search.Prompt, m.search.Placeholder = prompt, placeholder
	m.sizeSearch()
	m.search.SetValue(value)
	m.search.CursorEnd()
	return m.search.Focus()
}

// closeSearch hides the search prompt.
func (m *Model) closeSearch() {
	m.searching = false
	m.search.Blur()
}

// toggleLabelTimes shows or hides the times key labels hold, and says
// what it did.
func (m *Model) toggleLabelTimes() {
	cur := m.current()
	cur.state.LabelTimes = !cur.state.LabelTimes
	switch {
	case !cur.state.LabelTimes:
		m.setMessage("labels show keys only (t shows the times they hold)", false)
	case m.matrix != nil && slices.ContainsFunc(m.matrix.Buckets, func(b heatmap.Bucket) bool { return b.LabelTime != "" }):
		m.setMessage("labels show the UTC time their key holds (t hides it)", false)
	default:
		m.setMessage("no label of this view holds a time btviz reads (epoch, reversed timestamp, date); t hides times again", false)
	}
}
