package diagnose

import (
	"sync"
	"testing"

	"github.com/btviz/btviz/diagnose/diagnosetest"
	"github.com/btviz/btviz/keyspace"
)

// builtScenarios caches each scenario's snapshot across tests: some (the
// 100,000-column row) take a second to build under the race detector.
var builtScenarios sync.Map // name → func() *keyspace.Snapshot

// scenarioSnapshot returns a copy of a named scenario's snapshot.
func scenarioSnapshot(t *testing.T, name string) *keyspace.Snapshot {
	t.Helper()
	sc, ok := diagnosetest.Lookup(name)
	if !ok {
		t.Fatalf("no scenario %q", name)
	}
	build, _ := builtScenarios.LoadOrStore(name, sync.OnceValue(sc.Snapshot))
	return build.(func() *keyspace.Snapshot)().Clone()
}
