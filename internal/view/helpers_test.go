package view

import (
	"testing"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/keyspace"
)

// scenarioSnapshot returns the saved snapshot of a demo scenario.
func scenarioSnapshot(t testing.TB, name string) *keyspace.Snapshot {
	t.Helper()
	return demotest.Snapshot(t, name)
}
