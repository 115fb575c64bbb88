package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// hotMsg brings the hot tablets of table, or why there are none.
type hotMsg struct {
	table string
	hot   *keyspace.HotTablets
	err   error
}

// hotTabletsCmd asks source for the hot tablets of table.
func hotTabletsCmd(ctx context.Context, source source.HotTablets, table string, shown *keyspace.Snapshot) tea.Cmd {
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
