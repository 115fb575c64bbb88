package diagnose

import (
	"slices"
	"sync"
	"testing"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/keyspace"
)

// scenarioSnapshot returns a copy of the snapshot of a demo scenario or
// test table.
func scenarioSnapshot(t *testing.T, name string) *keyspace.Snapshot {
	t.Helper()
	return demotest.Snapshot(t, name)
}

// diagnosed caches each scenario's findings across the tests of one
// binary (the scenario checks and the proofreading of their advice).
var diagnosed sync.Map // name → func() []Finding

// scenarioFindings returns the findings of a demo scenario or test table,
// diagnosed once per test binary; the slice is the caller's.
func scenarioFindings(t *testing.T, name string) []Finding {
	t.Helper()
	snap := scenarioSnapshot(t, name)
	find, _ := diagnosed.LoadOrStore(name, sync.OnceValue(func() []Finding { return Diagnose(snap) }))
	return slices.Clone(find.(func() []Finding)())
}
