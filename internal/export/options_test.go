package export

import (
	"reflect"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/view"
)

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(Flags{Out: "shots/Celebrity.PNG", View: "findings", Prefix: `user#\x00a`, Metric: "bytes", Bucketing: "tablets",
		Scale: "log", Palette: "heat", Size: " 120 × 40 ", Theme: "Light"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Format: artifact.FormatPNG, View: view.PaneFindings, Prefix: "user#\x00a", Metric: heatmap.MetricBytes,
		Bucketing: heatmap.BucketTablets, Scale: heatmap.ScaleLog, Palette: render.Heat(), Width: 120, Height: 40, Light: true}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("ParseOptions = %+v, want %+v", o, want)
	}
	o, err = ParseOptions(Flags{Out: "a.txt"})
	if err != nil || o.Width != DefaultWidth || o.Height != DefaultHeight || o.Format != artifact.FormatText || o.Light || o.View != view.PaneHeatmap {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

func TestParseOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		flags Flags
		want  []string
	}{
		{Flags{}, []string{"--out is required", artifact.ExtensionList(artifact.Formats())}},
		{Flags{Out: "shot.jpg"}, []string{"--out", `".jpg"`, artifact.ExtensionList(artifact.Formats())}},
		{Flags{Out: "shot"}, []string{"no extension", artifact.ExtensionList(artifact.Formats())}},
		{Flags{Out: "a.png", View: "graph"}, []string{"--view", `"graph"`, view.PaneNames()}},
		{Flags{Out: "a.png", Metric: "iops"}, []string{"--metric", `"iops"`, "writes, rows, bytes", "ops, reads"}},
		{Flags{Out: "a.png", Bucketing: "random"}, []string{"--bucketing", "prefix, even, heat or tablets"}},
		{Flags{Out: "a.png", Theme: "solarized"}, []string{"--theme", "auto, dark or light"}},
		{Flags{Out: "a.png", Scale: "sqrt"}, []string{"--scale", "linear or log"}},
		{Flags{Out: "a.png", Palette: "jet"}, []string{"--palette", "viridis or heat"}},
		{Flags{Out: "a.png", Prefix: `bad\x4`}, []string{"--prefix", `\xNN`}},
		{Flags{Out: "a.png", Size: "wide"}, []string{"--size", "WIDTHxHEIGHT", "200x60"}},
		{Flags{Out: "a.png", Size: "79x24"}, []string{"--size", "at least 80x24"}},
		{Flags{Out: "a.png", Size: "80x23"}, []string{"--size", "at least 80x24"}},
		{Flags{Out: "a.svg", Size: "1001x100"}, []string{"--size", "at most 1000x499"}},
		{Flags{Out: "a.png", Size: "1000x499"}, []string{"--size", "megapixels", ".svg"}},
	} {
		_, err := ParseOptions(tc.flags)
		if err == nil {
			t.Errorf("%+v: no error", tc.flags)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%+v: error %q lacks %q", tc.flags, err, want)
			}
		}
	}
	if _, err := ParseOptions(Flags{Out: "a.svg", Size: "1000x499"}); err != nil {
		t.Errorf("the largest SVG is refused: %v", err)
	}
}
