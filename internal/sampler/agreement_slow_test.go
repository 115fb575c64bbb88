//go:build slow

package sampler_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/emutest"
	"github.com/btviz/btviz/internal/testkit/seeds"
)

// agreementSeeds is how many sampled scans of each demo table must find
// what the full scan finds.
const agreementSeeds = 20

// agreedKinds are the findings a sample must agree on with a full scan:
// those on exact numbers (large-row, tablet-skew) and those whose
// estimated triggers carry 95% intervals (diagnose's estimates).
var agreedKinds = []diagnose.Kind{"hot-key-range", "large-row", "tablet-skew", "sequential-keys",
	"key-starts-with-timestamp", "sequential-numeric-id", "binary-key", "pii-in-key", "domain-not-reversed"}

// findingsOf returns the agreed kinds' findings of snap, one line each,
// and those that say their threshold lies inside their 95% interval
// (diagnose.Finding.Uncertain): a sample may raise those or not.
func findingsOf(snap *keyspace.Snapshot) (found, uncertain []string) {
	for _, f := range diagnose.Diagnose(snap) {
		if !slices.Contains(agreedKinds, f.Kind) {
			continue
		}
		line := fmt.Sprintf("%s [%s, %s) %s", f.Kind, keyspace.Printable(string(f.Prefix)), keyspace.Printable(string(f.Start)), f.Severity)
		if f.Uncertain {
			uncertain = append(uncertain, line)
		} else {
			found = append(found, line)
		}
	}
	slices.Sort(found)
	return found, uncertain
}

// withoutSeverity returns a findingsOf line without its severity.
func withoutSeverity(line string) string {
	return line[:strings.LastIndexByte(line, ' ')]
}

// The bounds of TestSampledFindingsAgreeWithFullScanOnTablets, from its
// measured distribution on 23 tables × 20 seeds (four runs of the code at
// hand, CI's among them): 455, 458, 459 and 459 of 460 scans agreed (2.75
// misses a run on average, 5 at most); the worst table agreed in 17, 19,
// 19 and 19 of 20 (accounts-hot-tenth, whose 10% account lies near the
// hot-key-range threshold on a 5% sample: 4 misses in 80 scans, none of
// them said uncertain). A run fails on more than allMissesPercent of 460
// (more than 9: under a Poisson law of mean 2.75, 6 in 10,000 runs) or on
// a table that misses more than tableMisses of 20 (more than 7: 4 in
// 10,000 at a miss rate of 10%, twice the one measured). The goal stays
// every scan; these bounds catch a sampler that gets worse. On issue 26's
// sampler, ten runs on fresh seeds agreed in 4,575 of 4,600 scans (0 to 5
// misses a run, 2.5 on average: 2 in 10,000 runs above 9); the worst
// tables missed 8 (newcomer-app's sequential-keys, where a tablet of
// thousands of one-row prefixes is read as one piece past its first 16),
// 7 (social-celebrity-salted, a hot-key-range raised on one salted copy
// of the celebrity), 4 (accounts-hot-tenth), 3 (pii-login-keys) and 3
// (large-row-and-cell) of 200, at most 3 in one run.
const (
	allMissesPercent = 2
	tableMisses      = 7
)

// On the demo scenarios behind an emulator that answers with tablets,
// every one of agreementSeeds sampled scans finds the agreedKinds
// findings the full scan finds (kind, severity and place), and no others,
// save those it says are uncertain (their threshold inside their
// interval), which may go either way: all but allMissesPercent at least,
// all but tableMisses of each table's.
func TestSampledFindingsAgreeWithFullScanOnTablets(t *testing.T) {
	ctx := context.Background()
	conn, scenarios := demoTables(t, cloudlike.ServerOptions(cloudlike.Uneven(16, 3, 0.3), nil)...)
	runSeeds := seeds.Fresh(t, agreementSeeds)
	agreed, total, excused := 0, 0, 0
	for _, sc := range scenarios {
		full, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Full: true})
		if err != nil {
			t.Fatal(err)
		}
		// A full scan of a table larger than its row sample estimates
		// key shares too: what it calls uncertain is what it found.
		want, fullUncertain := findingsOf(full)
		want = append(want, fullUncertain...)
		slices.Sort(want)
		tablesAgreed := 0
		for _, seed := range runSeeds {
			snap, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Fraction: 0.05, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			got, uncertain := findingsOf(snap)
			excused += len(uncertain)
			// A finding the sample calls uncertain may be on either side,
			// at either severity.
			want := slices.DeleteFunc(slices.Clone(want), func(line string) bool {
				return slices.ContainsFunc(uncertain, func(u string) bool { return withoutSeverity(u) == withoutSeverity(line) })
			})
			if slices.Equal(got, want) {
				tablesAgreed++
			} else {
				t.Logf("%s seed %d (%s; replay: %s=%d): sample finds\n  %s\nfull scan finds\n  %s", sc.Name, seed, snap.Scan.ModeText(), seeds.Env, seed,
					strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		}
		t.Logf("%-28s %2d/%d agree (%d findings, tablets %v)", sc.Name, tablesAgreed, agreementSeeds, len(want), full.RangesAreTablets)
		if tablesAgreed < agreementSeeds-tableMisses {
			t.Errorf("%s: %d of %d sampled scans agree with the full scan", sc.Name, tablesAgreed, agreementSeeds)
		}
		agreed += tablesAgreed
		total += agreementSeeds
	}
	// The goal is every scan. The tablet map is the same every run (the
	// row nearest each cut point: see internal/emulator/cloudlike), the
	// seeds are not; over runs, one scan in a few hundred has raised a
	// hot-key-range in a thin tablet where its rows weigh a lot.
	t.Logf("agreement: %d/%d sampled scans, %d uncertain findings excused", agreed, total, excused)
	if agreed < total-total*allMissesPercent/100 {
		t.Errorf("%d of %d sampled scans agree with the full scan; want at least %d%%", agreed, total, 100-allMissesPercent)
	}
}

// A table whose tablet map has one tablet ten times its neighbours gets
// tablet-skew there, from a full scan and from every sampled one. The
// layout asks for twelve times: a boundary lands on the row nearest its
// cut point, which moves tablet sizes of few rows either way.
func TestTabletTenTimesItsNeighboursIsSkewed(t *testing.T) {
	sizes := []float64{1, 1, 1, 1, 12, 1, 1, 1, 1}
	target := emutest.Seed(t, "users-reversed-ids", cloudlike.ServerOptions(cloudlike.Layout{Sizes: sizes}, nil)...)
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
