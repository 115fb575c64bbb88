package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// TestDatasetsPaneListsAndShowsEachDataset: D lists the newcomer table's
// three datasets with their ranges and shares; enter on the sensor
// readings (keys that share no prefix) shows their range, enter on user#
// its prefix, and a finding about the sensor readings opens their range,
// not the whole table.
func TestDatasetsPaneListsAndShowsEachDataset(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "newcomer-app"), 140, 40, colorprofile.NoTTY)
	press(m, "D")
	s := screen(m)
	for _, want := range []string{"Datasets", "3 datasets, each diagnosed on its own", demo.NewcomerSensorDataset, "config#", "user#", "[user#, user$)", "83%", "17%"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the datasets pane lacks %q:\n%s", want, s)
		}
	}
	press(m, "enter") // the first: the sensor readings
	cur := m.current()
	if cur.state.Shown() != view.PaneHeatmap || cur.state.Prefix != "" || !strings.HasPrefix(string(cur.state.Start), "17934") {
		t.Fatalf("enter on the sensor readings: pane %q, prefix %q, range [%q, %q); want the heatmap of their range",
			cur.state.Shown(), cur.state.Prefix, cur.state.Start, cur.state.End)
	}
	press(m, "esc", "D", "down", "down", "enter")
	if cur := m.current(); cur.state.Prefix != "user#" {
		t.Fatalf("enter on user#: prefix %q, want user#", cur.state.Prefix)
	}
	press(m, "esc")
	for len(m.levels) > 1 {
		press(m, "esc")
	}
	// The first finding is about the sensor readings.
	press(m, "f", "enter")
	cur = m.current()
	if cur.state.Prefix != "" || cur.state.Start == "" || cur.state.End == "" || keyspace.Key("user#") < cur.state.Start {
		t.Fatalf("enter on a finding about the sensor readings: prefix %q, range [%q, %q); want their range", cur.state.Prefix, cur.state.Start, cur.state.End)
	}
}
