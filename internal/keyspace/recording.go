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
	// TooLarge counts messages larger than the proxy decodes whole (a
	// 100 MB cell), which it forwarded decoding only their head: a
	// mutation of one row is recorded from it; a read's rows from that
	// message on are not counted.
	TooLarge int64 `json:"too_large,omitempty"`
	// NotFound counts the calls on tables the upstream answered NotFound
	// for (tables that do not exist), which are not recorded; OverLimit
	// the calls on tables beyond the [RecordingTables] a recording
	// holds. Nil when there were none.
	NotFound  *TablesLeftOut `json:"not_found,omitempty"`
	OverLimit *TablesLeftOut `json:"over_limit,omitempty"`
	// Tables holds one snapshot per table, sorted by name.
	Tables []*Snapshot `json:"tables"`
}

// TablesLeftOut counts the calls on tables a recording did not record,
// and names the tables called most ([NotFoundNamesKept] of them).
type TablesLeftOut struct {
	Calls  int64        `json:"calls"`
	Tables []TableCalls `json:"tables"`
}

// TableCalls is how often a table was called: Calls over-estimates the
// true count by at most Error (a bounded top-K counter), as [HotRow]'s
// count does.
type TableCalls struct {
	Table string  `json:"table"`
	Calls float64 `json:"calls"`
	Error float64 `json:"error,omitempty"`
}

// Names returns the tables' names, the most called first.
func (l *TablesLeftOut) Names() []string {
	if l == nil {
		return nil
	}
	names := make([]string, len(l.Tables))
	for i, t := range l.Tables {
		names[i] = t.Table
	}
	return names
}

// IncompleteRecording is what an incomplete recording's tables say as
// the reason their scan is incomplete ([ScanInfo.Incomplete]).
const IncompleteRecording = "the recording was cut off: this is its last periodic write (btviz record was killed, " +
	"crashed, or could not write at the end), and the calls after it are missing"

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
	tooLarge  int64
	// notFound and overLimit count the calls on tables not recorded.
	notFound, overLimit leftOutCounter
}

// leftOutCounter counts the calls on tables a recording leaves out and
// keeps the names of the most called.
type leftOutCounter struct {
	calls int64
	names hotCounter
}

func (c *leftOutCounter) add(table string) {
	if c.calls == 0 {
		c.names = newHotCounter(NotFoundNamesKept)
	}
	c.calls++
	c.names.add(table, 1, 0)
}

// list returns what the counter holds for a file, nil when it counted
// nothing.
func (c *leftOutCounter) list() *TablesLeftOut {
	if c.calls == 0 {
		return nil
	}
	l := &TablesLeftOut{Calls: c.calls, Tables: []TableCalls{}}
	for _, e := range c.names.top(NotFoundNamesKept) {
		l.Tables = append(l.Tables, TableCalls{Table: e.key, Calls: e.count, Error: e.error})
	}
	return l
}

// notFoundCode is gRPC's NotFound status code, the answer of the data API
// to a call on a table that does not exist.
const notFoundCode = 5

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
// A call the upstream answered NotFound for, on a table no call has
// found, is counted and not built ([TablesLeftOut]), as is a call on a
// table beyond the [RecordingTables] the recording holds.
func (r *RecordingBuilder) Add(op *Op) {
	table := cutText(op.Table)
	b, ok := r.tables[table]
	if !ok {
		switch {
		case op.Part && len(r.tables) >= RecordingTables:
			return // the rows of a call on a table left out
		case op.Part:
			// The first call on a table can be a scan whose first
			// answers arrive before the call ends: rows came back, so the
			// table exists, and they count.
		case op.Code == notFoundCode:
			r.notFound.add(table)
			return
		case len(r.tables) >= RecordingTables:
			r.overLimit.add(table)
			return
		}
		b = NewBuilder(&Snapshot{
			Source: r.meta.Source, Project: r.meta.Project, Instance: r.meta.Instance, Table: table,
			Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true, Started: r.meta.Started},
		}, r.opts)
		r.tables[table] = b
		r.shareNodes()
	}
	if table != op.Table {
		cut := *op
		cut.Table = table
		op = &cut
	}
	b.AddOp(op)
}

// LeftOut returns the calls on tables the recording does not hold: tables
// the upstream answered NotFound for, and tables beyond [RecordingTables]
// (nil when there were none).
func (r *RecordingBuilder) LeftOut() (notFound, overLimit *TablesLeftOut) {
	return r.notFound.list(), r.overLimit.list()
}

// shareNodes gives every table its part of [RecordingNodes] and
// [RecordingKeyBytes]: the budgets the recording was made with, until the
// tables share more.
func (r *RecordingBuilder) shareNodes() {
	nodes := max(min(r.opts.MaxNodes, RecordingNodes/len(r.tables)), 1)
	keyBytes := min(TreeKeyBytes, RecordingKeyBytes/len(r.tables))
	for _, b := range r.tables {
		if b.opts.MaxNodes != nodes || b.keys.budget() != keyBytes {
			b.setBudget(nodes, keyBytes)
		}
	}
}

// AddUndecoded counts a call the proxy forwarded but could not decode.
func (r *RecordingBuilder) AddUndecoded() { r.undecoded++ }

// SetTooLarge sets how many messages were too large to decode whole
// ([Recording.TooLarge]).
func (r *RecordingBuilder) SetTooLarge(n int64) { r.tooLarge = n }

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
// complete says whether the recording has ended. The tables of an
// incomplete one say so as their scans' reason ([IncompleteRecording]).
func (r *RecordingBuilder) Recording(now time.Time, complete bool) *Recording {
	rec := &Recording{
		Started: r.meta.Started, Duration: now.Sub(r.meta.Started), Upstream: cutText(r.meta.Upstream),
		Complete: complete, Undecoded: r.undecoded, TooLarge: r.tooLarge, NotFound: r.notFound.list(), OverLimit: r.overLimit.list(),
	}
	for _, name := range r.Tables() {
		snap := r.Snapshot(name, now)
		if !complete {
			snap.Scan.Complete, snap.Scan.Incomplete = false, IncompleteRecording
			snap.Traffic.Incomplete = IncompleteRecording
		}
		rec.Tables = append(rec.Tables, snap)
	}
	return rec
}
