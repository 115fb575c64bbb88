package record

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/keyspace"
)

// Sink is where a recording goes: the traffic builder of a recording
// file, or anything else that takes [keyspace.Op]s. A [Recorder] calls
// both methods from one goroutine of its own, never at the same time, so
// a sink needs no locking.
type Sink interface {
	// Add takes one Op. The sink may keep it; nothing else changes it.
	Add(op *keyspace.Op)
	// Flush makes what the sink has so far durable (writes the
	// recording file), so that a crash loses at most one flush interval.
	Flush(FlushInfo) error
}

// FlushInfo is what a [Recorder] tells its sink with each flush.
type FlushInfo struct {
	// Final is set on the last flush, when the recorder closes: the
	// recording is complete.
	Final bool
	// Stats are the recorder's counters so far.
	Stats Stats
}

// RecorderOptions tune a [Recorder]; the zero value is the defaults.
type RecorderOptions struct {
	// FlushEvery is how often the sink is flushed (default 5 s).
	FlushEvery time.Duration
	// QueueLength is how many Ops may wait for the sink before the proxy
	// waits too (default 16384): a burst, or a slow flush, is absorbed
	// without holding up a call, and memory stays bounded.
	QueueLength int
	// Instance, when set (see [InstanceName]), records only calls on
	// that instance; calls on others are forwarded and counted.
	Instance string
	// Flushed, when set, is called on the recorder's goroutine after
	// every flush, with what the sink was told (the counters so far, and
	// whether it was the final flush) and the flush's error.
	Flushed func(FlushInfo, error)
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time
}

// Default recorder settings.
const (
	DefaultFlushEvery  = 5 * time.Second
	defaultQueueLength = 1 << 14
	// drainEvery is how often the recorder takes the Ops queued, when
	// fewer than a quarter of QueueLength came in between.
	drainEvery = 20 * time.Millisecond
)

// Recorder takes the Ops the proxy decodes and hands them to a [Sink] on
// a goroutine of its own: the proxy's goroutines only append an Op to a
// bounded queue, which the recorder drains in batches. It flushes the
// sink every [RecorderOptions.FlushEvery] and once more on
// [Recorder.Close].
type Recorder struct {
	sink      Sink
	opts      RecorderOptions
	instance  string
	now       func() time.Time
	queue     *opQueue
	done      chan struct{}
	closeOnce sync.Once
	// flushErr is the last flush's error, reported by Close.
	flushErr error
	// crash is a panic recovered in the sink (a bug, [bug.Error]), and
	// failed is closed when it happens: from then on the recorder drops
	// what it is given and writes nothing more, and Close returns it.
	crash  error
	failed chan struct{}

	calls, parts, undecodable, unrecorded, late, tooLarge atomic.Int64
}

// NewRecorder starts a recorder that feeds sink, which must not be nil.
func NewRecorder(sink Sink, opts RecorderOptions) *Recorder {
	if opts.FlushEvery <= 0 {
		opts.FlushEvery = DefaultFlushEvery
	}
	if opts.QueueLength <= 0 {
		opts.QueueLength = defaultQueueLength
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &Recorder{
		sink: sink, opts: opts, instance: opts.Instance, now: opts.Now,
		queue:  newOpQueue(opts.QueueLength),
		done:   make(chan struct{}),
		failed: make(chan struct{}),
	}
	go r.run()
	return r
}

// add queues op for the sink. When the queue is full it waits, and the
// time it waited is counted ([Stats.Waited]).
func (r *Recorder) add(op *keyspace.Op) {
	if !r.queue.put(op) {
		r.late.Add(1)
		return
	}
	if op.Part {
		r.parts.Add(1)
	} else {
		r.calls.Add(1)
	}
}

// run feeds the sink and flushes it on a ticker until the queue closes.
func (r *Recorder) run() {
	defer close(r.done)
	drain := time.NewTicker(drainEvery)
	defer drain.Stop()
	flush := time.NewTicker(r.opts.FlushEvery)
	defer flush.Stop()
	for {
		flushNow := false
		select {
		case <-r.queue.kick:
		case <-drain.C:
		case <-flush.C:
			flushNow = true
		}
		batch, closed := r.queue.take()
		r.feed(batch)
		if closed { // every put before the close was in this batch
			r.flush(true)
			return
		}
		if flushNow {
			r.flush(false)
		}
	}
}

// feed hands a batch of Ops to the sink, or drops it once the sink
// panicked: the proxy never waits for a recorder that stopped.
func (r *Recorder) feed(batch []*keyspace.Op) {
	defer r.recoverPanic()
	defer clear(batch)
	if r.crash != nil {
		return
	}
	for _, op := range batch {
		r.sink.Add(op)
	}
}

func (r *Recorder) flush(final bool) {
	if r.crash != nil {
		return // what the sink holds after a panic is not to be written
	}
	defer r.recoverPanic()
	info := FlushInfo{Final: final, Stats: r.Stats()}
	err := r.sink.Flush(info)
	r.flushErr = err
	if r.opts.Flushed != nil {
		r.opts.Flushed(info, err)
	}
}

// recoverPanic, deferred on the recorder's goroutine, turns a panic in
// the sink into the recorder's failure.
func (r *Recorder) recoverPanic() {
	if err := bug.Recovered(recover()); err != nil && r.crash == nil {
		r.crash = fmt.Errorf("recording the calls: %w", err)
		close(r.failed)
	}
}

// Close stops the recorder: every Op already queued reaches the sink,
// which is flushed a last time, as final; the error is that flush's, or
// the bug that stopped the recorder (a panic in the sink, [bug.Error]),
// after which the sink was not written again. Ops the proxy decodes
// after Close are dropped and counted ([Stats.Late]): stop the proxy
// first. Close may be called more than once.
func (r *Recorder) Close() error {
	r.closeOnce.Do(r.queue.close)
	<-r.done
	if r.crash != nil {
		return errors.Join(r.crash, r.flushErr)
	}
	return r.flushErr
}

// Stats are a recorder's counters so far.
type Stats struct {
	// Calls is how many data-API calls were recorded, Parts how many
	// further Ops carried the rows of long reads.
	Calls, Parts int64
	// Undecodable counts frames that did not decode (each was forwarded
	// all the same); Unrecorded counts data-API calls not recorded
	// because they name no table or another instance.
	Undecodable, Unrecorded int64
	// Late counts Ops that arrived after Close, and were dropped.
	Late int64
	// TooLarge counts messages over the size the proxy decodes whole
	// (each forwarded all the same): of a request, the call is recorded
	// from its head when it mutates one row; of a response, its rows and
	// the call's later ones are not counted.
	TooLarge int64
	// Waited is the total time calls spent waiting for room on the
	// recorder's queue, LongestWait the longest single wait: both zero
	// unless the sink falls behind.
	Waited, LongestWait time.Duration
}

// Stats returns the recorder's counters; it may be called at any time.
func (r *Recorder) Stats() Stats {
	s := Stats{
		Calls: r.calls.Load(), Parts: r.parts.Load(),
		Undecodable: r.undecodable.Load(), Unrecorded: r.unrecorded.Load(),
		Late: r.late.Load(), TooLarge: r.tooLarge.Load(),
	}
	s.Waited, s.LongestWait = r.queue.waits()
	return s
}
