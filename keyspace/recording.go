package keyspace

import (
	"slices"
	"time"
)

// Recording is a traffic recording: what btviz's recording proxy saw an
// application do, one [Snapshot] per table it called, each with its
// [Traffic] set and its prefix tree built from the keys the traffic
// touched. It is saved and loaded like a snapshot ([SaveRecording],
// [ReadFile]).
type Recording struct {
	// Started and Duration bound the recording.
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	// Upstream says where the proxy forwarded calls to ("emulator at
	// localhost:8086", "instance prod of project p").
	Upstream string `json:"upstream"`
	// Complete is false for a recording flushed while the proxy still
	// ran (a crash loses at most what came after the last flush).
	Complete bool `json:"complete"`
	// Undecoded counts calls the proxy forwarded but could not decode
	// (they are in no table's counts).
	Undecoded int64 `json:"undecoded,omitempty"`
	// Tables holds one snapshot per table, sorted by name.
	Tables []*Snapshot `json:"tables"`
}

// Table returns the recording's snapshot of table, or nil.
func (r *Recording) Table(table string) *Snapshot {
	for _, s := range r.Tables {
		if s.Table == table {
			return s
		}
	}
	return nil
}

// TableNames returns the names of the recorded tables.
func (r *Recording) TableNames() []string {
	names := make([]string, len(r.Tables))
	for i, s := range r.Tables {
		names[i] = s.Table
	}
	return names
}

// RecordingMeta is what a [RecordingBuilder] knows before the first
// operation: where the calls go, and optionally the key delimiters.
type RecordingMeta struct {
	Source            Source
	Project, Instance string
	Upstream          string
	Started           time.Time
	// Delimiters fixes the key delimiters of every table; empty detects
	// each table's from its first keys.
	Delimiters string
}

// RecordingBuilder aggregates the operations of many tables into a
// [Recording], one [Builder] per table. Its memory is bounded by the
// builders' node budgets and hot-key counters, not by the number of
// operations. Like a Builder it is not safe for concurrent use.
type RecordingBuilder struct {
	meta      RecordingMeta
	opts      Options
	tables    map[string]*Builder
	undecoded int64
}

// DefaultTrafficNodes is the node budget of each table of a recording:
// every traffic node keeps five histograms, so it is smaller than a
// scan's.
const DefaultTrafficNodes = 4000

// NewRecordingBuilder starts a recording. opts bound each table's tree
// (MaxNodes defaults to [DefaultTrafficNodes]).
func NewRecordingBuilder(meta RecordingMeta, opts Options) *RecordingBuilder {
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultTrafficNodes
	}
	if meta.Delimiters != "" {
		opts.Delimiters = meta.Delimiters
	}
	return &RecordingBuilder{meta: meta, opts: opts, tables: map[string]*Builder{}}
}

// Add folds one operation into its table's traffic ([Builder.AddOp]).
func (r *RecordingBuilder) Add(op *Op) {
	b, ok := r.tables[op.Table]
	if !ok {
		b = NewBuilder(&Snapshot{
			Source: r.meta.Source, Project: r.meta.Project, Instance: r.meta.Instance, Table: op.Table,
			Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true, Started: r.meta.Started},
		}, r.opts)
		r.tables[op.Table] = b
	}
	b.AddOp(op)
}

// AddUndecoded counts a call the proxy forwarded but could not decode.
func (r *RecordingBuilder) AddUndecoded() { r.undecoded++ }

// Tables returns the names of the tables recorded so far, sorted.
func (r *RecordingBuilder) Tables() []string {
	names := make([]string, 0, len(r.tables))
	for name := range r.tables {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Snapshot returns a deep copy of one table's recording so far, as of
// now, or nil when the table has had no traffic.
func (r *RecordingBuilder) Snapshot(table string, now time.Time) *Snapshot {
	b, ok := r.tables[table]
	if !ok {
		return nil
	}
	snap := b.Snapshot()
	snap.Traffic.Started = r.meta.Started
	snap.Traffic.Duration = now.Sub(r.meta.Started)
	snap.Traffic.Upstream = r.meta.Upstream
	snap.Scan.Duration = snap.Traffic.Duration
	return snap
}

// Recording returns a deep copy of everything recorded so far, as of now;
// complete says whether the recording has ended.
func (r *RecordingBuilder) Recording(now time.Time, complete bool) *Recording {
	rec := &Recording{
		Started: r.meta.Started, Duration: now.Sub(r.meta.Started), Upstream: r.meta.Upstream,
		Complete: complete, Undecoded: r.undecoded,
	}
	for _, name := range r.Tables() {
		rec.Tables = append(rec.Tables, r.Snapshot(name, now))
	}
	return rec
}
