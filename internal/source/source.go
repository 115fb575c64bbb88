// Package source is the contract between the interactive view and what it
// reads: a [Source] lists tables and scans them, reporting [Progress] as it
// goes; a [Recording] is traffic recorded live; [HotTablets] gives a
// table's hot tablets. The sources themselves (a live scan, saved files, a
// recording, the demo emulator) are in package session, which does the
// I/O; this package holds only the values they hand over, so that the view
// and the program that runs it link no network code
// (docs/ARCHITECTURE.md).
package source

import (
	"context"
	"errors"

	"github.com/btviz/btviz/internal/keyspace"
)

// Source is where the interactive view reads tables: a live instance or
// emulator, saved files, a recording in progress. The program calls every
// method from a command, never while it handles a message, so a method may
// block on the network; it must return when ctx is cancelled.
type Source interface {
	// Where says what the source reads, for titles: "instance "btviz" of
	// project "local" (emulator at 127.0.0.1:40123)".
	Where() string
	// Reads says how a picked table is read, for the picker: "btviz
	// reads it with SampleRowKeys and parallel scans".
	Reads() string
	// Live reports whether [Source.Scan] can read tables; false for saved
	// snapshots, where drill-downs cannot re-read a range.
	Live() bool
	// ListTables returns the tables in name order. It should be quick:
	// sizes come separately from [Source.TableSizes].
	ListTables(ctx context.Context) ([]TableInfo, error)
	// TableSizes returns the size in bytes SampleRowKeys gives each named
	// table (the picker's estimate).
	TableSizes(ctx context.Context, tables []string) (map[string]int64, error)
	// Scan reads a table into a snapshot: the whole table as the source
	// was told to read it, or, with within set, that key range in full. It
	// reports to watch as it goes. On cancellation it returns the partial
	// snapshot, marked incomplete, with an error wrapping [ErrIncomplete].
	Scan(ctx context.Context, table string, within *Range, watch Watch) (*keyspace.Snapshot, error)
	// Loads delivers background loading progress (the demo's seeding),
	// one event per change; it is nil when nothing loads, and closed when
	// loading ends.
	Loads() <-chan LoadProgress
}

// Range is a key range a drill-down re-reads in full: [Start, End) (an
// empty End is the end of the table), split at Delimiters, the snapshot's
// it drills into, so that its tree splits the same way.
type Range struct {
	Start, End keyspace.Key
	Delimiters string
}

// Watch receives what a running scan says: its plan before it reads
// (Preview) and its progress as it reads (Progress, ending with a final
// event). Either may be nil.
type Watch struct {
	Progress func(Progress)
	Preview  func(Preview)
}

// TableInfo describes one table for the picker.
type TableInfo struct {
	// Name is the table's ID.
	Name string
	// Families are its column families, sorted.
	Families []string
	// Description says what the table holds (the demo scenarios have one).
	Description string
	// Loading is the table's background load while it lasts (nil when the
	// table is ready).
	Loading *LoadProgress
}

// LoadProgress reports how far a table has been loaded in the background.
type LoadProgress struct {
	// Table is the table being loaded.
	Table string
	// RowsWritten of RowsTotal rows are in.
	RowsWritten, RowsTotal int
	// Started is false while the table waits for its turn.
	Started bool
	// Done is set when the table is fully loaded, or failed with Err.
	Done bool
	Err  error
}

// Share returns how much of the table is loaded, from 0 to 1.
func (p LoadProgress) Share() float64 {
	if p.RowsTotal <= 0 {
		return 0
	}
	return min(1, float64(p.RowsWritten)/float64(p.RowsTotal))
}

// ErrNotLive is returned by a source that cannot scan (saved snapshots).
var ErrNotLive = errors.New("no live connection: this is a saved snapshot")
