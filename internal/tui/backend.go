package tui

import (
	"context"
	"errors"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
)

// Backend is the TUI's only door to Bigtable. The program calls every
// method from a tea.Cmd, never from Update, so a method may block on the
// network; it must return when ctx is cancelled.
type Backend interface {
	// Where says what the backend reads, for titles: "instance "btviz" of
	// project "local" (emulator at 127.0.0.1:40123)".
	Where() string
	// Reads says how a picked table is read, for the picker: "btviz
	// reads it with SampleRowKeys and parallel scans".
	Reads() string
	// Live reports whether [Backend.Scan] can read tables; false for a
	// saved snapshot, where drill-downs cannot re-read a range.
	Live() bool
	// ListTables returns the instance's tables in name order. It should be
	// quick: sizes come separately from [Backend.TableSizes].
	ListTables(ctx context.Context) ([]TableInfo, error)
	// TableSizes returns the size in bytes SampleRowKeys gives each named
	// table (the picker's estimate).
	TableSizes(ctx context.Context, tables []string) (map[string]int64, error)
	// Scan reads a table (or the key range opts names) into a snapshot,
	// calling progress with [sampler.Progress] events as it goes. On
	// cancellation it returns the partial snapshot, marked incomplete,
	// with an error wrapping [sampler.ErrIncomplete].
	Scan(ctx context.Context, table string, opts sampler.Options, progress func(sampler.Progress)) (*keyspace.Snapshot, error)
	// Loads delivers background loading progress (the demo's seeding),
	// one event per change; it is nil when nothing loads, and closed when
	// loading ends.
	Loads() <-chan LoadProgress
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

// ErrNotLive is returned by a backend that cannot scan (a saved snapshot).
var ErrNotLive = errors.New("no live connection: this is a saved snapshot")
