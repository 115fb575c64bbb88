package source

import (
	"context"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
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
	// recovered in the proxy or its recorder, a *bug.Error): the view
	// ends with it.
	Failed error
}

// HotTablets gives the view the hot tablets of a table: Cloud
// Bigtable's (ListHotTablets, through package hottablets) or the demo's,
// simulated from the recording. The program calls it only from commands,
// so it may block on the network; it must return when ctx ends.
type HotTablets interface {
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
