package sampler

import (
	"context"
	"sync"
)

// The tree of a snapshot must not depend on how a parallel scan's rows
// happen to interleave: a prefix whose first rows arrive while its other
// rows are still being read elsewhere would be judged on partial totals
// (and merged away). So each read task (one ReadRows call over a
// contiguous key range) aggregates into its own keyspace.Builder, and
// finished tasks are appended to the scan's builder in task order, which
// is key order (see keyspace.Builder.Append). The readers may run at most
// tasksAhead tasks beyond the oldest task not yet appended, which bounds
// the builders waiting in memory.

// tasksAhead is how far beyond the oldest unappended task the readers may
// start, over and above the scan's concurrency: room for a few finished
// tasks to wait for a slow one without stalling every reader.
// spanTasksAhead is the same for a span sample, whose tasks are a few
// small spans each and whose readers must run ahead while the tablet map
// still streams (nothing is appended until it is complete; the event
// queue bounds their memory meanwhile, see streamedEvents).
const (
	tasksAhead     = 2
	spanTasksAhead = 512
)

// taskGate holds readers back until the task they are about to start is
// within reach of the appending aggregator.
type taskGate struct {
	mu       sync.Mutex
	appended int // tasks [0, appended) are in the scan's builder
	window   int
	changed  chan struct{}
}

func newTaskGate(concurrency, ahead int) *taskGate {
	return &taskGate{window: concurrency + ahead, changed: make(chan struct{})}
}

// wait blocks until task seq may start, or ctx ends (then it returns
// false). Tasks are handed out in order, so the oldest unappended task
// always has a reader the gate lets through: waiting cannot deadlock.
func (g *taskGate) wait(ctx context.Context, seq int) bool {
	for {
		g.mu.Lock()
		if seq < g.appended+g.window {
			g.mu.Unlock()
			return true
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// advance records that tasks [0, appended) are in the scan's builder.
func (g *taskGate) advance(appended int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if appended <= g.appended {
		return
	}
	g.appended = appended
	close(g.changed)
	g.changed = make(chan struct{})
}
