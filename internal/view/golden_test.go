package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/tui/tuitest"
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

// goldenPanes are the panes the goldens were drawn with: the full help in
// them lists these panes' keys. A pane added later changes no golden;
// TestFullHelpListsEveryPaneKey checks that the help lists its key.
var goldenPanes = []Pane{PaneHeatmap, PanePrefixes, PaneFindings, PaneRows, PaneHot}

// goldenFrame draws a golden: [RenderFrame] with the full help of
// [goldenPanes].
func goldenFrame(t *testing.T, snap *keyspace.Snapshot, findings []diagnose.Finding, state ViewState, size goldenSize, th goldenTheme) string {
	t.Helper()
	var all []pane
	for _, id := range goldenPanes {
		p := paneOf(id)
		if p.id() != id {
			t.Fatalf("the goldens were drawn with pane %q, which is gone: take it out of goldenPanes and regenerate the help goldens with -update", id)
		}
		all = append(all, p)
	}
	return renderFrame(newShared(all, th.dark, th.profile, size.width, size.height, state.FullHelp), snap, findings, state)
}

// TestFullHelpListsEveryPaneKey: the full help lists the key of every
// registered pane that has one, with what it opens, and still fits the
// smallest terminal.
func TestFullHelpListsEveryPaneKey(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	for _, size := range goldenSizes {
		frame := RenderFrame(snap, nil, ViewState{FullHelp: true}, size.width, size.height, true, colorprofile.NoTTY)
		tuitest.RequireFrame(t, frame, size.width, size.height)
		if size.width < 200 {
			continue // the help's last columns are cut at 80 columns
		}
		opened := 0
		for _, p := range panes() {
			b := p.open()
			if len(b.Keys()) == 0 {
				continue
			}
			opened++
			entry := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + `(\s|$)`)
			if !entry.MatchString(frame) {
				t.Errorf("%dx%d: the full help lacks %q %q, the key of pane %s:\n%s", size.width, size.height, b.Help().Key, b.Help().Desc, p.id(), frame)
			}
		}
		if opened < 3 {
			t.Fatalf("only %d panes have a key: has the registry lost its panes?", opened)
		}
	}
}

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
						frame := goldenFrame(t, snap, findings, v.state, size, th)
						tuitest.RequireFrame(t, frame, size.width, size.height)
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

// TestGoldenTooSmall draws the message below the minimum size.
func TestGoldenTooSmall(t *testing.T) {
	frame := RenderFrame(scenarioSnapshot(t, "social-celebrity"), nil, ViewState{}, 60, 12, true, colorprofile.NoTTY)
	tuitest.RequireFrame(t, frame, 60, 12)
	golden.RequireEqual(t, frame)
}
