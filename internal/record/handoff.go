package record

import (
	"net"
	"sync"
)

// handOff is a net.Listener that the proxy's accept loop feeds: the
// connections it gives the gRPC server to serve (those to Cloud
// Bigtable, and those that arrive while the emulator does not answer).
type handOff struct {
	addr   net.Addr
	conns  chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newHandOff(addr net.Addr) *handOff {
	return &handOff{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// push hands conn to the gRPC server, or closes it if the server has
// stopped.
func (h *handOff) push(conn net.Conn) {
	select {
	case h.conns <- conn:
	case <-h.done:
		conn.Close()
	}
}

// Accept returns the next connection handed over.
func (h *handOff) Accept() (net.Conn, error) {
	select {
	case conn := <-h.conns:
		return conn, nil
	case <-h.done:
		return nil, net.ErrClosed
	}
}

// Close stops handing over connections.
func (h *handOff) Close() error {
	h.closed.Do(func() { close(h.done) })
	return nil
}

// Addr is the proxy's address.
func (h *handOff) Addr() net.Addr { return h.addr }
