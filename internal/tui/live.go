package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// liveInterval is how often the live view takes in the recording: Key
// Visualizer's own resolution at its finest is a minute, the recording's
// a second.
const liveInterval = time.Second

// liveMsg carries one look at the recording: the traffic of the table
// shown, and the status.
type liveMsg struct {
	table   string
	traffic *keyspace.Snapshot
	status  source.RecordingStatus
}

// liveTickCmd waits an interval, then takes the recording's traffic of
// table (none when empty) and its status.
func liveTickCmd(rec source.Recording, table string) tea.Cmd {
	return tea.Tick(liveInterval, func(time.Time) tea.Msg {
		msg := liveMsg{table: table, status: rec.Status()}
		if msg.status.Failed != nil {
			return orBug(msg, msg.status.Failed)
		}
		if table != "" {
			msg.traffic = rec.Snapshot(table)
		}
		return msg
	})
}

// gotLive takes in a look at the recording: the table's levels show the
// new traffic (joined with what their scans stored), the heatmap and its
// selected bucket's counters are redrawn, and the findings run again.
func (m *Model) gotLive(msg liveMsg) tea.Cmd {
	m.liveStatus = msg.status
	next := liveTickCmd(m.cfg.Recording, m.table)
	if msg.table != m.table || msg.traffic == nil || len(m.levels) == 0 {
		return next
	}
	m.traffic = msg.traffic
	for i := range m.levels {
		// The table's level, and the levels that re-read a range once
		// their read is in.
		if lv := &m.levels[i]; i == 0 || (lv.rescan != nil && lv.stored != nil) {
			lv.snap = m.compose(lv.stored)
		}
	}
	m.rebuild()
	cmds := []tea.Cmd{next, m.diagnose()}
	if src := m.cfg.HotTablets; src != nil && src.Simulated() {
		cmds = append(cmds, hotTabletsCmd(m.ctx, src, m.table, m.join(m.levels[0].stored)))
	}
	return tea.Batch(cmds...)
}

// compose returns what a level shows: the snapshot its scan stored joined
// with the recording's traffic of the table, either one alone when the
// other is missing (a table only the traffic knows, a view without a
// recording), with the table's hot tablets placed on it.
func (m *Model) compose(stored *keyspace.Snapshot) *keyspace.Snapshot {
	return m.withHot(m.join(stored))
}

// join returns stored joined with the recording's traffic of the table
// (see [Model.compose]).
func (m *Model) join(stored *keyspace.Snapshot) *keyspace.Snapshot {
	switch {
	case m.traffic == nil:
		return stored
	case stored == nil || stored.Root == nil:
		return m.traffic
	}
	joined, err := keyspace.Join(stored, m.traffic)
	if err != nil {
		return stored
	}
	return joined
}
