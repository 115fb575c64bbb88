package record

import (
	"errors"
	"io"
	"net"
	"sync"

	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
)

// HTTP/2 error codes of RST_STREAM that say more than "the stream broke".
const (
	h2RefusedStream = 0x7
	h2Cancel        = 0x8
)

// relayBufferBytes is the size of each direction's read buffer.
const relayBufferBytes = 64 << 10

// relay forwards one client connection to a connection of its own to an
// emulator, byte for byte in both directions, and reads the bytes as
// they go by: every call, every header, trailer, status and message
// reaches the other side exactly as it was sent, because it is the same
// bytes, and nothing is held up longer than a read and a write. This is
// the proxy's path to an emulator: a gRPC server and client per call
// would cost more CPU than the emulator itself (see bench/run.sh).
//
// The client's bytes are read before they are forwarded (so the
// recording knows a request before its answer can arrive), the
// upstream's after, so that the client never waits for the recorder. A
// client that cancels a call as soon as it has what it wants (a read
// with a row limit) can send its RST_STREAM before the upstream's last
// bytes, which it received, are read: so the upstream's bytes between
// their write and their reading are kept as pending, and a cancel from
// the client reads them first ([relay.drainResponses]).
type relay struct {
	proxy            *Proxy
	client, upstream net.Conn
	number           uint64 // for the proxy's tap

	mu      sync.Mutex
	streams map[uint32]*relayStream

	requests, responses relaySide

	// pendingMu guards pending: upstream bytes written to the client and
	// not read yet; whoever takes them reads them, once.
	pendingMu sync.Mutex
	pending   []byte
}

// relayStream is one call on a relayed connection.
type relayStream struct {
	call                *call // nil: not recorded
	requests, responses messageAssembler
}

// relaySide is the reading of one direction of the connection.
type relaySide struct {
	relay    *relay
	parser   *frameParser
	fromUser bool // the client's side
	// path and status are fields of the header block being decoded.
	path   string
	status string
	hasSt  bool
}

func newRelay(p *Proxy, client, upstream net.Conn) *relay {
	r := &relay{proxy: p, client: client, upstream: upstream, streams: map[uint32]*relayStream{}, number: p.conns.Add(1)}
	r.requests = relaySide{relay: r, fromUser: true}
	r.responses = relaySide{relay: r}
	r.requests.parser = newFrameParser(&r.requests, true)
	r.responses.parser = newFrameParser(&r.responses, false)
	return r
}

// run relays until either side closes, then closes both and ends every
// call still open.
func (r *relay) run() {
	done := make(chan struct{})
	go func() {
		r.pump(r.upstream, r.client, &r.requests)
		close(done)
	}()
	r.pump(r.client, r.upstream, &r.responses)
	<-done
	r.mu.Lock()
	open := r.streams
	r.streams = nil
	r.mu.Unlock()
	for _, s := range open {
		s.call.finish(uint32(codes.Unavailable)) // the connection broke under it
	}
}

// pump copies src to dst until either fails, then closes both so that
// the other direction stops too.
func (r *relay) pump(dst, src net.Conn, side *relaySide) {
	defer r.proxy.recoverPanic()
	defer r.close()
	buf := make([]byte, relayBufferBytes)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if tap := r.proxy.tap; tap != nil {
				tap(r.number, side.fromUser, buf[:n])
			}
			if side.fromUser {
				side.read(buf[:n])
			} else {
				r.pendingMu.Lock()
				r.pending = buf[:n]
				r.pendingMu.Unlock()
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				r.drainResponses()
				return
			}
			if !side.fromUser {
				r.drainResponses()
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				closeWrite(dst)
			}
			return
		}
	}
}

// closeWrite half-closes a TCP connection after its peer did, so that an
// orderly end passes through as one.
func closeWrite(c net.Conn) {
	if tcp, ok := c.(*net.TCPConn); ok {
		tcp.CloseWrite()
	}
}

// drainResponses reads the upstream's bytes written to the client and
// not read yet, if any.
func (r *relay) drainResponses() {
	r.pendingMu.Lock()
	defer r.pendingMu.Unlock()
	if r.pending != nil {
		r.responses.read(r.pending)
		r.pending = nil
	}
}

func (r *relay) close() {
	r.client.Close()
	r.upstream.Close()
}

// idle reports whether no call is open on the connection.
func (r *relay) idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.streams) == 0
}

// read parses bytes that crossed the relay; a connection that stops
// making sense is counted and forwarded unread from then on.
func (s *relaySide) read(b []byte) {
	if s.parser.broken != nil {
		return
	}
	if err := s.parser.feed(b); err != nil && s.relay.proxy.recorder != nil {
		s.relay.proxy.recorder.undecodable.Add(1)
	}
}

// stream returns the call on stream id, or nil.
func (s *relaySide) stream(id uint32) *relayStream {
	r := s.relay
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streams[id]
}

func (s *relaySide) field(_ uint32, f hpack.HeaderField) {
	switch {
	case s.fromUser && f.Name == ":path":
		s.path = f.Value
	case !s.fromUser && f.Name == "grpc-status":
		s.status, s.hasSt = f.Value, true
	}
}

func (s *relaySide) headers(id uint32, endStream bool) {
	r := s.relay
	if s.fromUser {
		path := s.path
		s.path = ""
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.streams == nil || r.streams[id] != nil {
			return // a closed connection, or trailers from the client
		}
		r.streams[id] = &relayStream{call: r.proxy.newCall(path)}
		return
	}
	status, hasStatus := s.status, s.hasSt
	s.status, s.hasSt = "", false
	if !endStream {
		return // response headers: the status comes with the trailers
	}
	code := uint32(codes.Unknown) // an answer without a gRPC status
	if hasStatus {
		code = parseCode(status)
	}
	s.end(id, code)
}

// end finishes the call on stream id with code and forgets the stream.
func (s *relaySide) end(id uint32, code uint32) {
	r := s.relay
	r.mu.Lock()
	stream := r.streams[id]
	delete(r.streams, id)
	r.mu.Unlock()
	if stream != nil {
		stream.call.finish(code)
	}
}

func (s *relaySide) data(id uint32, p []byte) {
	stream := s.stream(id)
	if stream == nil || stream.call == nil {
		return
	}
	messages := &stream.responses
	if s.fromUser {
		messages = &stream.requests
	}
	for {
		msg, ok := messages.next(&p)
		if !ok {
			return
		}
		switch {
		case msg.compressed:
			s.relay.proxy.recorder.undecodable.Add(1)
		case msg.oversized && s.fromUser:
			stream.call.requestHead(msg.bytes, msg.size)
		case msg.oversized:
			stream.call.responseSkipped()
		case s.fromUser:
			stream.call.request(msg.bytes)
		default:
			stream.call.response(msg.bytes, s.relay.proxy.recorder.now())
		}
	}
}

func (s *relaySide) endStream(id uint32) {
	if !s.fromUser {
		s.end(id, uint32(codes.Internal)) // the server ended the stream without trailers
	}
}

func (s *relaySide) reset(id uint32, code uint32) {
	if s.fromUser {
		// The client may have had answers of this call the recorder has
		// yet to read: read them before the call ends.
		s.relay.drainResponses()
	}
	switch code {
	case h2RefusedStream:
		s.end(id, uint32(codes.Unavailable))
	case h2Cancel:
		s.end(id, uint32(codes.Canceled))
	default:
		s.end(id, uint32(codes.Internal))
	}
}

// parseCode reads a grpc-status value; anything but a number is
// Unknown, as gRPC clients read it.
func parseCode(s string) uint32 {
	if s == "" || len(s) > 3 {
		return uint32(codes.Unknown)
	}
	var code uint32
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return uint32(codes.Unknown)
		}
		code = code*10 + uint32(s[i]-'0')
	}
	return code
}
