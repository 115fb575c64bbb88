package record

import (
	"sync"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// FileSink records into a btviz traffic recording file: a
// [keyspace.RecordingBuilder] aggregates the Ops, and every flush writes
// the recording so far to the file, atomically, marked incomplete until
// the final flush. A crash loses at most what came after the last flush,
// and a reader never sees a half-written file. It is safe for concurrent
// use: a live view may take [FileSink.Snapshot]s while it records.
type FileSink struct {
	path    string
	now     func() time.Time
	mu      sync.Mutex
	builder *keyspace.RecordingBuilder
	// undecodable is how many undecodable frames the builder was told of.
	undecodable int64
	// written is what the file held after the last flush that wrote it.
	written Written
}

// Written is what a recording file holds after the last flush that
// wrote it: how many calls, as of when, and whether it is complete.
type Written struct {
	Calls    int64
	At       time.Time
	Complete bool
}

// NewFileSink starts a recording that flushes to path; with an empty
// path it keeps the recording in memory only (a live view that writes no
// file). now is the clock (nil: time.Now); meta.Started defaults to now.
func NewFileSink(path string, meta keyspace.RecordingMeta, now func() time.Time) *FileSink {
	if now == nil {
		now = time.Now
	}
	if meta.Started.IsZero() {
		meta.Started = now()
	}
	return &FileSink{path: path, builder: keyspace.NewRecordingBuilder(meta, keyspace.Options{}), now: now}
}

// WriteTo starts writing the recording to path, and writes what it holds
// so far there at once: a sink made with no path (so that nothing
// touches the file until, say, the proxy's port is its own) begins to
// write, and an unwritable path fails before any application relies on
// the proxy.
func (s *FileSink) WriteTo(path string) error {
	s.mu.Lock()
	s.path = path
	s.mu.Unlock()
	if err := s.Flush(FlushInfo{}); err != nil {
		s.mu.Lock()
		s.path = "" // nothing is written there: the final flush tries no more
		s.mu.Unlock()
		return err
	}
	return nil
}

// Add folds op into the recording.
func (s *FileSink) Add(op *keyspace.Op) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.builder.Add(op)
}

// Flush writes the recording so far to the file, complete on the final
// flush, with the frames that did not decode counted.
func (s *FileSink) Flush(info FlushInfo) error {
	s.mu.Lock()
	for ; s.undecodable < info.Stats.Undecodable; s.undecodable++ {
		s.builder.AddUndecoded()
	}
	s.builder.SetTooLarge(info.Stats.TooLarge)
	if s.path == "" {
		s.mu.Unlock()
		return nil
	}
	now := s.now()
	rec := s.builder.Recording(now, info.Final)
	path := s.path
	s.mu.Unlock()
	if err := keyspace.SaveRecording(path, rec); err != nil {
		return err
	}
	s.mu.Lock()
	s.written = Written{Calls: info.Stats.Calls, At: now, Complete: info.Final}
	s.mu.Unlock()
	return nil
}

// Written returns what the file holds after the last flush that wrote
// it; ok is false when none did.
func (s *FileSink) Written() (w Written, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written, !s.written.At.IsZero()
}

// LeftOut returns the calls on tables the recording does not hold: tables
// the upstream answered NotFound for, and tables beyond
// [keyspace.RecordingTables] (nil when there were none).
func (s *FileSink) LeftOut() (notFound, overLimit *keyspace.TablesLeftOut) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.builder.LeftOut()
}

// Tables returns the names of the tables recorded so far, sorted.
func (s *FileSink) Tables() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.builder.Tables()
}

// Snapshot returns a deep copy of one table's traffic so far, or nil
// before it has any: what a live view shows.
func (s *FileSink) Snapshot(table string) *keyspace.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.builder.Snapshot(table, s.now())
}
