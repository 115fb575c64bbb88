package sampler

import (
	"context"
	"sync"
)

// Feed hands progress events to a reader that pulls them, such as a
// Bubble Tea command that waits for the next event and returns it as a
// message. Its Send method fits [Options.Progress]; Send never blocks and
// keeps only the newest event, so a reader that falls behind skips
// events rather than slowing the scan.
type Feed struct {
	mu     sync.Mutex
	latest Progress
	fresh  bool // latest has not been taken
	closed bool // the final event has been taken
	ready  chan struct{}
}

// NewFeed returns an empty [Feed].
func NewFeed() *Feed { return &Feed{ready: make(chan struct{}, 1)} }

// Send stores p as the newest event.
func (f *Feed) Send(p Progress) {
	f.mu.Lock()
	f.latest, f.fresh = p, true
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// Next waits for an event newer than the last one taken and returns it.
// It returns false once the final event has been taken, or when ctx
// ends.
func (f *Feed) Next(ctx context.Context) (Progress, bool) {
	for {
		f.mu.Lock()
		switch {
		case f.fresh:
			p := f.latest
			f.fresh = false
			f.closed = p.Final
			f.mu.Unlock()
			return p, true
		case f.closed:
			f.mu.Unlock()
			return Progress{}, false
		}
		f.mu.Unlock()
		select {
		case <-f.ready:
		case <-ctx.Done():
			return Progress{}, false
		}
	}
}
