//go:build slow

package emulator

import (
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
)

// TestSeedLoadsEveryScenario loads every demo scenario into one emulator,
// checks each table against its generator, and loads them again into
// another instance to check that seeding is deterministic. How long it
// takes is measured by BenchmarkSeed, not asserted here.
func TestSeedLoadsEveryScenario(t *testing.T) {
	t.Parallel()
	env := startEmulator(t)
	ctx := testContext(t, 5*time.Minute)
	scenarios := demo.Scenarios()

	var progress progressLog
	start := time.Now()
	if err := Seed(ctx, env.admin, env.client, scenarios, progress.report); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	rows := 0
	for _, sc := range scenarios {
		rows += sc.Rows
	}
	t.Logf("seeded %d scenarios, %d rows, in %s", len(scenarios), rows, elapsed.Round(time.Millisecond))

	if progress.concurrent {
		t.Error("progress was called concurrently; Seed must serialize reports")
	}
	for _, sc := range scenarios {
		last, ok := progress.last[sc.Name]
		if !ok || !last.Done || last.Err != nil || last.RowsWritten != sc.Rows || last.RowsTotal != sc.Rows {
			t.Errorf("last progress of %s = %+v, want Done with %d of %d rows and no error", sc.Name, last, sc.Rows, sc.Rows)
		}
	}

	tables, err := env.admin.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != len(scenarios) {
		t.Errorf("instance holds %d tables %v, want one per scenario (%d)", len(tables), tables, len(scenarios))
	}

	digests := map[string][32]byte{}
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			digests[sc.Name] = verifyScenario(t, ctx, env.client, env.admin, sc).digest
		})
	}

	// Determinism: a second load, into another instance of the same
	// emulator, gives the same keys, columns and timestamps.
	again := scenarios
	client, admin := dialForTest(t, env.server.Addr, "btviz-again")
	if err := Seed(ctx, admin, client, again, nil); err != nil {
		t.Fatal(err)
	}
	for _, sc := range again {
		if got := scanTable(t, ctx, client, sc.Name).digest; got != digests[sc.Name] {
			t.Errorf("%s: a second load differs from the first (digest %x, then %x)", sc.Name, digests[sc.Name], got)
		}
	}
}
