package emulator

import (
	"fmt"
	"sync"

	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"
)

// MaxMessageBytes is the largest gRPC message the emulator and [Dial]'s
// connections accept in either direction: 256 MiB, as in the official
// cbtemulator, so that a cell over 10 MB and a row over 100 MB can be written
// and read back in one message.
const MaxMessageBytes = 256 << 20

// Server is an in-process Bigtable emulator (bttest) reachable over gRPC on
// loopback. The rest of btviz dials [Server.Addr] exactly as it would dial a
// remote emulator.
type Server struct {
	// Addr is the host:port the emulator listens on.
	Addr string

	emulator  *bttest.Server
	closeOnce sync.Once
}

// Start starts the emulator listening on addr ("127.0.0.1:0" picks a free
// port) with gRPC send and receive limits of [MaxMessageBytes], and
// without the log line bttest writes for a family created without a GC
// rule ([withoutEmptyGCRules]). Call
// [Server.Close] to stop it. opts go to the gRPC server after those
// limits (an interceptor, say).
func Start(addr string, opts ...grpc.ServerOption) (*Server, error) {
	opts = append([]grpc.ServerOption{grpc.MaxRecvMsgSize(MaxMessageBytes), grpc.MaxSendMsgSize(MaxMessageBytes),
		grpc.ChainUnaryInterceptor(withoutEmptyGCRules)}, opts...)
	emulator, err := bttest.NewServer(addr, opts...)
	if err != nil {
		return nil, fmt.Errorf("start embedded Bigtable emulator on %q: %w; pick a free port or use 127.0.0.1:0", addr, err)
	}
	return &Server{Addr: emulator.Addr, emulator: emulator}, nil
}

// Close stops the emulator, dropping every table it holds. It is safe to call
// more than once and on a nil Server; it always returns nil.
func (s *Server) Close() error {
	if s == nil {
		return nil
	}
	s.closeOnce.Do(func() {
		if s.emulator != nil {
			s.emulator.Close()
		}
	})
	return nil
}
