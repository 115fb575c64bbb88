package sampler

import "time"

// Progress pacing: counters at most every progressInterval, a fresh
// snapshot (a deep copy of the builder's tree, a few milliseconds) at most
// every snapshotInterval, so the TUI's heatmap fills in as ranges finish
// without copying the tree more than a few times a second.
const (
	progressInterval = 100 * time.Millisecond
	snapshotInterval = 250 * time.Millisecond
	// snapshotMinRows holds back progress snapshots until the builder has
	// seen enough rows to pick the key delimiters (a snapshot fixes them),
	// the number keyspace.Options.DetectRows defaults to.
	snapshotMinRows = 2000
)

// aggregate feeds the readers' batches to the builder until every reader
// is done, reporting progress on the way. It is the only goroutine that
// touches the builder.
func (s *scanner) aggregate() {
	ticker := time.NewTicker(progressInterval)
	defer ticker.Stop()
	var lastProgress, lastSnapshot time.Time
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				return
			}
			switch {
			case ev.batch != nil:
				for i := range ev.batch.rows {
					s.builder.Add(&ev.batch.rows[i])
				}
				ev.batch.release()
			case ev.spans != nil:
				s.spansDone(ev.spans)
			default:
				s.markRange(ev.index, ev.rescanned)
			}
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
		if now.Sub(lastSnapshot) >= snapshotInterval && s.builder.Rows() >= snapshotMinRows {
			lastSnapshot = now
			p.Snapshot = s.snapshot()
		}
		s.report.post(p)
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
