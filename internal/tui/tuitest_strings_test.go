package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestTuitestStringsAreOnScreen checks every string the tmux tests wait
// for against the frames the program draws, in the state where a user
// sees it.
func TestTuitestStringsAreOnScreen(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	m := newSnapshotModel(t, snap, 200, 60, colorprofile.NoTTY)
	want := func(what string, screen string, texts ...string) {
		t.Helper()
		for _, text := range texts {
			if !strings.Contains(screen, text) {
				t.Errorf("%s: the screen lacks %q:\n%s", what, text, screen)
			}
		}
	}
	want("the table", screen(m), tuitest.HeatmapTitle, tuitest.ScanComplete, tuitest.EmulatorNote, tuitest.GCNote, tuitest.CelebrityFinding, tuitest.CelebrityPrefix)
	m.jump(tuitest.CelebrityPrefix, false)
	want("the user# view", screen(m), tuitest.CelebrityBucket)
	m.jump(tuitest.CelebrityPrefix, true)
	want("the celebrity", screen(m), tuitest.CelebrityCrumb)
	press(m, "f")
	want("the findings", screen(m), tuitest.FindingDetails, tuitest.FindingAdvice)
	press(m, "esc", "L")
	want("the largest rows", screen(m), tuitest.LargestRows)
	press(m, "/")
	want("the search", screen(m), tuitest.SearchPrompt)
	press(m, "esc")
	update(m, press(m, "s")())
	want("a screenshot", screen(m), tuitest.ScreenshotSaved)
	update(m, tea.WindowSizeMsg{Width: 70, Height: 20})
	want("a small terminal", screen(m), tuitest.TooSmall)

	rec := newBuilderRecording(snap.Scan.Started)
	readTheCelebrity(rec, snap.Table, 0, 10) // 160 reads of the celebrity: a read hotspot
	live := New(t.Context(), Config{Snapshot: snap, Source: session.NewRecordingSource(rec, session.NewSnapshotSource("x", snap)), Recording: rec, Profile: colorprofile.NoTTY})
	rt := newRuntime(t, live)
	rt.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	rt.send(liveMsg{table: snap.Table, traffic: rec.Snapshot(snap.Table), status: rec.Status()})
	want("the live view", screen(live), tuitest.LiveRecording, tuitest.TrafficHeatmap)
	rt.until(timeoutShort, "the read hotspot in the findings list", func() bool { return tuitest.ReadHotspotFinding(screen(live)) })
	live.jump(strings.TrimSuffix(tuitest.CelebrityPrefix, "#"), false)
	if share, ok := tuitest.SelectedOpsShare(screen(live)); !ok || share != 80 {
		t.Errorf("the celebrity's bucket: share of ops %v (read: %v), want the 80%% the recording sent there:\n%s", share, ok, screen(live))
	}

	for _, source := range []keyspace.HotTabletSource{keyspace.HotTabletsBigtable, keyspace.HotTabletsSimulated} {
		hot := newSnapshotModel(t, keyspace.WithHotTablets(snap, plantedHot(snap.Table, source)), 200, 60, colorprofile.NoTTY)
		for hot.current().state.Normalized(hot.levels[0].snap).Metric != heatmap.MetricCPU {
			press(hot, "m")
		}
		if source == keyspace.HotTabletsSimulated {
			want("the simulated cpu view", screen(hot), tuitest.SimulatedHeatmap, tuitest.SimulatedNote)
			continue
		}
		hrt := newRuntime(t, hot)
		hrt.run(hot.diagnose())
		hrt.until(timeoutShort, "the hot-tablet finding", func() bool { return strings.Contains(screen(hot), tuitest.HotTabletFinding+" ") })
		want("the cpu view", screen(hot), tuitest.CPUHeatmap, tuitest.HotTabletsNote, tuitest.HotTabletFinding)
	}

	stopped := snap.Clone()
	stopped.Scan.Complete, stopped.Scan.Incomplete = false, "cancelled by the user"
	want("a stopped scan", screen(newSnapshotModel(t, stopped, 200, 60, colorprofile.NoTTY)), tuitest.ScanIncomplete)

	p := newSnapshotModel(t, snap, 200, 60, colorprofile.NoTTY)
	p.pickerOpen = true
	update(p, tablesMsg{tables: []source.TableInfo{{Name: "a"}, {Name: "b", Loading: &source.LoadProgress{Table: "b", RowsTotal: 10}}}})
	want("a loading picker", screen(p), tuitest.PickerShown, tuitest.PickerLoading)
	update(p, tablesMsg{tables: []source.TableInfo{{Name: "a"}, {Name: "b"}}})
	want("a loaded picker", screen(p), tuitest.PickerListed, tuitest.PickerAllLoaded(2))
	press(p, "/")
	want("the picker's filter", screen(p), tuitest.PickerFilterPrompt)
}

// TestTuitestStringsAreAllChecked: every string tuitest exports for
// WaitFor is one TestTuitestStringsAreOnScreen looks for, as tuitest's
// Package doc says.
func TestTuitestStringsAreAllChecked(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filepath.Join("tuitest", "tmux.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	test, err := os.ReadFile("tuitest_strings_test.go")
	if err != nil {
		t.Fatal(err)
	}
	onScreen := string(test[:strings.Index(string(test), "func TestTuitestStringsAreAllChecked")])
	exported := 0
	for _, decl := range file.Decls {
		d, ok := decl.(*ast.GenDecl)
		if !ok || d.Tok != token.CONST {
			continue
		}
		for _, spec := range d.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				if !name.IsExported() || name.Name == "ExitMarker" { // the shell's, not the TUI's
					continue
				}
				exported++
				if !strings.Contains(onScreen, "tuitest."+name.Name) {
					t.Errorf("tuitest.%s is not looked for on screen by TestTuitestStringsAreOnScreen", name.Name)
				}
			}
		}
	}
	if exported < 20 {
		t.Fatalf("only %d exported strings found in tuitest/tmux.go", exported)
	}
}
