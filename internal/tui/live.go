package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Recording is a traffic recording in progress, which the live view
// shows as it grows (`btviz record --tui`, `btviz --emulator --traffic`).
// The program calls it only from commands. Implementations are safe for
// concurrent use.
type Recording interface {
	// Tables returns the tables with traffic so far, sorted.
	Tables() []string
	// Snapshot returns a deep copy of one table's traffic so far, or nil
	// before it has any.
	Snapshot(table string) *keyspace.Snapshot
	// Status says how the recording goes.
	Status() RecordingStatus
}

// RecordingStatus is the live view's status line: what the recording
// proxy has forwarded and whether its upstream answers.
type RecordingStatus struct {
	// Listen is the address clients point BIGTABLE_EMULATOR_HOST at;
	// Upstream names where calls go.
	Listen, Upstream string
	// Elapsed is how long it has recorded; Calls counts the calls
	// forwarded so far.
	Elapsed time.Duration
	Calls   int64
	// UpstreamErr is set while the upstream does not answer: clients get
	// Unavailable, and the proxy keeps running.
	UpstreamErr error
	// Workload names the demo load generator feeding the recording, if
	// any.
	Workload string
	// Failed is set once the recording stopped on a bug (a panic
	// recovered in the proxy or its recorder, [bug.Error]): the view
	// ends with it.
	Failed error
}

// liveInterval is how often the live view takes in the recording: Key
// Visualizer's own resolution at its finest is a minute, the recording's
// a second.
const liveInterval = time.Second

// liveMsg carries one look at the recording: the traffic of the table
// shown, and the status.
type liveMsg struct {
	table   string
	traffic *keyspace.Snapshot
	status  RecordingStatus
}

// liveTickCmd waits an interval, then takes the recording's traffic of
// table (none when empty) and its status.
func liveTickCmd(rec Recording, table string) tea.Cmd {
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

// liveLine is the status line while a recording runs: where clients
// connect, what was recorded, and whether the upstream answers.
func (f *frame) liveLine(width int) string {
	st := &f.styles
	s := f.live
	text := fmt.Sprintf("recording %s · %s calls", units.Duration(s.Elapsed.Round(time.Second)), units.Count(float64(s.Calls)))
	if s.Workload != "" {
		text += " · demo traffic " + s.Workload
	}
	if s.Listen != "" {
		text += " · clients: BIGTABLE_EMULATOR_HOST=" + s.Listen
	}
	if s.UpstreamErr != nil {
		return " " + st.Error.Render("✗ ") + st.Text.Render(cut(safeText("upstream down ("+s.UpstreamErr.Error()+"); clients get Unavailable, recording goes on · "+text), width-4))
	}
	return " " + st.Good.Render("● ") + st.Muted.Render(cut(safeText(text), width-4))
}
