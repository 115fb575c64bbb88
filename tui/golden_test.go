package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/keyspace"
)

// goldenSize is a terminal size the goldens are drawn at: the smallest
// btviz supports and a large one.
type goldenSize struct{ width, height int }

var goldenSizes = []goldenSize{{80, 24}, {200, 60}}

// goldenTheme is a theme and colour profile the goldens are drawn in.
type goldenTheme struct {
	name    string
	dark    bool
	profile colorprofile.Profile
}

var (
	plainTheme  = goldenTheme{"nocolor", true, colorprofile.NoTTY}
	colorThemes = []goldenTheme{{"truecolor-dark", true, colorprofile.TrueColor}, {"truecolor-light", false, colorprofile.TrueColor}, {"ansi256-dark", true, colorprofile.ANSI256}}
)

// TestGoldenFrames draws the headless frame of the demo scenarios'
// snapshots, in several views, sizes, themes and profiles.
func TestGoldenFrames(t *testing.T) {
	type view struct {
		name   string
		state  ViewState
		themes []goldenTheme
	}
	cases := []struct {
		scenario string
		views    []view
	}{
		{"social-celebrity", []view{
			{"heatmap", ViewState{}, append([]goldenTheme{plainTheme}, colorThemes...)},
			{"user-prefix", ViewState{Prefix: "user#"}, []goldenTheme{plainTheme}},
			{"celebrity", ViewState{Prefix: "user#mila_rosewood#", Metric: heatmap.MetricWriteShare}, []goldenTheme{plainTheme}},
			{"findings", ViewState{Focus: PaneFindings}, []goldenTheme{plainTheme}},
			{"prefixes", ViewState{Main: PanePrefixes, Prefix: "user#", Metric: heatmap.MetricRows}, []goldenTheme{plainTheme}},
			{"help", ViewState{FullHelp: true, Scale: heatmap.Scale{Kind: heatmap.ScaleLog, Brightness: 2}}, []goldenTheme{plainTheme}},
		}},
		{"timeseries-timestamp-first", []view{
			{"heatmap", ViewState{Bucketing: heatmap.BucketEven}, []goldenTheme{plainTheme}},
			{"label-times", ViewState{Bucketing: heatmap.BucketEven, LabelTimes: true}, []goldenTheme{plainTheme}},
			{"rows", ViewState{Main: PaneRows}, []goldenTheme{plainTheme}},
		}},
		{"timeseries-reversed-ts", []view{{"label-times", ViewState{Prefix: "machine_1032405#", LabelTimes: true}, []goldenTheme{plainTheme}}}},
		{"phone-device-day", []view{{"label-times", ViewState{Prefix: "phone#00001a5d#", LabelTimes: true}, []goldenTheme{plainTheme}}}},
		{"users-sequential-ids", []view{{"heatmap", ViewState{}, []goldenTheme{plainTheme}}}},
		{"large-row-and-cell", []view{
			{"max-row", ViewState{Metric: heatmap.MetricMaxRow}, []goldenTheme{plainTheme}},
			{"rows", ViewState{Main: PaneRows}, []goldenTheme{plainTheme}},
			{"row-columns", ViewState{Main: PaneRows, RowColumns: true}, []goldenTheme{plainTheme}},
		}},
		{"memusage-single-row", []view{{"versions", ViewState{Metric: heatmap.MetricVersions, Focus: PaneFindings}, []goldenTheme{plainTheme}}}},
		{"binary-sensor-keys", []view{{"heatmap", ViewState{}, []goldenTheme{plainTheme, colorThemes[0]}}}},
		{"web-domains-forward", []view{{"heatmap", ViewState{}, []goldenTheme{plainTheme}}}},
		{"two-datasets", []view{{"heatmap", ViewState{}, []goldenTheme{plainTheme}}}},
	}
	for _, c := range cases {
		snap := scenarioSnapshot(t, c.scenario)
		findings := diagnose.Diagnose(snap)
		for _, v := range c.views {
			for _, th := range v.themes {
				for _, size := range goldenSizes {
					name := fmt.Sprintf("%s/%s/%dx%d-%s", c.scenario, v.name, size.width, size.height, th.name)
					t.Run(name, func(t *testing.T) {
						frame := RenderFrame(snap, findings, v.state, size.width, size.height, th.dark, th.profile)
						requireFrame(t, frame, size.width, size.height)
						if th.profile == colorprofile.NoTTY && strings.Contains(frame, "\x1b") {
							t.Fatal("a frame without colour holds escape sequences")
						}
						golden.RequireEqual(t, frame)
					})
				}
			}
		}
	}
}

// TestGoldenPicker draws the table picker of a few saved snapshots.
func TestGoldenPicker(t *testing.T) {
	var snaps []*keyspace.Snapshot
	for _, name := range []string{"social-celebrity", "social-celebrity-salted", "binary-sensor-keys", "large-row-and-cell"} {
		snaps = append(snaps, scenarioSnapshot(t, name))
	}
	b := NewSnapshotBackend("demo.btviz", snaps...)
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			m := New(t.Context(), Config{Backend: b, Profile: colorprofile.NoTTY, Theme: ThemeDark})
			rt := newRuntime(t, m)
			rt.send(tea.WindowSizeMsg{Width: size.width, Height: size.height})
			rt.run(m.Init())
			rt.until(timeoutShort, "the sized picker", func() bool { return len(m.picker.sizes) == len(snaps) })
			rt.press("j")
			frame := m.View().Content
			requireFrame(t, frame, size.width, size.height)
			golden.RequireEqual(t, frame)
		})
	}
}

// TestGoldenTooSmall draws the message below the minimum size.
func TestGoldenTooSmall(t *testing.T) {
	frame := RenderFrame(scenarioSnapshot(t, "social-celebrity"), nil, ViewState{}, 60, 12, true, colorprofile.NoTTY)
	requireFrame(t, frame, 60, 12)
	golden.RequireEqual(t, frame)
}
