package diagnose

import (
	"testing"

	"github.com/btviz/btviz/demo/demotest"
	"github.com/btviz/btviz/keyspace"
)

// scenarioSnapshot returns a copy of the snapshot of a demo scenario or
// test table.
func scenarioSnapshot(t *testing.T, name string) *keyspace.Snapshot {
	t.Helper()
	return demotest.Snapshot(t, name)
}
