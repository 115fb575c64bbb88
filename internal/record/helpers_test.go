package record

import (
	"context"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
)

// collectingSink keeps every Op, and counts flushes.
type collectingSink struct {
	mu      sync.Mutex
	ops     []*keyspace.Op
	flushes int
	stats   Stats // as of the last flush
}

func (s *collectingSink) Add(op *keyspace.Op) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, op)
}

func (s *collectingSink) Flush(info FlushInfo) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushes++
	s.stats = info.Stats
	return nil
}

func (s *collectingSink) all() []*keyspace.Op {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*keyspace.Op(nil), s.ops...)
}

// forwardingPaths are the proxy's two ways to forward, which every
// forwarding test runs: the relay (to an emulator) and the gRPC path (to
// Cloud Bigtable, and to an emulator that was down), here in front of an
// emulator too.
var forwardingPaths = []struct {
	name    string
	viaGRPC bool
}{{"relay", false}, {"grpc", true}}

// recordingProxy starts a proxy in front of upstreamAddr, recording into
// a collectingSink; stop stops the proxy and closes the recorder.
func recordingProxy(t testing.TB, upstreamAddr string, viaGRPC bool) (addr string, sink *collectingSink, stop func()) {
	t.Helper()
	upstream, err := DialEmulator(upstreamAddr)
	if err != nil {
		t.Fatal(err)
	}
	sink = &collectingSink{}
	rec := NewRecorder(sink, RecorderOptions{})
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec, Logf: t.Logf, viaGRPC: viaGRPC})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- proxy.Serve() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			proxy.Stop(ctx)
			if err := <-served; err != nil {
				t.Errorf("proxy.Serve: %v", err)
			}
			if err := rec.Close(); err != nil {
				t.Errorf("recorder.Close: %v", err)
			}
			upstream.Close()
		})
	}
	t.Cleanup(stop)
	return proxy.Addr(), sink, stop
}

// dial connects the official client to addr for the demo instance.
func dial(t testing.TB, addr string) (*bigtable.Client, *bigtable.AdminClient) {
	t.Helper()
	client, admin, err := emulator.Dial(context.Background(), addr, "local", "btviz")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); admin.Close() })
	return client, admin
}
