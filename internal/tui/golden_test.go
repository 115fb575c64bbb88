package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/tui/tuitest"
	"github.com/btviz/btviz/internal/view"
)

// goldenSize is a terminal size the goldens are drawn at: the smallest
// btviz supports and a large one.
type goldenSize struct{ width, height int }

var goldenSizes = []goldenSize{{80, 24}, {200, 60}}

// TestGoldenPicker draws the table picker of a few saved snapshots.
func TestGoldenPicker(t *testing.T) {
	var snaps []*keyspace.Snapshot
	for _, name := range []string{"social-celebrity", "social-celebrity-salted", "binary-sensor-keys", "large-row-and-cell"} {
		snaps = append(snaps, scenarioSnapshot(t, name))
	}
	b := session.NewSnapshotSource("demo.btviz", snaps...)
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			m := New(t.Context(), Config{Source: b, Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
			rt := newRuntime(t, m)
			rt.send(tea.WindowSizeMsg{Width: size.width, Height: size.height})
			rt.run(m.Init())
			rt.until(timeoutShort, "the sized picker", func() bool { return len(m.picker.Sizes) == len(snaps) })
			rt.press("j")
			frame := m.View().Content
			tuitest.RequireFrame(t, frame, size.width, size.height)
			golden.RequireEqual(t, frame)
		})
	}
}
