// Package demotest gives tests the snapshot of any demo scenario or test
// table of package demo, built in-process from its generators once per
// test binary, so that the tests of diagnose, report and tui look at the
// data `btviz --emulator` shows.
package demotest

import (
	"sync"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
)

// built caches each scenario's snapshot across the tests of one binary: a
// 20,000-row table takes a tenth of a second to build, about a second
// under the race detector.
var built sync.Map // name → func() (*keyspace.Snapshot, error)

// Snapshot returns a copy of the snapshot of the demo scenario or test
// table called name (see [demo.Scenario.Snapshot]); the test fails when
// there is none. The copy is the caller's to change.
func Snapshot(t testing.TB, name string) *keyspace.Snapshot {
	t.Helper()
	sc, ok := demo.Named(name)
	if !ok {
		t.Fatalf("no demo scenario or test table %q", name)
	}
	build, _ := built.LoadOrStore(name, sync.OnceValues(sc.Snapshot))
	snap, err := build.(func() (*keyspace.Snapshot, error))()
	if err != nil {
		t.Fatal(err)
	}
	return snap.Clone()
}
