package record

import (
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/bug"
)

// A panic in a goroutine of the proxy — one serving a connection or a
// call, or the recorder's — is a bug in btviz. Left alone it would kill
// the process with Go's stack trace and exit 2, losing the recording
// since its last flush; recovered, it stops the proxy: the connection
// or call it happened in is closed (a call on the gRPC path gets
// Internal), the proxy accepts no more connections, and [Proxy.Serve]
// returns the [*bug.Error], as does [Proxy.Crash]. The recording keeps
// what the recorder had written before.

// recoverPanic, deferred by a goroutine serving a connection, stops the
// proxy on a panic in it.
func (p *Proxy) recoverPanic() {
	if err := bug.Recovered(recover()); err != nil {
		p.crash(err)
	}
}

// recoverCall, deferred by the handler of a call on the gRPC path, stops
// the proxy on a panic in it and fails the call with Internal.
func (p *Proxy) recoverCall(err *error) {
	if crash := bug.Recovered(recover()); crash != nil {
		p.crash(crash)
		*err = status.Error(codes.Internal, "btviz record: "+crash.Error())
	}
}

// crash stops the proxy on err, the first bug only: no more connections
// are accepted, and Serve returns err.
func (p *Proxy) crash(err *bug.Error) {
	if p.crashed.CompareAndSwap(nil, err) {
		p.listener.Close()
	}
}

// Crash returns the bug that stopped the proxy (a panic recovered in one
// of its goroutines or in its recorder's, [bug.Error]), or nil.
func (p *Proxy) Crash() error {
	if err := p.crashed.Load(); err != nil {
		return err
	}
	return nil
}

// watchRecorder stops the proxy when its recorder stops on a bug, until
// done is closed.
func (p *Proxy) watchRecorder(done <-chan struct{}) {
	if p.recorder == nil {
		return
	}
	select {
	case <-p.recorder.failed:
		var crash *bug.Error
		if errors.As(p.recorder.crash, &crash) {
			p.crash(crash)
		}
	case <-done:
	}
}
