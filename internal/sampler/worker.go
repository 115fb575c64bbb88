package sampler

import (
	"context"
	"fmt"
	"sync"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/keyspace"
)

// worker reads tasks one after another.
type worker struct {
	s        *scanner
	id       int
	watch    *watchdog
	families []string // scratch for batch.add
	seq      int      // the task being read
	from, to string   // and its keys [from, to)
}

// task is one ReadRows call: the consecutive ranges of a unit, or the
// spans of a span sample's call.
type task struct {
	seq   int // position in key order among the scan's tasks
	unit  unit
	spans spanRead
}

// startWorkers starts n workers reading tasks until it is closed or ctx
// ends, and returns what to wait on for them all to finish. A read that
// fails stops the scan.
func (s *scanner) startWorkers(ctx context.Context, tasks <-chan task, n int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for id := range n {
		wg.Go(func() {
			w := &worker{s: s, id: id, watch: s.watch}
			defer w.recoverPanic()
			for t := range tasks {
				if ctx.Err() != nil || !s.gate.wait(ctx, t.seq) {
					return
				}
				w.seq = t.seq
				var err error
				var name string
				if t.spans != nil {
					w.from, w.to = t.spans[0].start, t.spans[len(t.spans)-1].end
					name = rangeName(w.from, w.to)
					err = w.readSpans(ctx, t.spans, name)
				} else {
					w.from, w.to = string(s.plan.ranges[t.unit.first].Start), string(s.plan.ranges[t.unit.last-1].End)
					name = s.unitName(t.unit)
					if s.plan.method == keyspace.MethodPositions {
						err = w.readTablet(ctx, t.unit.first, name)
					} else {
						err = w.readUnit(ctx, t.unit, name)
					}
				}
				if err != nil {
					if ctx.Err() == nil {
						s.fail(fmt.Errorf("reading range %s: %w", name, err))
					}
					return
				}
				s.events <- event{task: t.seq, taskDone: true}
			}
		})
	}
	return &wg
}

// recoverPanic, deferred by a reader, stops the scan with a panic in its
// reads as the scan's failure: a bug, which reaches the user as one ([bug.Error]),
// with what was read before it kept as an incomplete snapshot.
func (w *worker) recoverPanic() {
	if err := bug.Recovered(recover()); err != nil {
		w.s.fail(fmt.Errorf("reading range %s: %w", rangeName(w.from, w.to), err))
	}
}

// counts are a reader's share of the scanner's counters.
type counts struct {
	rows, bytes, progress int64
}

// pass says how a read treats the rows of a range.
type pass uint8

const (
	passFirst   pass = iota // the scan's mode: full, sampled or budgeted
	passRescan              // a full re-read replacing a sampled range
	passOutlier             // a full re-read adding only the big rows the sample missed
)

// rangeReader follows one range through a read: it converts rows into
// batches and either streams them to the builder or holds them back
// while they may still be replaced (see [unexplained]) or reweighted
// (MaxRows).
type rangeReader struct {
	index    int
	estimate int64 // the range's sampled bytes
	weight   float64
	limit    int64 // MaxRows budget, 0 for none
	pass     pass

	holding bool // rows are held back, not streamed
	check   bool // the oversized-row test applies
	held    []*batch
	current *batch
	memory  int64

	// spans are the spans of a span sample's call, with their rows'
	// weights; cursor is the span the last row fell in (rows come in key
	// order).
	spans  spanRead
	cursor int

	// unreported is what r counted for the scanner's counters since it
	// last reported (see worker.report).
	unreported counts

	rows        int64 // rows read in this pass (within clip)
	logical     int64 // their logical bytes
	seen        int64 // the comparable bytes of every row read (see scanner.comparable)
	contributed int64 // progress bytes credited so far
	overflowed  bool  // held rows were released early (see maxHeldBytes)
	unexplained bool  // the sample cannot explain the range, the read cap left it unread
	bigKeys     map[string]bool

	// clip, when set, bounds the rows kept: a position sample reads a
	// tablet the scan's bounds cut over its whole length, and counts the
	// bytes of the rows outside towards its weight only.
	clip *bounds
	// units are a row budget's rows, for its variance; variance is what
	// the range adds to the scan's (see [variance]).
	units    ratioSums
	variance variance
	// spanRows and spanBytes count the rows and logical bytes of each
	// span of a span sample's call.
	spanRows, spanBytes []float64
	// tagging marks each row read with tag in its weight, the read it
	// came from, until its weight is known (see [worker.readPieces]).
	tagging bool
	tag     float64
	// prefixes is what the range adds to each top-level prefix's
	// variance (see [keyspace.ScanInfo].PrefixVariances).
	prefixes map[string]variance
}

// addPrefixVariance adds v to prefix's variance ("" adds nothing: the
// rows of no one prefix).
func (r *rangeReader) addPrefixVariance(prefix string, v variance) {
	if prefix == "" {
		return
	}
	if r.prefixes == nil {
		r.prefixes = map[string]variance{}
	}
	sum := r.prefixes[prefix]
	sum.add(v)
	r.prefixes[prefix] = sum
}

func (w *worker) newRangeReader(index int, p pass) *rangeReader {
	s := w.s
	r := &rangeReader{index: index, estimate: s.plan.ranges[index].SampledBytes, weight: 1, pass: p}
	if p != passFirst {
		return r
	}
	switch {
	case s.plan.maxRows > 0:
		r.limit = s.plan.limits[index]
		r.holding = true
	case s.plan.mode.IsSample() && !s.opts.StripValues:
		r.weight = s.weight()
		r.check = true
		r.holding = unexplained(r.estimate, 0, s.plan.rescanFloor)
	default:
		r.weight = s.weight()
	}
	return r
}

// readUnit reads the ranges of u in one ReadRows call, then re-reads
// those the oversized-row test flagged; name is u's key range.
func (w *worker) readUnit(ctx context.Context, u unit, name string) error {
	s := w.s
	w.watch.begin(w.id, name)
	defer w.watch.end(w.id)
	readers := make([]*rangeReader, 0, u.last-u.first)
	for i := u.first; i < u.last; i++ {
		readers = append(readers, w.newRangeReader(i, passFirst))
	}
	var again []*rangeReader
	cur := 0
	start, end := string(s.plan.ranges[u.first].Start), string(s.plan.ranges[u.last-1].End)
	err := s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
		key := row.Key()
		for cur < len(readers)-1 && !keyspace.InRange(key, "", string(s.plan.ranges[readers[cur].index].End)) {
			if w.finish(readers[cur]) {
				again = append(again, readers[cur])
			}
			cur++
		}
		w.add(readers[cur], row)
		return true
	}, s.readOptions(s.plan.method == keyspace.MethodRows, readers[0].limit)...)
	if err != nil {
		for _, r := range readers[cur:] {
			w.abandon(r)
		}
		for _, r := range again {
			w.abandon(r)
		}
		return err
	}
	for _, r := range readers[cur:] {
		if w.finish(r) {
			again = append(again, r)
		}
	}
	for _, r := range again {
		if err := w.reread(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// readOptions returns the filters of a read (a RowSampleFilter when
// sample is set) and its row limit (none when 0).
func (s *scanner) readOptions(sample bool, limit int64) []bigtable.ReadOption {
	var filters []bigtable.Filter
	if sample {
		filters = append(filters, bigtable.RowSampleFilter(s.plan.fraction))
	}
	if s.opts.StripValues {
		filters = append(filters, bigtable.StripValueFilter())
	}
	var opts []bigtable.ReadOption
	switch len(filters) {
	case 1:
		opts = append(opts, bigtable.RowFilter(filters[0]))
	case 2:
		opts = append(opts, bigtable.RowFilter(bigtable.ChainFilters(filters...)))
	}
	if limit > 0 {
		opts = append(opts, bigtable.LimitRows(limit))
	}
	return opts
}

// add converts one row into r's current batch.
func (w *worker) add(r *rangeReader, row bigtable.Row) {
	s := w.s
	if s.opts.readRow != nil {
		s.opts.readRow(row.Key())
	}
	if r.current == nil {
		r.current = newBatch()
	}
	before := r.current.memory
	size := r.current.add(row, r.weight, &w.families)
	switch converted := &r.current.rows[len(r.current.rows)-1]; {
	case r.spans != nil:
		converted.Weight = r.spanWeight(converted.Key)
	case r.tagging:
		converted.Weight = r.tag
	}
	r.memory += r.current.memory - before
	comparable := s.comparable(size)
	r.seen += comparable
	r.unreported.rows++
	r.unreported.bytes += size.logical
	w.watch.touch(w.id)
	w.credit(r, comparable)
	if r.clip != nil && !r.clip.inBounds(row.Key()) {
		r.current.rows = r.current.rows[:len(r.current.rows)-1] // outside the scan: counted, not kept
		return
	}
	r.rows++
	r.logical += size.logical
	switch {
	case r.spans != nil:
		r.spanRows[r.cursor]++
		r.spanBytes[r.cursor] += float64(size.logical)
	case r.limit > 0:
		r.units.add(1, float64(size.logical), float64(comparable))
	case r.pass == passFirst && s.plan.method == keyspace.MethodRows:
		r.variance.add(rowVariance(r.weight, size.logical))
	}
	if r.check && size.logical >= outlierRowBytes {
		if r.bigKeys == nil {
			r.bigKeys = make(map[string]bool)
		}
		r.bigKeys[row.Key()] = true
	}
	if r.pass == passOutlier && (size.logical < outlierRowBytes || r.bigKeys[row.Key()]) {
		r.current.rows = r.current.rows[:len(r.current.rows)-1] // not an outlier: drop it
		return
	}
	if r.holding && r.check {
		switch {
		case !unexplained(r.estimate, float64(r.seen)*r.weight, w.s.plan.rescanFloor):
			w.release(r) // the test can no longer fail: stream from now on
		case r.memory > s.opts.heldLimit:
			r.overflowed = true
			w.release(r)
		}
	}
	if r.current.full() {
		w.flushCurrent(r)
	}
}

// credit moves the progress bar by the share of the range's sampled
// bytes a row accounts for, never past the range's total.
func (w *worker) credit(r *rangeReader, comparable int64) {
	step := int64(float64(comparable) * r.weight)
	if r.limit > 0 && r.rows <= r.limit {
		step = r.estimate / r.limit
	}
	step = min(step, r.estimate-r.contributed)
	if step > 0 {
		r.contributed += step
		r.unreported.progress += step
	}
}

// report adds what r counted since the last report to the scanner's
// counters. Readers count locally and report once per batch, so that
// eight of them do not fight over the counters' cache line on every row.
func (w *worker) report(r *rangeReader) {
	c := &r.unreported
	if c.rows != 0 {
		total := w.s.rowsRead.Add(c.rows)
		w.s.bytesRead.Add(c.bytes)
		if hook := w.s.opts.rowsCounted; hook != nil {
			hook(total)
		}
	}
	if c.progress != 0 {
		w.s.progressBytes.Add(c.progress)
	}
	*c = counts{}
}

// flushCurrent reports r's counts and hands the current batch on, or
// holds it.
func (w *worker) flushCurrent(r *rangeReader) {
	w.report(r)
	if r.current == nil {
		return
	}
	b := r.current
	r.current = nil
	if len(b.rows) == 0 {
		b.release()
		return
	}
	if r.holding {
		r.held = append(r.held, b)
		return
	}
	w.s.events <- event{task: w.seq, batch: b, from: w.from, to: w.to}
}

// release streams r's held rows and everything after them.
func (w *worker) release(r *rangeReader) {
	r.holding = false
	for _, b := range r.held {
		w.s.events <- event{task: w.seq, batch: b, from: w.from, to: w.to}
	}
	r.held, r.memory = nil, 0
}

// finish ends r's pass and reports whether r must be read again.
func (w *worker) finish(r *rangeReader) (again bool) {
	w.flushCurrent(r)
	if r.limit > 0 {
		weight := budgetWeight(r.rows, r.limit, r.estimate, r.seen)
		for _, b := range r.held {
			b.setWeight(weight)
		}
		if weight > 1 {
			r.variance = r.units.variance(float64(r.estimate))
		}
	}
	if r.check && unexplained(r.estimate, float64(r.seen)*r.weight, w.s.plan.rescanFloor) {
		if !w.s.mayReread(r.estimate) {
			r.unexplained = true
			w.release(r)
			w.done(r, false)
			return false
		}
		if !r.overflowed {
			for _, b := range r.held {
				b.release()
			}
			r.held, r.memory = nil, 0
			r.pass = passRescan
		} else {
			r.pass = passOutlier
		}
		return true
	}
	w.release(r)
	w.done(r, false)
	return false
}

// done credits the rest of r's bytes and marks the range read.
func (w *worker) done(r *rangeReader, rescanned bool) {
	w.creditRest(r)
	w.s.events <- event{task: w.seq, index: r.index, rescanned: rescanned, unexplained: r.unexplained, variance: r.variance, prefixes: r.prefixes}
}

// creditRest moves the progress bar to the end of r's bytes.
func (w *worker) creditRest(r *rangeReader) {
	if rest := r.estimate - r.contributed; rest > 0 {
		r.contributed += rest
		r.unreported.progress += rest
	}
	w.report(r)
}

// abandon hands on what r read before the scan stopped: the rows are
// valid samples even though the range is not complete.
func (w *worker) abandon(r *rangeReader) {
	w.flushCurrent(r)
	if r.tagging { // weights not yet known: each row for itself
		for _, b := range r.held {
			b.setWeight(1)
		}
	}
	if r.limit > 0 {
		for _, b := range r.held {
			b.setWeight(budgetWeight(r.rows, r.limit, r.estimate, r.seen))
		}
	}
	w.release(r)
}

// reread reads r's range again at full resolution: replacing its sample
// (passRescan), or adding the big rows the sample missed (passOutlier).
func (w *worker) reread(ctx context.Context, r *rangeReader) error {
	s := w.s
	s.rescans.Add(1)
	r.weight, r.holding, r.check, r.rows, r.seen, r.logical = 1, false, false, 0, 0, 0
	r.tagging, r.prefixes = false, nil
	if r.pass == passRescan {
		r.variance = variance{} // the range is read in full: exact
	}
	rng := s.plan.ranges[r.index]
	err := s.table.ReadRows(ctx, bigtable.NewRange(string(rng.Start), string(rng.End)), func(row bigtable.Row) bool {
		w.add(r, row)
		return true
	})
	if err != nil {
		w.abandon(r)
		return err
	}
	w.flushCurrent(r)
	w.done(r, true)
	return nil
}
