package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// TestBinaryKeysReadTheSameInLabelsAndDetails: the details pane writes a
// bucket's start key escaped as its label (every byte as \xNN from where
// the labels do), not "\x0c\x13\x82e" beside a label "\x0c\x13\x82\x65".
func TestBinaryKeysReadTheSameInLabelsAndDetails(t *testing.T) {
	snap := scenarioSnapshot(t, "binary-sensor-keys")
	m := newSnapshotModel(t, snap, 200, 40, colorprofile.NoTTY)
	checked := 0
	for b := 1; b < min(len(m.matrix.Buckets), 12); b++ {
		m.current().state.Selected = b
		label := m.matrix.Buckets[b].Label
		if !strings.Contains(label, `\x`) {
			continue
		}
		var start string
		for _, line := range strings.Split(ansi.Strip(m.render()), "\n") {
			if _, details, ok := strings.Cut(line, "│ start    "); ok {
				start = strings.TrimSpace(details)
			}
		}
		if !strings.HasPrefix(start, label) {
			t.Errorf("bucket %d: the label is %q, the details' start %q", b, label, start)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no bucket of the binary table has an escaped label")
	}
}
