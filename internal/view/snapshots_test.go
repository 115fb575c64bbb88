package view

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestSavedScenarioSnapshots draws the snapshots scanned from the real
// demo scenarios (testdata/snapshots/*.btviz at the module root) in every
// pane at both golden sizes, and checks what a user would: the frame
// fits, no raw key byte or control character reaches it, and each
// expected finding is listed.
func TestSavedScenarioSnapshots(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "snapshots", "*.btviz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no saved snapshots in ../../testdata/snapshots")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".btviz")
		if !tier.Slow && strings.HasSuffix(name, "-salted") {
			continue // the largest file, and a good design like the others: the slow tier draws it
		}
		t.Run(name, func(t *testing.T) {
			snap, err := keyspace.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			findings := diagnose.Diagnose(snap)
			var expect []string
			if sc, err := demo.Lookup(snap.Table); err == nil {
				expect = sc[0].Expect
			}
			for _, size := range goldenSizes {
				for _, pane := range Panes() {
					frame := RenderFrame(snap, findings, ViewState{}.Showing(pane), size.width, size.height, true, colorprofile.TrueColor)
					tuitest.RequireFrame(t, frame, size.width, size.height)
				}
				frame := RenderFrame(snap, findings, ViewState{Focus: PaneFindings}, size.width, size.height, true, colorprofile.NoTTY)
				if !strings.Contains(frame, snap.Table) {
					t.Errorf("%dx%d: the frame does not name table %q", size.width, size.height, snap.Table)
				}
				for _, kind := range expect {
					if size.width >= 200 && !strings.Contains(frame, kind) {
						t.Errorf("%dx%d: finding %s is not listed:\n%s", size.width, size.height, kind, frame)
					}
				}
			}
		})
	}
}
