// Package emutest starts Bigtable emulators for tests: the embedded one
// (package emulator, in-process) or the official emulator binary
// ([cbtemulator]), empty or loaded with demo scenarios, and connects to
// them as btviz does. It is the one place tests start an emulator; no
// part of it stands in for Bigtable.
package emutest

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
)

// timeout bounds seeding, so a stuck emulator fails the test instead of
// hanging it.
const timeout = 5 * time.Minute

// Start starts an embedded emulator for the test and returns it; it stops
// when the test ends (and may be closed earlier, to cut a scan off). opts
// go to its gRPC server (an interceptor that injects a fault, say).
func Start(t testing.TB, opts ...grpc.ServerOption) *emulator.Server {
	t.Helper()
	srv, err := emulator.Start("127.0.0.1:0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// Target is the target of btviz's demo instance (project local, instance
// btviz) on the emulator at addr.
func Target(addr string) connect.Target {
	return connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: addr}
}

// Seed starts an embedded emulator holding the demo scenarios names ("a,b"
// or "all") and returns its target; the emulator stops when the test ends.
// opts go to its gRPC server.
func Seed(t testing.TB, names string, opts ...grpc.ServerOption) connect.Target {
	t.Helper()
	target := Target(Start(t, opts...).Addr)
	Load(t, target, names)
	return target
}

// shared holds the emulators [Shared] started, by the scenario names they
// hold.
var shared struct {
	mu sync.Mutex
	by map[string]*sharedEmulator
}

type sharedEmulator struct {
	once   sync.Once
	target connect.Target
	err    error
}

// Shared returns the target of an embedded emulator holding the demo
// scenarios names, started and seeded once per test process for every test
// that asks for the same names, so that a package loads its demo tables
// once. Tests must only read it. It lives until the process ends.
func Shared(t testing.TB, names string) connect.Target {
	t.Helper()
	shared.mu.Lock()
	if shared.by == nil {
		shared.by = map[string]*sharedEmulator{}
	}
	emu := shared.by[names]
	if emu == nil {
		emu = &sharedEmulator{}
		shared.by[names] = emu
	}
	shared.mu.Unlock()
	emu.once.Do(func() {
		srv, err := emulator.Start("127.0.0.1:0")
		if err != nil {
			emu.err = err
			return
		}
		emu.target = Target(srv.Addr)
		emu.err = load(emu.target, names)
	})
	if emu.err != nil {
		t.Fatal(emu.err)
	}
	return emu.target
}

// SeedOfficial is [Seed] on the official emulator binary
// ([cbtemulator.Start]): it reads what the real emulator answers, and the
// server is not built with the race detector.
func SeedOfficial(t testing.TB, names string) connect.Target {
	t.Helper()
	target := Target(cbtemulator.Start(t))
	Load(t, target, names)
	return target
}

// Load loads the demo scenarios names into the emulator of target, as
// `btviz seed` does.
func Load(t testing.TB, target connect.Target, names string) {
	t.Helper()
	if err := load(target, names); err != nil {
		t.Fatal(err)
	}
}

func load(target connect.Target, names string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	scenarios, err := demo.Lookup(names)
	if err != nil {
		return err
	}
	client, admin, err := emulator.Dial(ctx, target.EmulatorHost, target.Project, target.Instance)
	if err != nil {
		return err
	}
	defer client.Close()
	defer admin.Close()
	return emulator.Seed(ctx, admin, client, scenarios, nil)
}

// Open connects to target as btviz does; the connection closes when the
// test ends.
func Open(t testing.TB, target connect.Target) *connect.Conn {
	t.Helper()
	conn, err := connect.Open(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
