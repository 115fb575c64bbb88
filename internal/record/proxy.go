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

	"github.com/btviz/btviz/internal/bug"
)

// Options configure a [Proxy]; the zero value forwards without recording.
type Options struct {
	// Recorder receives what the data-API calls carried; nil forwards
	// only.
	Recorder *Recorder
	// Logf, when set, is told when the upstream stops and starts
	// answering.
	Logf func(format string, args ...any)
	// viaGRPC: see [Proxy].
	viaGRPC bool
	// tap, when set, is handed every byte a relayed connection carries
	// (conn numbers the connection), in the order each side sent them:
	// tests capture real traffic with it.
	tap func(conn uint64, fromClient bool, b []byte)
}

// Proxy is a transparent gRPC proxy in front of a Bigtable upstream: it
// forwards every call of every service, byte for byte and streaming both
// ways, with the client's metadata, and answers with exactly what the
// upstream sent back — headers, messages, trailers, status code, message
// and details. Calls of the data API are also decoded, from a copy of
// each frame, into the [Recorder]'s Ops.
//
// It forwards in one of two ways. To an emulator, each client connection
// is relayed to a connection of its own, and the HTTP/2 frames are read
// as they go by ([relay]): the cheapest forwarding there is. To Cloud
// Bigtable, whose calls need the proxy's TLS and credentials, and while
// an emulator does not answer, a gRPC server takes the connection and
// forwards each call on its own ([Proxy.handle]), answering Unavailable
// itself when the upstream is down.
type Proxy struct {
	upstream *Upstream
	recorder *Recorder
	logf     func(format string, args ...any)
	listener net.Listener
	// grpcMu guards grpcPath, the gRPC server that takes the connections
	// not relayed, and retired, the ones that finish the calls of the
	// connections they had when the emulator answered again.
	grpcMu   sync.Mutex
	grpcPath *grpcServer
	retired  []*grpcServer
	// fallback is set when a connection went to the gRPC path because
	// the emulator did not answer its dial: once the emulator answers
	// again, that server is retired ([Proxy.upstreamUp]).
	fallback atomic.Bool
	// shortLogged is when running out of file descriptors was last
	// logged (Unix ns; 0: never).
	shortLogged atomic.Int64
	// viaGRPC sends every connection through the gRPC server, as for
	// Cloud Bigtable: tests use it to run that path against an emulator.
	viaGRPC bool
	tap     func(conn uint64, fromClient bool, b []byte)
	conns   atomic.Uint64
	// down is set while the upstream does not answer, so that the change
	// is logged once each way; downErr says why.
	down    atomic.Bool
	downErr atomic.Pointer[error]
	// unary caches, per full method name, whether the client sends one
	// message (see [Proxy.clientSendsOne]).
	unary sync.Map

	relaysMu sync.Mutex
	relays   map[*relay]bool
	relaysWG sync.WaitGroup
	stopping atomic.Bool
	// crashed is the bug that stopped the proxy (see crash.go).
	crashed atomic.Pointer[bug.Error]
}

// Tuning of both sides of the gRPC path; see [Listen] and [DialEmulator].
const (
	streamWorkers     = 64
	streamWindowBytes = 16 << 20
	connWindowBytes   = 32 << 20
)

// relayDialTimeout bounds the connection to an emulator for a new
// client connection; past it, the client is served by the gRPC path,
// which answers Unavailable.
const relayDialTimeout = 2 * time.Second

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
	p := &Proxy{
		upstream: upstream, recorder: opts.Recorder, logf: logf, viaGRPC: opts.viaGRPC, tap: opts.tap,
		listener: listener, relays: map[*relay]bool{},
	}
	p.grpcPath = p.newGRPCServer()
	return p, nil
}

// grpcServer is a gRPC server of the proxy and the listener its
// connections are handed to.
type grpcServer struct {
	server *grpc.Server
	conns  *handOff
	served chan struct{}
}

// newGRPCServer starts a gRPC server that forwards every call it is
// handed ([Proxy.handle]).
func (p *Proxy) newGRPCServer() *grpcServer {
	server := grpc.NewServer(
		grpc.UnknownServiceHandler(p.handle),
		grpc.ForceServerCodecV2(passThrough{}),
		grpc.MaxRecvMsgSize(maxMessageBytes),
		grpc.MaxSendMsgSize(maxMessageBytes),
		// A proxy must not be stricter than what is behind it: any
		// keepalive a client may send to an emulator is accepted.
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		grpc.WaitForHandlers(true),
		// Calls run on long-lived workers, whose stacks have grown
		// already, rather than a new goroutine each.
		grpc.NumStreamWorkers(streamWorkers),
		// Fixed flow-control windows, as large as dynamic ones grow:
		// no bandwidth-probing pings with every small call.
		grpc.StaticStreamWindowSize(streamWindowBytes),
		grpc.StaticConnWindowSize(connWindowBytes),
	)
	g := &grpcServer{server: server, conns: newHandOff(p.listener.Addr()), served: make(chan struct{})}
	go func() {
		defer close(g.served)
		server.Serve(g.conns)
	}()
	return g
}

// toGRPC hands conn to the gRPC path.
func (p *Proxy) toGRPC(conn net.Conn) {
	p.grpcMu.Lock()
	g := p.grpcPath
	p.grpcMu.Unlock()
	g.conns.push(conn)
}

// retireFallback moves the connections that went to the gRPC path while
// the emulator did not answer back to the relay, which forwards byte for
// byte: their server says GOAWAY (clients open a new connection for their
// next call, which the relay takes) and finishes the calls in flight,
// while a new server takes the connections to come.
func (p *Proxy) retireFallback() {
	if p.viaGRPC || p.upstream.relayAddr == "" || !p.fallback.Swap(false) {
		return
	}
	p.grpcMu.Lock()
	defer p.grpcMu.Unlock()
	if p.stopping.Load() {
		return
	}
	old := p.grpcPath
	p.grpcPath = p.newGRPCServer()
	p.retired = append(p.retired, old)
	go old.server.GracefulStop()
}

// Addr is the host:port the proxy listens on.
func (p *Proxy) Addr() string { return p.listener.Addr().String() }

// Serve answers calls until [Proxy.Stop]; it returns nil then. A panic
// in one of the proxy's goroutines or in its recorder's (a bug) stops it
// accepting calls, and Serve returns the [*bug.Error]; stop the proxy
// then as always.
func (p *Proxy) Serve() error {
	done := make(chan struct{})
	defer close(done)
	go p.watchRecorder(done)
	var delay time.Duration
	for {
		conn, err := p.listener.Accept()
		if err != nil {
			if crash := p.crashed.Load(); crash != nil {
				return crash
			}
			if p.stopping.Load() {
				return nil
			}
			if temporary(err) {
				// Out of file descriptors (or a connection gone before it
				// was taken): wait and take the next, as net/http does.
				delay = min(max(2*delay, minAcceptDelay), maxAcceptDelay)
				p.descriptorsShort(err)
				time.Sleep(delay)
				continue
			}
			p.Stop(context.Background())
			return fmt.Errorf("accepting connections on %s: %w", p.Addr(), err)
		}
		delay = 0
		go p.serveConn(conn)
	}
}

// How long the accept loop waits after a temporary failure: doubling
// from minAcceptDelay up to maxAcceptDelay, as net/http's server does.
const (
	minAcceptDelay = 5 * time.Millisecond
	maxAcceptDelay = time.Second
)

// temporary reports whether an accept or dial failed for a reason that
// passes: the process or the system out of descriptors or buffers, or a
// client gone before its connection was taken.
func temporary(err error) bool {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// descriptorsShort logs that connections wait for file descriptors: once
// for a shortage, however many connections it holds up, and again only
// after [shortLogEvery].
func (p *Proxy) descriptorsShort(err error) {
	if errors.Is(err, syscall.ECONNABORTED) {
		return
	}
	now := time.Now().UnixNano()
	last := p.shortLogged.Load()
	if last != 0 && time.Duration(now-last) < shortLogEvery || !p.shortLogged.CompareAndSwap(last, now) {
		return
	}
	p.logf("out of file descriptors (%v): new connections wait until some are free; each client takes two (its own and the proxy's to the upstream), so raise the limit (ulimit -n) for more clients", err)
}

// shortLogEvery is how often running out of file descriptors is logged
// at most.
const shortLogEvery = time.Minute

// serveConn relays conn to the emulator, or hands it to the gRPC path.
func (p *Proxy) serveConn(conn net.Conn) {
	defer p.recoverPanic()
	if p.viaGRPC || p.upstream.relayAddr == "" {
		p.toGRPC(conn)
		return
	}
	upstream, err := net.DialTimeout("tcp", p.upstream.relayAddr, relayDialTimeout)
	if temporary(err) {
		// No descriptor for the upstream's side: the client retries,
		// as it would a proxy that could not take it.
		p.descriptorsShort(err)
		conn.Close()
		return
	}
	if err != nil {
		// The gRPC path answers Unavailable and says why, and forwards
		// this connection's calls once the emulator is back, until its
		// server is retired for the relay ([Proxy.retireFallback]).
		p.fallback.Store(true)
		p.toGRPC(conn)
		return
	}
	r := newRelay(p, conn, upstream)
	p.relaysMu.Lock()
	if p.stopping.Load() {
		p.relaysMu.Unlock()
		r.close()
		return
	}
	p.relays[r] = true
	p.relaysWG.Add(1)
	p.relaysMu.Unlock()
	defer func() { // also after a panic, so that Stop does not wait for r
		p.relaysMu.Lock()
		delete(p.relays, r)
		p.relaysMu.Unlock()
		r.close()
		p.relaysWG.Done()
	}()
	p.upstreamUp()
	r.run()
}

// relayPoll is how often Stop looks for relayed connections gone idle.
const relayPoll = 10 * time.Millisecond

// Stop stops accepting connections and waits for the calls in flight to
// end until ctx is done; then it cuts the rest off (their clients see
// Unavailable). When Stop returns, every call's Op has reached the
// recorder.
func (p *Proxy) Stop(ctx context.Context) {
	p.relaysMu.Lock()
	alreadyStopping := p.stopping.Swap(true)
	p.relaysMu.Unlock()
	if alreadyStopping {
		p.relaysWG.Wait()
		return
	}
	p.listener.Close()
	p.grpcMu.Lock()
	servers := append([]*grpcServer{p.grpcPath}, p.retired...)
	p.grpcMu.Unlock()
	stopped := make(chan struct{})
	go func() {
		for _, g := range servers {
			g.server.GracefulStop()
		}
		close(stopped)
	}()
	ticker := time.NewTicker(relayPoll)
	defer ticker.Stop()
	for !p.closeIdleRelays() {
		select {
		case <-ticker.C:
			continue
		case <-ctx.Done():
		}
		break
	}
	p.closeRelays()
	select {
	case <-stopped:
	case <-ctx.Done():
		for _, g := range servers {
			g.server.Stop()
		}
		<-stopped
	}
	p.relaysWG.Wait()
}

// closeIdleRelays closes the relayed connections with no call open and
// reports whether none is left.
func (p *Proxy) closeIdleRelays() bool {
	p.relaysMu.Lock()
	defer p.relaysMu.Unlock()
	left := 0
	for r := range p.relays {
		if r.idle() {
			r.close()
		} else {
			left++
		}
	}
	return left == 0
}

// closeRelays closes every relayed connection.
func (p *Proxy) closeRelays() {
	p.relaysMu.Lock()
	defer p.relaysMu.Unlock()
	for r := range p.relays {
		r.close()
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
	down := fmt.Errorf("%s does not answer (%s)", p.upstream.Where, st.Message())
	p.downErr.Store(&down)
	if !p.down.Swap(true) {
		p.logf("%v; clients get Unavailable until it is back", down)
	}
	return status.Errorf(codes.Unavailable, "btviz record: %v; the recording proxy keeps running and forwards calls again once it is back", down)
}

// UpstreamErr says why the upstream does not answer, while it does not
// (the last call to find it down, and none has reached it since); nil
// while it answers.
func (p *Proxy) UpstreamErr() error {
	if !p.down.Load() {
		return nil
	}
	if err := p.downErr.Load(); err != nil {
		return *err
	}
	return nil
}

// upstreamUp notes a call (or a relayed connection) that reached the
// upstream; connections that went to the gRPC path while it did not
// answer go back to the relay ([Proxy.retireFallback]).
func (p *Proxy) upstreamUp() {
	if p.down.Load() && p.down.Swap(false) {
		p.logf("%s answers again", p.upstream.Where)
	}
	if p.fallback.Load() {
		p.retireFallback()
	}
}
