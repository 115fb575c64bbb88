package record

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/keyspace"
)

// startCrashingProxy starts a proxy in front of upstreamAddr recording
// into sink with the clock now, and returns it with what Serve returned
// (once it does).
func startCrashingProxy(t *testing.T, upstreamAddr string, viaGRPC bool, sink Sink, now func() time.Time) (*Proxy, *Recorder, <-chan error) {
	t.Helper()
	upstream, err := DialEmulator(upstreamAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { upstream.Close() })
	rec := NewRecorder(sink, RecorderOptions{Now: now})
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec, viaGRPC: viaGRPC})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- proxy.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		proxy.Stop(ctx)
		rec.Close()
	})
	return proxy, rec, served
}

// servedBug waits for Serve to return and checks that it returned a bug.
func servedBug(t *testing.T, proxy *Proxy, served <-chan error) {
	t.Helper()
	select {
	case err := <-served:
		var crash *bug.Error
		if !errors.As(err, &crash) || !strings.Contains(err.Error(), "a bug in btviz") {
			t.Fatalf("Serve returned %v, want the bug", err)
		}
		if !errors.Is(proxy.Crash(), crash) {
			t.Errorf("Crash() = %v, want %v", proxy.Crash(), crash)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy still serves 10 s after a panic in it")
	}
}

// TestPanicServingACallStopsTheProxyAsABug: a panic on a goroutine that
// serves a client's connection or call (here in the recorder's clock,
// which those goroutines read) used to kill the process with Go's stack
// trace and exit 2; on either forwarding path it now stops the proxy,
// whose Serve returns the bug, and the client's call fails rather than
// hangs.
func TestPanicServingACallStopsTheProxyAsABug(t *testing.T) {
	upstreamAddr, _ := startCloudLike(t)
	for _, path := range forwardingPaths {
		t.Run(path.name, func(t *testing.T) {
			proxy, _, served := startCrashingProxy(t, upstreamAddr, path.viaGRPC, &collectingSink{}, func() time.Time { panic("clock \x1b]0;x\x07") })
			stub := rawStub(t, proxy.Addr())
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a := readRowsAnswer(ctx, stub, &btpb.ReadRowsRequest{TableName: InstanceName("local", "btviz") + "/tables/" + shopTable})
			if a.code == codes.OK || a.code == codes.DeadlineExceeded {
				t.Errorf("the call got %v %q, want it to fail at once", a.code, a.message)
			}
			servedBug(t, proxy, served)
		})
	}
}

// panickingSink panics on the first Op it is given.
type panickingSink struct{ collectingSink }

func (s *panickingSink) Add(*keyspace.Op) { panic("sink \x1b]0;x\x07") }

// TestPanicInTheSinkStopsTheProxyAsABug: a panic where the recorder
// folds a call into the recording stops the proxy, whose Serve returns
// the bug, and Close returns it; the proxy's goroutines never wait on
// the recorder that stopped.
func TestPanicInTheSinkStopsTheProxyAsABug(t *testing.T) {
	upstreamAddr, _ := startCloudLike(t)
	proxy, rec, served := startCrashingProxy(t, upstreamAddr, false, &panickingSink{}, nil)
	client, _ := dial(t, proxy.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := client.Open(shopTable).ReadRow(ctx, "user#alice#0001"); err != nil {
		t.Fatalf("the call before the panic: %v", err)
	}
	servedBug(t, proxy, served)
	stopCtx, stopCancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer stopCancel()
	proxy.Stop(stopCtx)
	var crash *bug.Error
	if err := rec.Close(); !errors.As(err, &crash) || !strings.Contains(err.Error(), "recording the calls") {
		t.Fatalf("Close: %v, want the bug", err)
	}
}
