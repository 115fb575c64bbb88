package sampler

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// ErrIncomplete is returned (wrapped, together with the cause) when a scan
// stopped part-way, cancelled or failed ([source.ErrIncomplete]). [Scan]
// then still returns the snapshot of what it read, marked incomplete; the
// command line writes it and exits 3.
var ErrIncomplete = source.ErrIncomplete

// Scan reads table's key space through conn and returns its snapshot.
// It reads the tablet map with SampleRowKeys, then the rows of the key
// range the options give, split at the tablet boundaries, with
// [Options.Concurrency] reads in flight, into one [keyspace.Builder]. A
// span sample on an emulator starts reading while SampleRowKeys still
// streams (see [spanPlanner]).
//
// Errors: a missing table wraps [connect.ErrTableNotFound] (naming the
// tables that exist), bad options wrap [ErrBadOptions]; both return no
// snapshot, and so does a SampleRowKeys that fails before any row was
// read. When the scan stops part-way (the context is cancelled, or a read
// fails after the client's retries) Scan returns the partial snapshot,
// with Scan.Complete false and Scan.Incomplete saying why, together with
// an error wrapping [ErrIncomplete] and the cause.
//
// To re-read one key range at full resolution (a drill-down into a
// sampled range), call Scan with Start, End and Full.
func Scan(ctx context.Context, conn *connect.Conn, table string, opts Options) (*keyspace.Snapshot, error) {
	opts, keyRange, err := opts.normalize(conn != nil && conn.Target.IsEmulator())
	if err != nil {
		return nil, err
	}
	report := newReporter(opts.Progress)
	defer report.close()
	started := opts.Now()
	info, err := conn.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	s := &scanner{
		conn: conn, table: conn.Client.Open(table), tableName: table, families: info.Families,
		opts: opts, bounds: keyRange, report: report, started: started, emulator: conn.Target.IsEmulator(),
	}
	return s.run(ctx)
}

// scanner is one scan in progress: readers feed events to the
// aggregating goroutine, which owns the builder.
type scanner struct {
	conn      *connect.Conn
	table     *bigtable.Table
	tableName string
	families  []string
	opts      Options
	bounds    bounds
	emulator  bool
	report    *reporter
	started   time.Time
	watch     *watchdog

	// spansChecked and spansAreTablets hold what counting an emulator's
	// median span found, once per scan (see [scanner.judge]).
	spansChecked, spansAreTablets bool

	// plan, builder and events are set before the aggregator starts;
	// while a span sample streams its tablet map, the readers already
	// send on events and touch neither plan nor builder.
	plan    *plan
	builder *keyspace.Builder
	events  chan event
	gate    *taskGate

	// Counters the readers update and the aggregator reports.
	rowsRead, bytesRead atomic.Int64
	progressBytes       atomic.Int64 // sampled bytes of the range covered so far
	rescans             atomic.Int64
	// rereadBytes is what re-reads of ranges a sample cannot explain
	// took of the read cap (see [scanner.mayReread]).
	rereadBytes atomic.Int64

	// delimiters are the key delimiters the scan decided before reading
	// (see decideDelimiters), when delimitersKnown.
	delimiters      string
	delimitersKnown bool

	// Owned by the aggregating goroutine.
	rangesDone int
	variance   variance
	groups     []groupEstimate
	// prefixVariances sum each top-level prefix's variance over the
	// tablets of a position sample.
	prefixVariances map[string]variance

	// refine is how a position sample's tablets of one prefix teach the
	// key maps before its tablets of several are read (see
	// [scanner.orderUnits]).
	refine refinement

	failOnce sync.Once
	failure  error
	cancel   context.CancelFunc
}

// event is what a reader hands the aggregator: a batch of rows, the end
// of range index (rescanned when it was re-read in full), or the end of
// a span sample's call.
type event struct {
	// task is the sequence number of the read task the event belongs to;
	// taskDone marks the task's end.
	task     int
	taskDone bool
	// from and to bound the task's keys [from, to), on batch events.
	from, to  string
	batch     *batch
	index     int
	rescanned bool
	// unexplained marks a range the sample cannot explain that the read
	// cap left unread (see [scanner.mayReread]).
	unexplained bool
	spans       spanRead
	// variance is what a finished range adds to the scan's, groups the
	// group estimates of a span sample's call (see [variance]), prefixes
	// what it adds to each top-level prefix's.
	variance variance
	groups   []groupEstimate
	prefixes map[string]variance
}

// fail records the first error that stops the scan and stops the
// readers; errors after it are consequences.
func (s *scanner) fail(err error) {
	s.failOnce.Do(func() {
		s.failure = err
		s.cancel()
	})
}

// recoverPanic, deferred by a goroutine of the scan, stops the scan with
// a panic in it as the scan's failure: a bug, which reaches the user as
// one ([bug.Error]); doing says what the goroutine did.
func (s *scanner) recoverPanic(doing string) {
	if err := bug.Recovered(recover()); err != nil {
		s.fail(fmt.Errorf("%s: %w", doing, err))
	}
}

func (s *scanner) run(parent context.Context) (*keyspace.Snapshot, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s.cancel = cancel
	if s.emulator {
		ctx = withoutScanHeartbeats(ctx)
	}
	s.watch = newWatchdog(s, max(s.opts.Concurrency, DefaultConcurrency)) // room for [scanner.fitReaders]
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		defer s.recoverPanic("watching the reads")
		s.watch.run(ctx)
	}()
	var stopOnce sync.Once
	stop := func() { // the readers and the watchdog
		stopOnce.Do(func() {
			cancel()
			<-watchDone
		})
	}
	defer stop()
	var readers *sync.WaitGroup
	var err error
	if s.streamsSpans() {
		readers, err = s.sampleSpansWhileMapping(ctx, parent)
	} else {
		readers, err = s.mapThenRead(ctx)
	}
	if err != nil {
		return nil, err
	}
	go func() {
		readers.Wait()
		close(s.events)
	}()
	s.aggregate()
	stop()
	return s.finish(parent)
}

// mapThenRead reads the tablet map, plans the scan and starts its
// readers.
func (s *scanner) mapThenRead(ctx context.Context) (*sync.WaitGroup, error) {
	var spans []span
	split := spanSplitter{start: s.bounds.start, end: s.bounds.end, emit: func(sp span) { spans = append(spans, sp) }}
	if err := streamRowKeys(ctx, s.conn, s.tableName, split.add); err != nil {
		return nil, err
	}
	split.close()
	s.plan = newPlan(spans, s.measure(ctx, spans), s.opts)
	s.fitReaders()
	if s.plan.method != keyspace.MethodPositions { // it announces once its tablets are cut
		s.announce()
	}
	return s.readPlan(ctx), nil
}

// fitReaders sets the reads in flight of a position sample when the
// user gave none: [DefaultConcurrency], whatever the server. Such a
// sample reads tablets in short reads of a few dozen rows, each a round
// trip that keeps neither end busy, so more in flight buy time on any
// server — on an emulator whose SampleRowKeys answers tablets too, which
// is planned as Cloud Bigtable would be: a 1% sample of 2M rows on 50
// tablets took 0.48 s with 2 in flight and 0.38 s with 8.
func (s *scanner) fitReaders() {
	if s.opts.defaultConcurrency && s.plan.method == keyspace.MethodPositions {
		s.opts.Concurrency = DefaultConcurrency
	}
}

// readPlan starts the readers of the plan's units or span calls; a
// position sample first finds the top-level prefixes in its tablets (see
// [scanner.discover]) and fits its model (see [plan.fitModel]).
func (s *scanner) readPlan(ctx context.Context) *sync.WaitGroup {
	if s.plan.method == keyspace.MethodPositions {
		if err := s.discover(ctx); err != nil && ctx.Err() == nil {
			s.fail(fmt.Errorf("finding the prefixes of the tablets: %w", err))
		}
		s.plan.fitModel()
		s.plan.boostPieces(float64(s.rowsRead.Load()))
		s.announce()
	}
	s.events = make(chan event, eventsPerReader*s.opts.Concurrency)
	s.gate = newTaskGate(s.opts.Concurrency, tasksAhead)
	tasks := make(chan task, len(s.plan.units)+len(s.plan.calls))
	for _, u := range s.orderUnits() {
		tasks <- task{seq: len(tasks), unit: u}
	}
	for _, call := range s.plan.calls {
		tasks <- task{seq: len(tasks), spans: call}
	}
	close(tasks)
	return s.startWorkers(ctx, tasks, min(s.opts.Concurrency, len(tasks)))
}

// eventsPerReader is how many events each reader may have waiting for
// the aggregator: enough to smooth out its pauses (a progress snapshot),
// few enough to bound the batches in memory.
const eventsPerReader = 4

// meta is the snapshot as known before the first row, with the tablet
// map's ranges that overlap [from, to) (an empty to is the end of the
// table): the builder owns it (with its copy of the ranges; the readers
// keep theirs).
func (s *scanner) meta(from, to string) *keyspace.Snapshot {
	p, target := s.plan, s.conn.Target
	meta := &keyspace.Snapshot{
		Source: keyspace.SourceBigtable, Project: target.Project, Instance: target.Instance,
		Table: s.tableName, AppProfile: target.AppProfile, Families: s.families,
		Ranges: slices.Clone(overlapping(p.ranges, from, to)), RangesAreTablets: p.shape.tablets,
		Scan: keyspace.ScanInfo{
			Mode: p.mode, Fraction: p.fraction, Method: p.method, MaxRows: p.maxRows,
			Start: keyspace.Key(s.bounds.start), End: keyspace.Key(s.bounds.end), Prefix: keyspace.Key(s.bounds.prefix),
			ValuesRead: !s.opts.StripValues, Concurrency: s.opts.Concurrency,
			Started: s.started.UTC().Round(0),
		},
	}
	if s.emulator {
		meta.Source = keyspace.SourceEmulator
	}
	return meta
}

// finish turns the builder's state into the result.
func (s *scanner) finish(parent context.Context) (*keyspace.Snapshot, error) {
	snap := s.snapshot()
	var err error
	total := len(s.plan.ranges)
	switch {
	case s.failure != nil:
		stopped := fmt.Sprintf("stopped after %d of %d ranges", s.rangesDone, total)
		snap.Scan.Incomplete = fmt.Sprintf("%s: %v", stopped, s.failure)
		err = fmt.Errorf("%w: table %s in %s: %s: %w", ErrIncomplete, escape.Quote(s.tableName), s.conn.Target.Where(), stopped, s.failure)
	case parent.Err() != nil:
		snap.Scan.Incomplete = fmt.Sprintf("cancelled after %d of %d ranges", s.rangesDone, total)
		err = fmt.Errorf("%w: table %s: %s: %w", ErrIncomplete, escape.Quote(s.tableName), snap.Scan.Incomplete, context.Cause(parent))
	}
	snap.Scan.Complete = err == nil
	if snap.Scan.Complete {
		snap.Scan.Incomplete = ""
	} else {
		s.extrapolate(&snap.Scan)
	}
	s.report.post(s.progress(snap, true))
	return snap, err
}

// snapshot returns a copy of the snapshot so far with the scan's timing
// and estimates filled in.
func (s *scanner) snapshot() *keyspace.Snapshot {
	snap := s.builder.Snapshot()
	snap.Scan.Duration = s.opts.Now().Sub(s.started)
	totals := snap.Totals()
	snap.Scan.RowsEstimated = int64(math.Round(totals.Rows))
	snap.Scan.BytesEstimated = int64(math.Round(totals.Bytes))
	if s.plan.maxRows > 0 && snap.Scan.RowsEstimated > 0 {
		snap.Scan.Fraction = min(1, float64(snap.Scan.RowsRead)/float64(snap.Scan.RowsEstimated))
	}
	v := s.variance
	v.add(collapsedVariance(s.groups))
	setInterval(&snap.Scan, v, s.bytesRead.Load())
	snap.Scan.PrefixVariances = s.prefixVarianceList()
	snap.Scan.Incomplete = fmt.Sprintf("scan in progress: %d of %d ranges read", s.rangesDone, len(s.plan.ranges))
	return snap
}

// extrapolate turns the estimates of a scan that stopped part-way into
// estimates of its whole range, by the share of the range's bytes it
// covered; the low ends keep what was counted, and the high ends are
// unknown (0).
func (s *scanner) extrapolate(scan *keyspace.ScanInfo) {
	scan.RowsEstimatedLow, scan.BytesEstimatedLow = min(scan.RowsEstimatedLow, scan.RowsEstimated), min(scan.BytesEstimatedLow, scan.BytesEstimated)
	scan.RowsEstimatedHigh, scan.BytesEstimatedHigh = 0, 0
	if s.plan.readBytes <= 0 {
		return
	}
	covered := float64(s.progressBytes.Load()) / float64(s.plan.readBytes)
	if covered > 0 && covered < 1 {
		scan.RowsEstimated = int64(math.Round(float64(scan.RowsEstimated) / covered))
		scan.BytesEstimated = int64(math.Round(float64(scan.BytesEstimated) / covered))
	}
}

// unitName describes the key range of u for messages.
func (s *scanner) unitName(u unit) string {
	return rangeName(string(s.plan.ranges[u.first].Start), string(s.plan.ranges[u.last-1].End))
}

// rangeName writes ["start", "end") with keys escaped by
// [keyspace.Printable].
func rangeName(start, end string) string {
	if end == "" {
		return fmt.Sprintf(`["%s", end of table)`, keyspace.Printable(start))
	}
	return fmt.Sprintf(`["%s", "%s")`, keyspace.Printable(start), keyspace.Printable(end))
}

// weight is how many rows each row read in the first pass stands for.
func (s *scanner) weight() float64 {
	if s.plan.mode.IsSample() && s.plan.fraction > 0 {
		return 1 / s.plan.fraction
	}
	return 1
}

// comparable returns the part of a row's size that SampleRowKeys'
// offsets count: values on an emulator, everything on Cloud Bigtable.
func (s *scanner) comparable(size rowSize) int64 {
	if s.conn.Target.IsEmulator() {
		return size.values
	}
	return size.logical
}

// overlapping returns the ranges of the sorted, disjoint list that
// overlap [from, to).
func overlapping(ranges []keyspace.Range, from, to string) []keyspace.Range {
	first := sort.Search(len(ranges), func(i int) bool {
		return ranges[i].End == "" || string(ranges[i].End) > from
	})
	last := first
	for last < len(ranges) && (to == "" || string(ranges[last].Start) < to) {
		last++
	}
	return ranges[first:last]
}
