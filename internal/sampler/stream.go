package sampler

import (
	"context"
	"fmt"
	"sync"

	"github.com/btviz/btviz/internal/keyspace"
)

// streamedEvents is how many events the readers of a span sample may
// queue while SampleRowKeys still streams and the builder, which needs
// the finished tablet map, does not exist yet. Each is a batch of at most
// batchRows rows (about 36 KB) or the end of a call (a few per batch at
// spansPerRead spans a call): room for the whole 5% sample of a table of
// a few million rows, and at most ~36 MB. Past it the readers wait for
// the tablet map. The channel holds pointers: the room costs nothing
// until rows fill it.
const streamedEvents = 1024

// streamsSpans reports whether the scan samples spans while the tablet
// map streams: an explicit --sample on an emulator, at a fraction that
// groups spans (see [spanGroupSize]). The default mode needs the table's
// size before it knows whether to sample, so it plans after the map.
func (s *scanner) streamsSpans() bool {
	return s.emulator && s.opts.Fraction > 0 && s.opts.Fraction < 1 && spanGroupSize(s.opts.Fraction) >= 2
}

// sampleSpansWhileMapping streams SampleRowKeys into a [spanPlanner]
// whose reads start at once, so that reading the sample overlaps the
// emulator's walk of the whole table. When the map is done it sets the
// plan; if the map has too few spans for a span sample it drops what was
// read and plans a row sample instead. If SampleRowKeys fails part-way
// after reads began, the scan stops and keeps them as a partial snapshot
// of the spans mapped so far; if it fails before, Scan fails as it would
// without a sample.
func (s *scanner) sampleSpansWhileMapping(ctx, parent context.Context) (*sync.WaitGroup, error) {
	s.events = make(chan event, streamedEvents)
	s.gate = newTaskGate(s.opts.Concurrency, spanTasksAhead)
	spanCtx, stopSpans := context.WithCancel(ctx)
	queue := newTaskQueue()
	tasks := make(chan task)
	go func() {
		defer s.recoverPanic("handing out span reads")
		queue.pump(spanCtx, tasks)
	}()
	readers := s.startWorkers(spanCtx, tasks, s.opts.Concurrency)
	go func() {
		readers.Wait()
		stopSpans()
	}()

	calls := 0
	planner := newSpanPlanner(s.opts.Fraction, s.opts.Seed, s.opts.Delimiters, func(call spanRead) {
		queue.push(task{seq: calls, spans: call})
		calls++
	})
	var shape mapShape
	planner.fine = func(first []span) bool {
		shape = s.measure(ctx, first)
		planner.delimiters, planner.delimitersKnown = shape.delimiters, shape.delimitersKnown
		return !shape.tablets
	}
	split := spanSplitter{start: s.bounds.start, end: s.bounds.end, emit: planner.add}
	err := streamRowKeys(ctx, s.conn, s.tableName, split.add)
	if err == nil {
		split.close()
	}
	readsBegan := len(planner.readIndexes) > 0
	planner.finish()
	queue.close()
	mode := chooseMode(s.opts, 0, 0)
	switch {
	case err != nil && !readsBegan:
		stopSpans()
		s.discard(readers)
		return nil, err
	case err != nil:
		if parent.Err() == nil {
			s.fail(fmt.Errorf("sampling row keys of the rest of the table: %w", err))
		}
		s.plan = spanPlan(planner, mode)
		s.announce()
		return readers, nil
	case !planner.usable():
		stopSpans()
		s.discard(readers)
		switch {
		case !shape.measured || shape.tablets && len(shape.keys) < pilotRows:
			shape = s.measure(ctx, planner.spans)
		case shape.tablets:
			// The pilot read its rows from the first spans, as it would
			// again: only the judgement needs the whole map.
			s.judge(ctx, &shape, planner.spans)
		}
		s.plan = newPlan(planner.spans, shape, s.opts)
		s.fitReaders()
		if s.plan.method != keyspace.MethodPositions { // it announces once its tablets are cut
			s.announce()
		}
		return s.readPlan(ctx), nil
	}
	s.plan = spanPlan(planner, mode)
	s.announce()
	return readers, nil
}

// discard waits for stopped readers and drops what they read.
func (s *scanner) discard(readers *sync.WaitGroup) {
	go func() {
		readers.Wait()
		close(s.events)
	}()
	for ev := range s.events {
		if ev.batch != nil {
			ev.batch.release()
		}
	}
	s.rowsRead.Store(0)
	s.bytesRead.Store(0)
	s.progressBytes.Store(0)
}

// taskQueue hands tasks to the readers in order without ever blocking
// the one who pushes them: the planner must keep draining SampleRowKeys
// while the readers wait for the builder.
type taskQueue struct {
	mu     sync.Mutex
	tasks  []task
	closed bool
	wake   chan struct{}
}

func newTaskQueue() *taskQueue { return &taskQueue{wake: make(chan struct{}, 1)} }

func (q *taskQueue) push(t task) {
	q.mu.Lock()
	q.tasks = append(q.tasks, t)
	q.mu.Unlock()
	q.signal()
}

// close says no more tasks come; pump closes its channel once the queue
// is empty.
func (q *taskQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *taskQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pump moves the tasks to out until the queue is closed and empty or ctx
// ends, then closes out.
func (q *taskQueue) pump(ctx context.Context, out chan<- task) {
	defer close(out)
	for {
		q.mu.Lock()
		switch {
		case len(q.tasks) > 0:
			t := q.tasks[0]
			q.tasks = q.tasks[1:]
			q.mu.Unlock()
			select {
			case out <- t:
			case <-ctx.Done():
				return
			}
			continue
		case q.closed:
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return
		}
	}
}
