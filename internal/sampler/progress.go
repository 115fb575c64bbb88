package sampler

import (
	"sync"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// Progress is one report on a running [Scan], delivered to
// [Options.Progress]: [source.Progress], the events every source of the
// interactive view reports a scan with.
type Progress = source.Progress

// progress builds a report from the scanner's counters.
func (s *scanner) progress(snap *keyspace.Snapshot, final bool) Progress {
	elapsed := s.opts.Now().Sub(s.started)
	p := Progress{
		RangesDone: s.rangesDone, RangesTotal: len(s.plan.ranges),
		RowsRead: s.rowsRead.Load(), BytesRead: s.bytesRead.Load(),
		Elapsed: elapsed, Rescans: int(s.rescans.Load()),
		Mode: s.plan.mode, Fraction: s.plan.fraction, Method: s.plan.method, Reason: s.plan.reason,
		Snapshot: snap, Final: final,
	}
	if s.plan.readBytes > 0 {
		p.Done = min(1, float64(s.progressBytes.Load())/float64(s.plan.readBytes))
	} else if p.RangesTotal > 0 {
		p.Done = float64(p.RangesDone) / float64(p.RangesTotal)
	}
	if final && snap != nil && snap.Scan.Complete {
		p.Done = 1
	}
	if seconds := elapsed.Seconds(); seconds > 0 {
		p.RowsPerSecond = float64(p.RowsRead) / seconds
	}
	if p.Done > 0 && p.Done < 1 {
		p.ETA = time.Duration(float64(elapsed) * (1 - p.Done) / p.Done)
	}
	return p
}

// reporter delivers progress events to the receiver from a goroutine of
// its own, newest first: posting never blocks, and an event the receiver
// had no time for is replaced by the next one. The final event is never
// replaced, and close waits until it has been delivered.
type reporter struct {
	deliver func(Progress)
	mu      sync.Mutex
	pending *Progress
	final   bool
	wake    chan struct{}
	done    chan struct{}
}

func newReporter(deliver func(Progress)) *reporter {
	r := &reporter{deliver: deliver, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if deliver == nil {
		close(r.done)
		return r
	}
	go r.run()
	return r
}

// wanted reports whether anyone listens.
func (r *reporter) wanted() bool { return r.deliver != nil }

// post queues p, replacing an undelivered event.
func (r *reporter) post(p Progress) {
	if r.deliver == nil {
		return
	}
	r.mu.Lock()
	if !r.final {
		r.pending = &p
		r.final = p.Final
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *reporter) run() {
	defer close(r.done)
	for range r.wake {
		r.mu.Lock()
		p, final := r.pending, r.final
		r.pending = nil
		r.mu.Unlock()
		if p != nil {
			r.deliver(*p)
			if p.Final {
				return
			}
		} else if final {
			return
		}
	}
}

// close makes sure a final event is delivered (an empty one when the scan
// failed before it could report) and waits for the delivery.
func (r *reporter) close() {
	if r.deliver == nil {
		return
	}
	r.mu.Lock()
	final := r.final
	r.mu.Unlock()
	if !final {
		r.post(Progress{Final: true})
	}
	<-r.done
}
