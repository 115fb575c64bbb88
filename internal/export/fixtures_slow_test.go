//go:build slow

package export

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/scantest"
)

// TestSnapshotFixturesMatchAFreshScan: the committed snapshot files, which
// fast tests read instead of seeding and scanning, hold what a scan of the
// demo tables gives today: the same totals, the same sizes of the largest
// and most-versioned rows, and the same findings at the same places. The
// tree's shape is not compared: where it merges runs of keys depends on the
// tablet map, which the emulator's SampleRowKeys draws at random; nor which
// of the rows tied in size make the top lists. When this
// fails, regenerate them:
//
//	go test ./export -run TestSnapshotFixtures -update-snapshots
func TestSnapshotFixturesMatchAFreshScan(t *testing.T) {
	now := func() time.Time { return demo.DemoNow().Add(time.Hour) }
	fresh := scantest.Snapshots(t, strings.Join(fixtureScenarios, ","), sampler.Options{Full: true, Concurrency: 1, Now: now})
	for _, name := range fixtureScenarios {
		committed, findings := loadFixture(t, name)
		got := summary(t, fresh[name], diagnose.Diagnose(fresh[name]))
		want := summary(t, committed, findings)
		if got != want {
			t.Errorf("%s: a fresh scan differs from testdata/snapshots/%s.btviz; regenerate the fixtures\nfresh:     %s\ncommitted: %s", name, name, got, want)
		}
	}
}

// summary is what a full scan of a demo table must give the same every
// time, as one line of JSON.
func summary(t *testing.T, snap *keyspace.Snapshot, findings []diagnose.Finding) string {
	t.Helper()
	var places []string
	for _, f := range findings {
		places = append(places, fmt.Sprintf("%s %s %q", f.Severity, f.Kind, f.Prefix))
	}
	slices.Sort(places)
	var largest, versions []int64
	for _, row := range snap.Largest {
		largest = append(largest, row.Bytes)
	}
	for _, row := range snap.MostVersioned {
		versions = append(versions, row.MaxVersions)
	}
	data, err := json.Marshal(struct {
		Table, Delimiters  string
		Families           []string
		Totals             *keyspace.Stats
		Largest, Versioned []int64
		Findings           []string
	}{snap.Table, snap.Delimiters, snap.Families, snap.Totals(), largest, versions, places})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
