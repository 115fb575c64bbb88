package record

import (
	"sync"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// opQueue hands Ops from the proxy's goroutines to the recorder's in
// batches. Putting an Op takes a lock and an append; the recorder is
// woken only when a batch is worth taking ([opQueue.kickAt] Ops), or by
// its own ticker, so that a call never pays for waking it. When
// [opQueue.limit] Ops wait, putters wait too: memory stays bounded.
type opQueue struct {
	mu      sync.Mutex
	room    *sync.Cond // signalled when the recorder takes a batch
	ops     []*keyspace.Op
	spare   []*keyspace.Op // the last batch's slice, for reuse
	limit   int
	kickAt  int
	kick    chan struct{}
	closed  bool
	waiting time.Duration // total time putters waited for room
	longest time.Duration
}

func newOpQueue(limit int) *opQueue {
	q := &opQueue{limit: limit, kickAt: max(1, limit/4), kick: make(chan struct{}, 1)}
	q.room = sync.NewCond(&q.mu)
	return q
}

// put queues op; it reports false (and drops op) once the queue is
// closed.
func (q *opQueue) put(op *keyspace.Op) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.ops) >= q.limit && !q.closed {
		began := time.Now()
		for len(q.ops) >= q.limit && !q.closed {
			q.room.Wait()
		}
		waited := time.Since(began)
		q.waiting += waited
		q.longest = max(q.longest, waited)
	}
	if q.closed {
		return false
	}
	q.ops = append(q.ops, op)
	if len(q.ops) == q.kickAt || len(q.ops) == q.limit {
		select {
		case q.kick <- struct{}{}:
		default:
		}
	}
	return true
}

// take returns the Ops queued so far (the slice is the caller's until
// its next take) and whether the queue is closed.
func (q *opQueue) take() ([]*keyspace.Op, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.ops
	q.ops = q.spare[:0]
	q.spare = batch
	q.room.Broadcast()
	return batch, q.closed
}

// close stops the queue: putters waiting give up, and later puts drop.
func (q *opQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.room.Broadcast()
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// waits returns the total and longest time putters waited for room.
func (q *opQueue) waits() (total, longest time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting, q.longest
}
