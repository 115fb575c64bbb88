package sampler_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/internal/cloudlike"
	"github.com/btviz/btviz/internal/scantest"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/sampler"
)

// agreementSeeds is how many sampled scans of each demo table must find
// what the full scan finds.
const agreementSeeds = 20

// agreedKinds are the findings a sample must agree on with a full scan.
var agreedKinds = []diagnose.Kind{"hot-key-range", "large-row", "tablet-skew"}

// findingsOf returns the agreed kinds' findings of snap, one line each.
func findingsOf(snap *keyspace.Snapshot) []string {
	var found []string
	for _, f := range diagnose.Diagnose(snap) {
		if slices.Contains(agreedKinds, f.Kind) {
			found = append(found, fmt.Sprintf("%s %s [%s, %s)", f.Kind, f.Severity, keyspace.Printable(string(f.Prefix)), keyspace.Printable(string(f.Start))))
		}
	}
	slices.Sort(found)
	return found
}

// On the demo scenarios behind an emulator that answers with tablets,
// every one of agreementSeeds sampled scans finds the hot-key-range,
// large-row and tablet-skew findings the full scan finds, and no others.
func TestSampledFindingsAgreeWithFullScanOnTablets(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("scans every demo table 21 times: over two minutes, far more under the race detector")
	}
	ctx := context.Background()
	conn, scenarios := demoTables(t, cloudlike.ServerOptions(cloudlike.Uneven(16, 3, 0.3), nil)...)
	agreed, total := 0, 0
	for _, sc := range scenarios {
		full, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Full: true})
		if err != nil {
			t.Fatal(err)
		}
		want := findingsOf(full)
		tablesAgreed := 0
		for seed := range uint64(agreementSeeds) {
			snap, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Fraction: 0.05, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			got := findingsOf(snap)
			if slices.Equal(got, want) {
				tablesAgreed++
			} else {
				t.Logf("%s seed %d (%s): sample finds\n  %s\nfull scan finds\n  %s", sc.Name, seed, snap.Scan.ModeText(), strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		}
		t.Logf("%-28s %2d/%d agree (%d findings, tablets %v)", sc.Name, tablesAgreed, agreementSeeds, len(want), full.RangesAreTablets)
		if tablesAgreed < agreementSeeds {
			t.Errorf("%s: %d of %d sampled scans agree with the full scan", sc.Name, tablesAgreed, agreementSeeds)
		}
		agreed += tablesAgreed
		total += agreementSeeds
	}
	t.Logf("agreement: %d/%d sampled scans", agreed, total)
}

// A table whose tablet map has one tablet ten times its neighbours gets
// tablet-skew there, from a full scan and from every sampled one. The
// layout asks for twelve times: a boundary lands on the emulator's
// sampled row nearest its cut point, which moves tablet sizes by several
// percent either way.
func TestTabletTenTimesItsNeighboursIsSkewed(t *testing.T) {
	sizes := []float64{1, 1, 1, 1, 12, 1, 1, 1, 1}
	target := scantest.Seed(t, "users-reversed-ids", cloudlike.ServerOptions(cloudlike.Layout{Sizes: sizes}, nil)...)
	ctx := context.Background()
	conn, err := connect.Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, opts := range []sampler.Options{{Full: true}, {Fraction: 0.05, Seed: 1}, {Fraction: 0.05, Seed: 2}, {MaxRows: 2000}} {
		snap, err := sampler.Scan(ctx, conn, "users-reversed-ids", opts)
		if err != nil {
			t.Fatal(err)
		}
		if !snap.RangesAreTablets || len(snap.Ranges) != len(sizes) {
			t.Fatalf("%s: tablets %v, %d ranges, want %d", snap.Scan.ModeText(), snap.RangesAreTablets, len(snap.Ranges), len(sizes))
		}
		var skewed []string
		for _, f := range diagnose.Diagnose(snap) {
			if f.Kind == "tablet-skew" {
				skewed = append(skewed, string(f.Start))
			}
		}
		if want := string(snap.Ranges[4].Start); len(skewed) != 1 || skewed[0] != want {
			t.Errorf("%s: tablet-skew at %q, want one at %q", snap.Scan.ModeText(), skewed, want)
		}
	}
}
