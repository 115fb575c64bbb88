package render

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
)

// goldenFrame is one text rendering kept as a golden file.
type goldenFrame struct {
	name          string
	width, height int
	profile       colorprofile.Profile
	dark          bool
}

// goldenFrames are the sizes, profiles and themes every snapshot is drawn
// in: the TUI's smallest useful size and a large terminal, with and
// without colour, dark and light.
func goldenFrames() []goldenFrame {
	return []goldenFrame{
		{"80x24-truecolor-dark", 80, 24, colorprofile.TrueColor, true},
		{"80x24-truecolor-light", 80, 24, colorprofile.TrueColor, false},
		{"80x24-nocolor", 80, 24, colorprofile.NoTTY, true},
		{"240x70-nocolor", 240, 70, colorprofile.NoTTY, true},
	}
}

// goldenView is one view of a snapshot drawn in every golden frame;
// large frames are drawn only for views marked large.
type goldenView struct {
	name  string
	view  heatmap.View
	scale heatmap.Scale
}

func renderGolden(t *testing.T, snap *keyspace.Snapshot, views []goldenView, frames []goldenFrame) {
	t.Helper()
	for _, gv := range views {
		for _, f := range frames {
			t.Run(gv.name+"/"+f.name, func(t *testing.T) {
				o := TextOptions{Width: f.width, Height: f.height, Profile: f.profile, Theme: NewTheme(f.dark), Scale: gv.scale,
					Title: fmt.Sprintf("%s · %s · %s", snap.Table, gv.view.Metric, gv.view.Bucketing)}
				l := TextLayout(o, gv.view.Metric.Timed())
				v := gv.view
				v.Rows, v.Columns = l.KeySamples, l.HeatWidth
				out := HeatText(mustBuild(t, snap, v), o)
				assertFrame(t, out, f.width, f.height, "golden")
				golden.RequireEqual(t, out)
			})
		}
	}
}

func TestGoldenText(t *testing.T) {
	writes := goldenView{name: "writes-even", view: heatmap.View{Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketEven}}
	extra := map[string][]goldenView{
		"celebrity": {{name: "writes-heat", view: heatmap.View{Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketHeat}}},
		"large-row": {{name: "max-row-heat", view: heatmap.View{Metric: heatmap.MetricMaxRow, Bucketing: heatmap.BucketHeat}}},
		"hashed":    {{name: "rows-tablets-log", view: heatmap.View{Metric: heatmap.MetricRows, Bucketing: heatmap.BucketTablets}, scale: heatmap.Scale{Kind: heatmap.ScaleLog}}},
	}
	for _, s := range heatmaptest.Scenarios() {
		t.Run(s.Name, func(t *testing.T) {
			snap := heatmaptest.BuildSnapshot(t, s.Name, s.Rows(), keyspace.Options{})
			renderGolden(t, snap, append([]goldenView{writes}, extra[s.Name]...), goldenFrames())
		})
	}
	t.Run("timestamp-first-large", func(t *testing.T) {
		snap := heatmaptest.ScenarioSnapshot(t, "timestamp-first")
		renderGolden(t, snap, []goldenView{writes}, []goldenFrame{
			{"240x70-truecolor-dark", 240, 70, colorprofile.TrueColor, true},
			{"120x40-ansi256-dark", 120, 40, colorprofile.ANSI256, true},
			{"100x30-ansi-light", 100, 30, colorprofile.ANSI, false},
		})
	})
}

// realSnapshots are snapshot files the real sampler made of the demo
// scenarios on the emulator, under the repository's testdata. Adding one
// is one line; a missing file is skipped.
func realSnapshots() []string {
	return []string{}
}

func TestGoldenTextOfRealSnapshots(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "snapshots")
	for _, name := range realSnapshots() {
		t.Run(name, func(t *testing.T) {
			snap, err := keyspace.Load(filepath.Join(dir, name))
			if errors.Is(err, fs.ErrNotExist) {
				t.Skipf("no %s yet", name)
			}
			if err != nil {
				t.Fatal(err)
			}
			renderGolden(t, snap, []goldenView{
				{name: "writes-even", view: heatmap.View{Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketEven}},
				{name: "writes-heat", view: heatmap.View{Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketHeat}},
			}, goldenFrames())
		})
	}
}
