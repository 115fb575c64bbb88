package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// expectation is what one snapshot must raise: exactly kinds (scan notes
// aside), at the given locations; a good design raises no warning or
// error.
type expectation struct {
	good      bool
	kinds     []string
	locations []demo.Location
}

// check asserts e on findings.
func (e expectation) check(t *testing.T, findings []Finding) {
	t.Helper()
	var got []string
	for _, f := range findings {
		if e.good && f.Severity > SeverityInfo {
			t.Errorf("good design raised %s %s at %s: %s", f.Severity, f.Kind, f.Prefix, f.Summary)
		}
		if f.Kind != KindScanNote && f.Severity > SeverityInfo && !slices.Contains(got, string(f.Kind)) {
			got = append(got, string(f.Kind))
		}
	}
	want := slices.Clone(e.kinds)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("kinds = %v, want %v", got, want)
		for _, f := range findings {
			t.Logf("  %s %s %s: %s", f.Severity, f.Kind, f.Prefix, f.Summary)
		}
	}
	for _, loc := range e.locations {
		found := slices.ContainsFunc(findings, func(f Finding) bool {
			at := f.Prefix
			if loc.Row {
				at = f.Start
			}
			return string(f.Kind) == loc.Kind && string(at) == loc.Key && (loc.Dataset == "" || f.Dataset == loc.Dataset)
		})
		if !found {
			t.Errorf("no %s finding at %q (dataset %q)", loc.Kind, keyspace.Printable(loc.Key), loc.Dataset)
			for _, f := range findings {
				if string(f.Kind) == loc.Kind {
					t.Logf("  %s is at %q [%s, %s)", f.Kind, f.Prefix, f.Start, f.End)
				}
			}
		}
	}
}

// TestScenarios diagnoses every demo scenario and test table, built
// in-process from package demo's generators: each bad design raises
// exactly its kinds at the right place, each good design nothing above
// info.
func TestScenarios(t *testing.T) {
	for _, sc := range slices.Concat(demo.Scenarios(), demo.TestTables()) {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			e := expectation{good: sc.Good, kinds: sc.Expect, locations: sc.Locations}
			e.check(t, scenarioFindings(t, sc.Name))
		})
	}
}

// snapshotExpectations are the expectations of real snapshot files in
// ../../testdata/snapshots, by file name without .btviz: the emulator's demo
// scenarios scanned with `btviz scan`. Adding a file is one line here.
var snapshotExpectations = map[string]expectation{
	"timeseries-reversed-ts":     {good: true},
	"timeseries-timestamp-first": {kinds: []string{"key-starts-with-timestamp", "sequential-keys"}},
	"users-sequential-ids":       {kinds: []string{"sequential-numeric-id", "sequential-keys"}},
	"users-reversed-ids":         {good: true},
	"social-celebrity":           {kinds: []string{"hot-key-range"}, locations: []demo.Location{{Kind: "hot-key-range", Key: "user#mila_rosewood#"}}},
	"social-celebrity-salted":    {good: true},
	"phone-device-day":           {good: true},
	"multitenant-devices":        {good: true},
	"bus-locations":              {good: true},
	"web-domains-forward":        {kinds: []string{"domain-not-reversed"}},
	"web-domains-reversed":       {good: true},
	"large-row-and-cell":         {kinds: []string{"large-row", "large-cell"}, locations: []demo.Location{{Kind: "large-row", Key: "media#studio_ingest#raw-cam04-20261030", Row: true}, {Kind: "large-cell", Key: "media#finance_team#q3-board-pack-scan", Row: true}}},
	"memusage-single-row":        {kinds: []string{"frequently-updated-row"}, locations: []demo.Location{{Kind: "frequently-updated-row", Key: "4c410523#memusage", Row: true}}},
	"unpadded-user-ids":          {kinds: []string{"unpadded-number"}},
	"hashed-order-keys":          {kinds: []string{"hashed-key"}},
	"binary-sensor-keys":         {kinds: []string{"binary-key"}},
	"pii-login-keys":             {kinds: []string{"pii-in-key"}},
	"too-many-families":          {kinds: []string{"too-many-column-families"}},
}

// TestSnapshotFiles diagnoses the real snapshot files, when there are
// any. A file without an expectation line is only checked not to fail.
func TestSnapshotFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "snapshots", "*.btviz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no snapshot files in ../../testdata/snapshots yet")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".btviz")
		if !tier.Slow && strings.HasSuffix(name, "-salted") {
			continue // the largest file (3 s under -race); cmd/btviz's gate test reads it in the fast tier
		}
		t.Run(name, func(t *testing.T) {
			snap, err := keyspace.Load(file)
			if err != nil {
				t.Fatalf("loading %s: %v", file, err)
			}
			findings := Diagnose(snap)
			e, ok := snapshotExpectations[name]
			if !ok {
				t.Logf("%s has no expectation line in snapshotExpectations; diagnosed %d findings", file, len(findings))
				return
			}
			e.check(t, findings)
		})
	}
}

// TestSnapshotExpectationsMatchScenarios keeps the snapshot table and the
// demo scenarios in step.
func TestSnapshotExpectationsMatchScenarios(t *testing.T) {
	for name, e := range snapshotExpectations {
		sc, ok := demo.Named(name)
		if !ok {
			continue
		}
		got, want := slices.Sorted(slices.Values(sc.Expect)), slices.Sorted(slices.Values(e.kinds))
		if sc.Good != e.good || !slices.Equal(got, want) {
			t.Errorf("%s: demo scenario expects good=%v %v, snapshot table good=%v %v", name, sc.Good, got, e.good, want)
		}
	}
}

func TestDiagnoseEmptySnapshots(t *testing.T) {
	if got := Diagnose(nil); got != nil {
		t.Fatalf("Diagnose(nil) = %v, want nil", got)
	}
	for _, snap := range []*keyspace.Snapshot{
		{},
		{Root: &keyspace.Node{}},
		keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceEmulator}, keyspace.Options{}).Snapshot(),
	} {
		for _, f := range Diagnose(snap) {
			if f.Severity > SeverityInfo {
				t.Errorf("empty snapshot raised %s %s: %s", f.Severity, f.Kind, f.Summary)
			}
		}
	}
}
