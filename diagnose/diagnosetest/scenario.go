// Package diagnosetest builds small, deterministic snapshots shaped like
// btviz's demo scenarios (the emulator package's Scenario list), for
// tests of the diagnostics, the reports and anything else that needs a
// realistic [keyspace.Snapshot] without an emulator. Each [Scenario] says
// which finding kinds it must raise and where.
package diagnosetest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/btviz/btviz/keyspace"
)

// demoNow is the fixed "now" of all scenarios, as in the emulator's demo
// data: every cell timestamp is before it.
var demoNow = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// Scenario is one synthetic table.
type Scenario struct {
	// Name matches the emulator scenario it imitates where there is one.
	Name string
	// Good is true for a design the guide recommends: it must raise no
	// warning or error.
	Good bool
	// Expect lists the finding kinds (other than scan notes) the scenario
	// must raise, exactly.
	Expect []string
	// Locations says where expected findings must point.
	Locations []Location
	// Delimiters fixes the key delimiters; empty means detect them.
	Delimiters string
	// Families are the table's column families.
	Families []string
	// Source is the snapshot's source (emulator unless set).
	Source keyspace.Source
	// Ranges is the tablet map, for scenarios on real Bigtable.
	Ranges []keyspace.Range
	rows   func(put Put)
}

// Location is where one expected finding must point.
type Location struct {
	Kind string
	// Prefix is the finding's Prefix: a key prefix or a row key.
	Prefix string
}

// Put adds one row of cells to the table being built.
type Put func(key string, cells ...keyspace.Cell)

// Snapshot builds the scenario's snapshot: a complete full scan.
func (s Scenario) Snapshot() *keyspace.Snapshot {
	source := s.Source
	if source == "" {
		source = keyspace.SourceEmulator
	}
	meta := &keyspace.Snapshot{
		Source:   source,
		Project:  "local",
		Instance: "btviz",
		Table:    s.Name,
		Families: slices.Clone(s.Families),
		Ranges:   slices.Clone(s.Ranges),
		Scan: keyspace.ScanInfo{
			Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true,
			Started: demoNow.Add(time.Hour), Duration: 1500 * time.Millisecond,
		},
		RangesAreTablets: source == keyspace.SourceBigtable,
	}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: s.Delimiters, Seed: 1})
	// A scan returns rows in key order; the generators write in time order.
	var rows []keyspace.Row
	s.rows(func(key string, cells ...keyspace.Cell) {
		rows = append(rows, keyspace.Row{Key: key, Weight: 1, Cells: cells})
	})
	slices.SortStableFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	for i := range rows {
		b.Add(&rows[i])
	}
	for i := range s.Ranges {
		b.MarkRange(i, false)
	}
	snap := b.Snapshot()
	snap.Scan.RowsEstimated = snap.Scan.RowsRead
	snap.Scan.BytesEstimated = int64(snap.Totals().Bytes)
	return snap
}

// Scenarios returns every scenario, bad and good variants of a pattern
// next to each other.
func Scenarios() []Scenario {
	return slices.Concat(
		timeseriesScenarios(),
		userScenarios(),
		socialScenarios(),
		structuredScenarios(),
		webScenarios(),
		sizeScenarios(),
		keyFormScenarios(),
	)
}

// Lookup returns the scenario called name.
func Lookup(name string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// newRand returns the deterministic random source of a scenario.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x62747669)) }

// micros returns t as a cell timestamp, truncated to milliseconds as
// Bigtable keeps them.
func micros(t time.Time) int64 { return t.Truncate(time.Millisecond).UnixMicro() }

// randomTime returns a time uniformly in [start, end).
func randomTime(r *rand.Rand, start, end time.Time) time.Time {
	return start.Add(time.Duration(r.Int64N(int64(end.Sub(start)))))
}

// sortedTimes returns n random times in [start, end), oldest first.
func sortedTimes(r *rand.Rand, n int, start, end time.Time) []time.Time {
	times := make([]time.Time, n)
	for i := range times {
		times[i] = randomTime(r, start, end)
	}
	slices.SortFunc(times, time.Time.Compare)
	return times
}

// cell is a one-version cell of size bytes.
func cell(family, qualifier string, at time.Time, size int64) keyspace.Cell {
	return keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: micros(at), ValueBytes: size}
}

var firstNames = []string{"alice", "bob", "carmen", "dmitri", "emma", "farah", "gustavo", "hana", "ivan", "julia",
	"kwame", "lena", "mateo", "nadia", "oliver", "priya", "rosa", "sven", "tomoko", "wei"}

var lastNames = []string{"smith", "fischer", "garcia", "ivanova", "mensah", "nguyen", "okafor", "patel", "rossi",
	"tanaka", "walker", "silva", "dubois", "kim", "lopez"}

func pick[T any](r *rand.Rand, items []T) T { return items[r.IntN(len(items))] }
