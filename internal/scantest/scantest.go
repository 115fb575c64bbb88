// Package scantest gives tests real snapshots of the demo scenarios: it
// seeds them into an embedded emulator and scans them with the real
// sampler, as `btviz scan` would. No part of it is a stand-in for
// Bigtable.
package scantest

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/emulator"
	"github.com/btviz/btviz/internal/cbtemulator"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/sampler"
)

// timeout bounds seeding and scanning, so a stuck emulator fails the test
// instead of hanging it.
const timeout = 5 * time.Minute

// Seed starts an embedded emulator holding the demo scenarios names
// ("a,b" or "all") and returns its target (project local, instance btviz);
// the emulator stops when the test ends. opts go to its gRPC server (an
// interceptor that injects a fault, say).
func Seed(t testing.TB, names string, opts ...grpc.ServerOption) connect.Target {
	t.Helper()
	srv, err := emulator.Start("127.0.0.1:0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return seedAt(t, srv.Addr, names)
}

// SeedOfficial is [Seed] on the official emulator binary
// ([cbtemulator.Start]): the server is not built with the race detector,
// so a test that loads every scenario runs several times faster under
// -race, and it reads what the real emulator answers. It skips the test
// under -short.
func SeedOfficial(t testing.TB, names string) connect.Target {
	t.Helper()
	return seedAt(t, cbtemulator.Start(t), names)
}

// seedAt loads the scenarios names into the emulator at addr.
func seedAt(t testing.TB, addr, names string) connect.Target {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	scenarios, err := demo.Lookup(names)
	if err != nil {
		t.Fatal(err)
	}
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if err := emulator.Seed(ctx, admin, client, scenarios, nil); err != nil {
		t.Fatal(err)
	}
	return connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: addr}
}

// Snapshots seeds the scenarios names and scans each table with opts,
// returning the snapshots by table name.
func Snapshots(t testing.TB, names string, opts sampler.Options) map[string]*keyspace.Snapshot {
	t.Helper()
	target := Seed(t, names)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := connect.Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	scenarios, err := demo.Lookup(names)
	if err != nil {
		t.Fatal(err)
	}
	snaps := map[string]*keyspace.Snapshot{}
	for _, sc := range scenarios {
		snap, err := sampler.Scan(ctx, conn, sc.Name, opts)
		if err != nil {
			t.Fatalf("scanning %s: %v", sc.Name, err)
		}
		snaps[sc.Name] = snap
	}
	return snaps
}
