package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/keyspace"
)

// HotTabletSource gives the view the hot tablets of a table: Cloud
// Bigtable's (ListHotTablets, through package hottablets) or the demo's,
// simulated from the recording. The program calls it only from commands,
// so it may block on the network; it must return when ctx ends.
type HotTabletSource interface {
	// HotTablets returns the hot tablets of table. shown is what the
	// view shows of the table so far (its scan joined with a recording),
	// which a simulation computes them from and Cloud Bigtable's source
	// does not need. A window with no hot tablet is an empty list, not
	// an error.
	HotTablets(ctx context.Context, table string, shown *keyspace.Snapshot) (*keyspace.HotTablets, error)
	// Simulated reports whether the hot tablets follow what the view
	// shows (the demo's): they are asked for again with each look at the
	// recording, rather than once per table.
	Simulated() bool
}

// hotMsg brings the hot tablets of table, or why there are none.
type hotMsg struct {
	table string
	hot   *keyspace.HotTablets
	err   error
}

// hotTabletsCmd asks source for the hot tablets of table.
func hotTabletsCmd(ctx context.Context, source HotTabletSource, table string, shown *keyspace.Snapshot) tea.Cmd {
	return func() tea.Msg {
		hot, err := source.HotTablets(ctx, table, shown)
		return orBug(hotMsg{table: table, hot: hot, err: err}, err)
	}
}

// fetchHotTablets asks for the table's hot tablets once it is opened
// (Cloud Bigtable's); the demo's follow each look at the recording.
func (m *Model) fetchHotTablets(table string) tea.Cmd {
	m.hot, m.hotErr = nil, nil
	if m.cfg.HotTablets == nil || m.cfg.HotTablets.Simulated() {
		return nil
	}
	return hotTabletsCmd(m.ctx, m.cfg.HotTablets, table, nil)
}

// gotHot takes in a table's hot tablets: every level shows them, and the
// findings run again; an error is shown in the status line.
func (m *Model) gotHot(msg hotMsg) tea.Cmd {
	if msg.table != m.table {
		return nil
	}
	if msg.err != nil {
		m.hotErr = msg.err
		m.setMessage("hot tablets: "+msg.err.Error(), true)
		return nil
	}
	if msg.hot == nil {
		return nil
	}
	first := m.hot == nil
	m.hot = msg.hot
	if first && !msg.hot.Simulated() && len(msg.hot.Tablets) == 0 {
		m.setMessage("no hot tablets of "+m.table+" in the window asked: the cpu view says so", false)
	}
	for i := range m.levels {
		if lv := &m.levels[i]; lv.stored != nil || i == 0 {
			lv.snap = m.compose(lv.stored)
		}
	}
	m.rebuild()
	return m.diagnose()
}

// withHot returns snap with the table's hot tablets placed on it, or
// snap itself when there are none yet.
func (m *Model) withHot(snap *keyspace.Snapshot) *keyspace.Snapshot {
	if m.hot == nil {
		return snap
	}
	if snap == nil || snap.Root == nil {
		return keyspace.HotTabletsSnapshot(m.hot, m.table, keyspace.SourceBigtable)
	}
	return keyspace.WithHotTablets(snap, m.hot)
}
