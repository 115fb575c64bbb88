package render

import (
	"testing"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/charmbracelet/colorprofile"
)

// BenchmarkHeatText_240x70 draws a full 240×70 truecolor frame.
func BenchmarkHeatText_240x70(b *testing.B) {
	snap := heatmaptest.BuildSnapshot(b, "celebrity", heatmaptest.CelebrityRows(), keyspace.Options{})
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.NoTTY} {
		o := TextOptions{Width: 240, Height: 70, Profile: p, Title: "celebrity", Selected: &Cell{Bucket: 3, Column: 40}}
		l := TextLayout(o, true)
		m, err := heatmap.Build(snap, heatmap.View{Rows: l.KeySamples, Columns: l.HeatWidth})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				HeatText(m, o)
			}
		})
	}
}
