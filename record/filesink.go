package record

import (
	"time"

	"github.com/btviz/btviz/keyspace"
)

// FileSink records into a btviz traffic recording file: a
// [keyspace.RecordingBuilder] aggregates the Ops, and every flush writes
// the recording so far to the file, atomically, marked incomplete until
// the final flush. A crash loses at most what came after the last flush,
// and a reader never sees a half-written file.
type FileSink struct {
	path    string
	builder *keyspace.RecordingBuilder
	now     func() time.Time
	// undecodable is how many undecodable frames the builder was told of.
	undecodable int64
}

// NewFileSink starts a recording that flushes to path. now is the clock
// (nil: time.Now); meta.Started defaults to now.
func NewFileSink(path string, meta keyspace.RecordingMeta, now func() time.Time) *FileSink {
	if now == nil {
		now = time.Now
	}
	if meta.Started.IsZero() {
		meta.Started = now()
	}
	return &FileSink{path: path, builder: keyspace.NewRecordingBuilder(meta, keyspace.Options{}), now: now}
}

// Add folds op into the recording.
func (s *FileSink) Add(op *keyspace.Op) { s.builder.Add(op) }

// Flush writes the recording so far to the file, complete on the final
// flush, with the frames that did not decode counted.
func (s *FileSink) Flush(info FlushInfo) error {
	for ; s.undecodable < info.Stats.Undecodable; s.undecodable++ {
		s.builder.AddUndecoded()
	}
	return keyspace.SaveRecording(s.path, s.builder.Recording(s.now(), info.Final))
}

// Tables returns the names of the tables recorded so far.
func (s *FileSink) Tables() []string { return s.builder.Tables() }
