package sampler

import (
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Progress pacing: counters at most every progressInterval, a fresh
// snapshot (a deep copy of the builder's tree, a few milliseconds) at most
// every snapshotInterval, so the TUI's heatmap fills in as ranges finish
// without copying the tree more than a few times a second.
const (
	progressInterval = 100 * time.Millisecond
	snapshotInterval = 250 * time.Millisecond
	// snapshotMinRows holds back progress snapshots until a few thousand
	// rows are in, so that the first picture is not a handful of keys.
	snapshotMinRows = 2000
)

// detectRows is how many rows the aggregator looks at to pick the key
// delimiters when the pilot could not (it read no row): every task's
// builder must split keys the same way.
const detectRows = 2000

// aggregate feeds the readers' events to the builders until every reader
// is done, reporting progress on the way. It is the only goroutine that
// touches the builders.
func (s *scanner) aggregate() {
	a := &appender{s: s, chunks: map[int]*keyspace.Builder{}, done: map[int]bool{}}
	if s.delimitersKnown {
		a.decide()
	}
	ticker := time.NewTicker(progressInterval)
	defer ticker.Stop()
	var lastProgress, lastSnapshot time.Time
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				a.finish()
				return
			}
			a.take(ev)
		case <-ticker.C:
		}
		if !s.report.wanted() {
			continue
		}
		now := s.opts.Now()
		if now.Sub(lastProgress) < progressInterval {
			continue
		}
		lastProgress = now
		p := s.progress(nil, false)
		if s.builder != nil && now.Sub(lastSnapshot) >= snapshotInterval && s.builder.Rows() >= snapshotMinRows {
			lastSnapshot = now
			p.Snapshot = s.snapshot()
		}
		s.report.post(p)
	}
}

// appender builds each read task into a builder of its own and appends
// finished tasks to the scan's builder in task order (see taskGate).
type appender struct {
	s *scanner
	// Events wait in held until the delimiters are decided.
	held               []event
	heldRows, heldDone int
	delimiters         string
	decided            bool

	chunks map[int]*keyspace.Builder // by task
	done   map[int]bool              // finished tasks not yet appended
	next   int                       // the next task to append
}

func (a *appender) take(ev event) {
	if a.decided {
		a.apply(ev)
		return
	}
	a.held = append(a.held, ev)
	if ev.batch != nil {
		a.heldRows += len(ev.batch.rows)
	}
	if ev.taskDone {
		a.heldDone++
	}
	// Decide once enough rows are in, or once every task the gate lets
	// start has finished (they may hold fewer rows than that in all).
	if a.heldRows >= detectRows || a.heldDone >= a.s.gate.window {
		a.decide()
	}
}

// decide fixes the delimiters, creates the scan's builder and replays
// the held events.
func (a *appender) decide() {
	s := a.s
	a.delimiters = s.delimiters
	if !s.delimitersKnown {
		var keys []string
		for _, ev := range a.held {
			if ev.batch != nil {
				for i := range ev.batch.rows {
					keys = append(keys, ev.batch.rows[i].Key)
				}
			}
		}
		a.delimiters = keyspace.DetectDelimiters(keys)
	}
	a.decided = true
	s.builder = keyspace.NewBuilder(s.meta("", ""), keyspace.Options{Delimiters: a.delimiters, DelimitersDecided: true, Seed: s.opts.Seed})
	held := a.held
	a.held = nil
	for _, ev := range held {
		a.apply(ev)
	}
}

func (a *appender) apply(ev event) {
	s := a.s
	switch {
	case ev.batch != nil:
		chunk := a.chunk(ev)
		for i := range ev.batch.rows {
			chunk.Add(&ev.batch.rows[i])
		}
		ev.batch.release()
	case ev.taskDone:
		a.done[ev.task] = true
		for a.done[a.next] {
			delete(a.done, a.next)
			a.appendTask(a.next)
			a.next++
		}
		s.gate.advance(a.next)
	case ev.spans != nil:
		s.groups = append(s.groups, ev.groups...)
		s.spansDone(ev.spans)
	default:
		s.variance.add(ev.variance)
		for prefix, v := range ev.prefixes {
			if s.prefixVariances == nil {
				s.prefixVariances = map[string]variance{}
			}
			sum := s.prefixVariances[prefix]
			sum.add(v)
			s.prefixVariances[prefix] = sum
		}
		s.markRange(ev.index, ev.rescanned)
		if ev.unexplained {
			s.builder.MarkUnexplained(ev.index)
		}
	}
}

// chunk returns the builder of the task of batch event ev, made with the
// tablet ranges the task's keys fall in.
func (a *appender) chunk(ev event) *keyspace.Builder {
	if b, ok := a.chunks[ev.task]; ok {
		return b
	}
	s := a.s
	b := keyspace.NewBuilder(s.meta(ev.from, ev.to), keyspace.Options{Delimiters: a.delimiters, DelimitersDecided: true, Seed: s.opts.Seed + uint64(ev.task) + 1})
	a.chunks[ev.task] = b
	return b
}

// appendTask appends task seq's rows, if it had any, to the scan's
// builder.
func (a *appender) appendTask(seq int) {
	chunk, ok := a.chunks[seq]
	if !ok {
		return
	}
	delete(a.chunks, seq)
	if err := a.s.builder.Append(chunk); err != nil {
		a.s.fail(err)
	}
}

// finish appends what is left when the readers are done: after a failed
// or cancelled scan, the tasks that did not finish (their rows are valid
// samples even though their ranges are incomplete), in task order.
func (a *appender) finish() {
	if !a.decided {
		a.decide()
	}
	for _, seq := range slices.Sorted(func(yield func(int) bool) {
		for seq := range a.chunks {
			if !yield(seq) {
				return
			}
		}
	}) {
		a.appendTask(seq)
	}
}

// markRange records that range i was read.
func (s *scanner) markRange(i int, rescanned bool) {
	s.builder.MarkRange(i, rescanned)
	s.rangesDone++
}

// spansDone records a finished call of a span sample: a range is read
// once all its spans are.
func (s *scanner) spansDone(call spanRead) {
	for _, read := range call {
		i := s.plan.rangeOfSpan(read.index)
		s.plan.readsLeft[i]--
		if s.plan.readsLeft[i] == 0 {
			s.markRange(i, false)
		}
	}
}
