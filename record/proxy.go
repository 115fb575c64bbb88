package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
)

// Options configure a [Proxy]; the zero value forwards without recording.
type Options struct {
	// Recorder receives what the data-API calls carried; nil forwards
	// only.
	Recorder *Recorder
	// Logf, when set, is told when the upstream stops and starts
	// answering.
	Logf func(format string, args ...any)
}

// Proxy is a transparent gRPC proxy in front of a Bigtable upstream: it
// forwards every call of every service, byte for byte and streaming both
// ways, with the client's metadata, and answers with exactly what the
// upstream sent back — headers, messages, trailers, status code, message
// and details. Calls of the data API are also decoded, from a copy of
// each frame, into the [Recorder]'s Ops.
type Proxy struct {
	upstream *Upstream
	recorder *Recorder
	logf     func(format string, args ...any)
	listener net.Listener
	server   *grpc.Server
	// down is set while the upstream does not answer, so that the change
	// is logged once each way.
	down atomic.Bool
	// unary caches, per full method name, whether the client sends one
	// message (see [Proxy.clientSendsOne]).
	unary sync.Map
}

// ErrAddressInUse is returned (wrapped) by [Listen] when another process
// holds the address.
var ErrAddressInUse = errors.New("address already in use")

// Listen starts listening on addr (host:port; port 0 picks a free one)
// for calls to forward to upstream. Call [Proxy.Serve] to serve them.
func Listen(addr string, upstream *Upstream, opts Options) (*Proxy, error) {
	listener, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listening on %s: %w; stop what holds it or pick another --listen address", addr, ErrAddressInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w; give host:port, e.g. 127.0.0.1:8087", addr, err)
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	p := &Proxy{upstream: upstream, recorder: opts.Recorder, logf: logf, listener: listener}
	p.server = grpc.NewServer(
		grpc.UnknownServiceHandler(p.handle),
		grpc.ForceServerCodecV2(passThrough{}),
		grpc.MaxRecvMsgSize(maxMessageBytes),
		grpc.MaxSendMsgSize(maxMessageBytes),
		// A proxy must not be stricter than what is behind it: any
		// keepalive a client may send to an emulator is accepted.
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		grpc.WaitForHandlers(true),
	)
	return p, nil
}

// Addr is the host:port the proxy listens on.
func (p *Proxy) Addr() string { return p.listener.Addr().String() }

// Serve answers calls until [Proxy.Stop]; it returns nil then.
func (p *Proxy) Serve() error {
	err := p.server.Serve(p.listener)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// Stop stops accepting calls and waits for the calls in flight to end
// until ctx is done; then it cancels the rest (their clients see
// Unavailable) and waits for their handlers to return. After Stop, every
// call's Op has reached the recorder.
func (p *Proxy) Stop(ctx context.Context) {
	stopped := make(chan struct{})
	go func() {
		p.server.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-ctx.Done():
		p.server.Stop()
		<-stopped
	}
}

// notForwarded explains a call the proxy could not open upstream. When
// the upstream does not answer, the client gets Unavailable saying so
// (the code an emulator that is down gives, which client retry policies
// know), and the proxy logs it once; any other error (the client gave
// up, its deadline passed) is returned as it is.
func (p *Proxy) notForwarded(err error) error {
	st := status.Convert(err)
	if st.Code() != codes.Unavailable {
		return err
	}
	if !p.down.Swap(true) {
		p.logf("%s does not answer (%s); clients get Unavailable until it is back", p.upstream.Where, st.Message())
	}
	return status.Errorf(codes.Unavailable, "btviz record: %s does not answer (%s); the recording proxy keeps running and forwards calls again once it is back",
		p.upstream.Where, st.Message())
}

// upstreamUp notes a call that reached the upstream.
func (p *Proxy) upstreamUp() {
	if p.down.Load() && p.down.Swap(false) {
		p.logf("%s answers again", p.upstream.Where)
	}
}
