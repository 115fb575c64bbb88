package render

import (
	"fmt"
	"image/color"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/units"
	"github.com/charmbracelet/x/ansi"
)

// Palette is a sequential colour ramp from cold (0) to hot (1). The zero
// value is [Viridis].
type Palette struct {
	name  string
	stops []color.RGBA
	// basic is the ramp in the 16 ANSI colours, coldest first, for
	// terminals without 256 colours; the terminal's theme decides the
	// exact shades, so it only keeps the order of brightness.
	basic []ansi.BasicColor
}

// Palette names, stable for the command line.
const (
	PaletteViridis = "viridis"
	PaletteHeat    = "heat"
)

// PaletteNames returns the names [ParsePalette] accepts.
func PaletteNames() []string { return []string{PaletteViridis, PaletteHeat} }

// ParsePalette returns the palette named name. Its error lists the valid
// names and wraps [heatmap.ErrUnknownName].
func ParsePalette(name string) (Palette, error) {
	switch name {
	case PaletteViridis:
		return Viridis(), nil
	case PaletteHeat:
		return Heat(), nil
	}
	return Palette{}, fmt.Errorf("%w: palette %q; valid palettes are %s", heatmap.ErrUnknownName, name, units.OrList(PaletteNames()))
}

// Viridis returns the default palette: matplotlib's viridis, perceptually
// uniform, readable by colour-blind viewers and in greyscale, from dark
// blue-violet to yellow. It is interpolated from viridis's ten published
// control points (the 256-entry table sampled every 1/9).
func Viridis() Palette {
	return Palette{
		name: PaletteViridis,
		stops: []color.RGBA{
			rgb(0x44, 0x01, 0x54), rgb(0x48, 0x28, 0x78), rgb(0x3e, 0x4a, 0x89), rgb(0x31, 0x68, 0x8e), rgb(0x26, 0x82, 0x8e),
			rgb(0x1f, 0x9e, 0x89), rgb(0x35, 0xb7, 0x79), rgb(0x6d, 0xcd, 0x59), rgb(0xb4, 0xde, 0x2c), rgb(0xfd, 0xe7, 0x25),
		},
		basic: []ansi.BasicColor{ansi.Black, ansi.Blue, ansi.Magenta, ansi.Cyan, ansi.Green, ansi.BrightGreen, ansi.Yellow, ansi.BrightYellow},
	}
}

// Heat returns the high-contrast palette: black, red, yellow, white (the
// classic "hot" ramp), for projectors and reviewers who want hotspots to
// glare.
func Heat() Palette {
	return Palette{
		name: PaletteHeat,
		stops: []color.RGBA{
			rgb(0x00, 0x00, 0x00), rgb(0x5a, 0x00, 0x00), rgb(0xb4, 0x10, 0x00), rgb(0xf0, 0x50, 0x00),
			rgb(0xff, 0xa0, 0x00), rgb(0xff, 0xe0, 0x30), rgb(0xff, 0xff, 0xff),
		},
		basic: []ansi.BasicColor{ansi.Black, ansi.Red, ansi.BrightRed, ansi.Yellow, ansi.BrightYellow, ansi.BrightWhite},
	}
}

// Name returns the palette's name.
func (p Palette) Name() string { return p.orDefault().name }

func (p Palette) orDefault() Palette {
	if len(p.stops) == 0 {
		return Viridis()
	}
	return p
}

// At returns the colour at position t in [0, 1] (clamped), interpolated
// linearly between the two nearest control points.
func (p Palette) At(t float64) color.RGBA {
	p = p.orDefault()
	t = min(max(t, 0), 1)
	pos := t * float64(len(p.stops)-1)
	i := min(int(pos), len(p.stops)-2)
	f := pos - float64(i)
	a, b := p.stops[i], p.stops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*f + 0.5) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xff}
}

// minVisible is where on the ramp the smallest value above zero lands:
// any write at all is told apart from none, as in Key Visualizer.
const minVisible = 0.08

// Shade returns the ramp position for an intensity from
// [heatmap.Mapping.Intensity]: 0 stays 0, anything above starts at a visible
// step up.
func Shade(intensity float64) float64 {
	if intensity <= 0 {
		return 0
	}
	return minVisible + (1-minVisible)*min(intensity, 1)
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 0xff} }
