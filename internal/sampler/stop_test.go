package sampler

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/testkit/emutest"
)

// slowStream delays every message a ReadRows stream sends, so a scan of a
// small table lasts long enough to be stopped in the middle.
type slowStream struct {
	grpc.ServerStream
	delay time.Duration
}

func (s slowStream) SendMsg(m any) error {
	select {
	case <-time.After(s.delay):
	case <-s.Context().Done():
		return s.Context().Err()
	}
	return s.ServerStream.SendMsg(m)
}

// slowReads is a server option that delays each ReadRows response.
func slowReads(delay time.Duration) grpc.ServerOption {
	return grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if strings.HasSuffix(info.FullMethod, "/ReadRows") {
			ss = slowStream{ServerStream: ss, delay: delay}
		}
		return handler(srv, ss)
	})
}

// waitForRows returns a progress callback and a channel closed once the
// scan has read at least n rows.
func waitForRows(n int64) (func(Progress), <-chan struct{}) {
	reached := make(chan struct{})
	var once sync.Once
	return func(p Progress) {
		if p.RowsRead >= n {
			once.Do(func() { close(reached) })
		}
	}, reached
}

// stopWithin is how soon after a cancel a scan must return in these
// tests: the README promises a second, which a loaded machine running
// -race stretches, so the tests check that the scan stops, at a bound
// no busy machine reaches, and the row counts say it stopped early.
const stopWithin = 15 * time.Second

func TestCancelReturnsPartialSnapshotPromptly(t *testing.T) {
	srv := emutest.Start(t, slowReads(2*time.Millisecond))
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(20000, testPrefixes, testWeights))

	ctx, cancel := context.WithCancel(context.Background())
	progress, reached := waitForRows(500)
	var cancelled atomic.Int64
	go func() {
		<-reached
		cancelled.Store(time.Now().UnixNano())
		cancel()
	}()
	snap, err := Scan(ctx, conn, "events", Options{Full: true, Progress: progress, Concurrency: 4})
	returned := time.Now()
	if !errors.Is(err, ErrIncomplete) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrIncomplete and context.Canceled", err)
	}
	// Generous (see stopWithin): a scan that ignored the cancel would read
	// on for the rest of the 20,000 rows, seconds at 2 ms a message.
	if took := returned.Sub(time.Unix(0, cancelled.Load())); took > stopWithin {
		t.Fatalf("Scan returned %v after the cancel", took)
	}
	if snap == nil || snap.Scan.Complete || !strings.HasPrefix(snap.Scan.Incomplete, "cancelled after") {
		t.Fatalf("snapshot scan info %+v", snap.Scan)
	}
	if snap.Scan.RowsRead < 500 || snap.Scan.RowsRead >= 20000 || snap.Totals().Rows != float64(snap.Scan.RowsRead) {
		t.Fatalf("partial snapshot holds %d rows (%v in the tree)", snap.Scan.RowsRead, snap.Totals().Rows)
	}
}

func TestEmulatorGoneMidScanFailsWithPartialSnapshot(t *testing.T) {
	srv := emutest.Start(t, slowReads(2*time.Millisecond))
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(20000, testPrefixes, testWeights))

	progress, reached := waitForRows(500)
	go func() {
		<-reached
		srv.Close()
	}()
	start := time.Now()
	snap, err := Scan(context.Background(), conn, "events", Options{Full: true, Progress: progress, StallTimeout: 500 * time.Millisecond})
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("Scan took %v after the emulator went away", took)
	}
	if !errors.Is(err, ErrIncomplete) || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped answering") {
		t.Fatalf("err = %v, want ErrIncomplete naming the unreachable emulator", err)
	}
	if snap == nil || snap.Scan.Complete || !strings.Contains(snap.Scan.Incomplete, "reading range [") ||
		!strings.Contains(snap.Scan.Incomplete, srv.Addr) {
		t.Fatalf("scan info %+v", snap.Scan)
	}
	if snap.Scan.RowsRead < 500 {
		t.Fatalf("partial snapshot holds %d rows", snap.Scan.RowsRead)
	}
	t.Logf("incomplete: %s", snap.Scan.Incomplete)
}

// appProfiles records the app profile of every data request the server
// sees, by method.
type appProfiles struct {
	mu   sync.Mutex
	seen map[string][]string
}

func (a *appProfiles) option() grpc.ServerOption {
	return grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, recordingStream{ServerStream: ss, method: info.FullMethod[strings.LastIndexByte(info.FullMethod, '/')+1:], profiles: a})
	})
}

type recordingStream struct {
	grpc.ServerStream
	method   string
	profiles *appProfiles
}

func (r recordingStream) RecvMsg(m any) error {
	err := r.ServerStream.RecvMsg(m)
	if req, ok := m.(interface{ GetAppProfileId() string }); ok && err == nil {
		r.profiles.mu.Lock()
		r.profiles.seen[r.method] = append(r.profiles.seen[r.method], req.GetAppProfileId())
		r.profiles.mu.Unlock()
	}
	return err
}

func TestAppProfileIsPassed(t *testing.T) {
	profiles := &appProfiles{seen: make(map[string][]string)}
	srv := emutest.Start(t, profiles.option())
	target := emutest.Target(srv.Addr)
	target.AppProfile = "batch-reads"
	conn := emutest.Open(t, target)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(2000, testPrefixes, testWeights))
	snap, err := Scan(context.Background(), conn, "events", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if snap.AppProfile != "batch-reads" {
		t.Fatalf("snapshot app profile %q", snap.AppProfile)
	}
	profiles.mu.Lock()
	defer profiles.mu.Unlock()
	for _, method := range []string{"SampleRowKeys", "ReadRows"} {
		seen := profiles.seen[method]
		if len(seen) == 0 {
			t.Fatalf("no %s request seen", method)
		}
		for _, p := range seen {
			if p != "batch-reads" {
				t.Fatalf("%s sent app profile %q, want batch-reads", method, p)
			}
		}
	}
}
