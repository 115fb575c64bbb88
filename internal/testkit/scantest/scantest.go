// Package scantest gives tests real snapshots of the demo scenarios: it
// seeds them into an embedded emulator ([emutest.Seed]) and scans them
// with the real sampler, as `btviz scan` would. No part of it is a stand-in for
// Bigtable.
package scantest

import (
	"context"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// timeout bounds scanning, so a stuck emulator fails the test instead of
// hanging it.
const timeout = 5 * time.Minute

// Snapshots seeds the scenarios names and scans each table with opts,
// returning the snapshots by table name.
func Snapshots(t testing.TB, names string, opts sampler.Options) map[string]*keyspace.Snapshot {
	t.Helper()
	target := emutest.Seed(t, names)
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
