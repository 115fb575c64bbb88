package export

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/scantest"
)

// updateSnapshots rewrites the snapshot fixtures in ../../testdata/snapshots
// from the emulator's demo scenarios:
//
//	go test ./export -run TestSnapshotFixtures -update-snapshots
var updateSnapshots = flag.Bool("update-snapshots", false, "rescan the demo scenarios into ../../testdata/snapshots")

// fixtureScenarios are the demo scenarios saved as snapshot files, with
// the warnings each must raise (diagnose's own test of snapshot files
// expects the same).
var fixtureScenarios = []string{"social-celebrity", "social-celebrity-salted", "timeseries-timestamp-first"}

var fixtureWarnings = map[string][]diagnose.Kind{
	"social-celebrity":           {diagnose.KindHotKeyRange},
	"social-celebrity-salted":    nil,
	"timeseries-timestamp-first": {diagnose.KindKeyStartsWithTimestamp, diagnose.KindSequentialKeys},
}

// fixturePath is where a scenario's snapshot file lives.
func fixturePath(name string) string {
	return filepath.Join("..", "..", "testdata", "snapshots", name+".btviz")
}

// fixtures caches the loaded snapshot files: decoding one takes a while,
// under -race more so. Tests must not modify a cached snapshot (Clone it).
var fixtures = struct {
	sync.Mutex
	loaded map[string]fixture
}{loaded: map[string]fixture{}}

type fixture struct {
	snap     *keyspace.Snapshot
	findings []diagnose.Finding
}

// loadFixture reads a scenario's snapshot file and diagnoses it.
func loadFixture(t testing.TB, name string) (*keyspace.Snapshot, []diagnose.Finding) {
	t.Helper()
	fixtures.Lock()
	defer fixtures.Unlock()
	if f, ok := fixtures.loaded[name]; ok {
		return f.snap, f.findings
	}
	snap, err := keyspace.Load(fixturePath(name))
	if err != nil {
		t.Fatalf("%v (regenerate with: go test ./export -run TestSnapshotFixtures -update-snapshots)", err)
	}
	f := fixture{snap: snap, findings: diagnose.Diagnose(snap)}
	fixtures.loaded[name] = f
	return f.snap, f.findings
}

// TestSnapshotFixtures checks that every fixture loads; with
// -update-snapshots it first seeds the scenarios into an embedded
// emulator and scans them with the sampler, one range at a time (so the
// tree does not depend on goroutine timing) at a fixed clock.
func TestSnapshotFixtures(t *testing.T) {
	if *updateSnapshots {
		writeFixtures(t)
		fixtures.Lock()
		clear(fixtures.loaded)
		fixtures.Unlock()
	}
	for _, name := range fixtureScenarios {
		snap, findings := loadFixture(t, name)
		if snap.Table != name || !snap.Scan.Complete || snap.Root.Rows == 0 {
			t.Errorf("%s: table %q, complete %v, %v rows", name, snap.Table, snap.Scan.Complete, snap.Root.Rows)
		}
		var warnings []diagnose.Kind
		for _, f := range findings {
			if f.Severity >= diagnose.SeverityWarning {
				warnings = append(warnings, f.Kind)
			}
		}
		slices.Sort(warnings)
		if !slices.Equal(warnings, fixtureWarnings[name]) {
			t.Errorf("%s raises %v, want %v", name, warnings, fixtureWarnings[name])
		}
	}
}

func writeFixtures(t *testing.T) {
	now := func() time.Time { return demo.DemoNow().Add(time.Hour) }
	snaps := scantest.Snapshots(t, strings.Join(fixtureScenarios, ","), sampler.Options{Full: true, Concurrency: 1, Now: now})
	for name, snap := range snaps {
		if err := keyspace.Save(fixturePath(name), snap); err != nil {
			t.Fatal(err)
		}
	}
}
