package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/source"
)

func TestDemoSourceRefusesATableStillLoading(t *testing.T) {
	scenarios, err := demo.Lookup("large-row-and-cell")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewDemoSource(t.Context(), scenarios, sampler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the demo source: %v", err)
		}
	})
	_, err = b.Scan(t.Context(), "large-row-and-cell", nil, source.Watch{})
	if err == nil {
		// Loading may have finished already on a fast machine.
		return
	}
	if !strings.Contains(err.Error(), "still loading") {
		t.Fatalf("scanning a loading table: %v", err)
	}
}

func TestSnapshotSource(t *testing.T) {
	snap := demotest.Snapshot(t, "social-celebrity")
	b := NewSnapshotSource("celebrity.btviz", snap)
	if b.Live() || b.Loads() != nil || !strings.Contains(b.Where(), "celebrity.btviz") {
		t.Fatal("a snapshot source is not live and loads nothing")
	}
	tables, err := b.ListTables(t.Context())
	if err != nil || len(tables) != 1 || tables[0].Name != "social-celebrity" {
		t.Fatalf("tables %v, %v", tables, err)
	}
	got, err := b.Scan(t.Context(), "social-celebrity", nil, source.Watch{})
	if err != nil || got != snap {
		t.Fatalf("scan of the whole table: %v", err)
	}
	if _, err := b.Scan(t.Context(), "social-celebrity", &source.Range{Start: "a", End: "b"}, source.Watch{}); !errors.Is(err, source.ErrNotLive) {
		t.Fatalf("re-reading a range: %v, want source.ErrNotLive", err)
	}
}
