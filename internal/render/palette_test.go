package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/units"
)

func TestPalettesRunFromDarkToBright(t *testing.T) {
	luminance := func(p Palette, t float64) float64 {
		c := p.At(t)
		return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	}
	for _, p := range []Palette{Viridis(), Heat(), {}} {
		prev := -1.0
		for i := 0; i <= 50; i++ {
			l := luminance(p, float64(i)/50)
			if l+1 < prev { // monotone up to rounding
				t.Fatalf("%s gets darker at %v", p.Name(), float64(i)/50)
			}
			prev = l
		}
	}
	if c := Viridis().At(0); c.R != 0x44 || c.G != 0x01 || c.B != 0x54 {
		t.Fatalf("viridis starts at #440154, got %v", c)
	}
}

func TestShadesKeepZeroAndShowAnyValue(t *testing.T) {
	if Shade(0) != 0 || Shade(1e-9) < minVisible || Shade(1) != 1 {
		t.Fatal("shades: zero stays zero, any value is visible, the top is the top")
	}
}

func TestParsePaletteListsTheValidNames(t *testing.T) {
	valid := []string{"viridis", "heat"}
	for _, name := range valid {
		if _, err := ParsePalette(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	_, err := ParsePalette("bogus")
	if !errors.Is(err, heatmap.ErrUnknownName) || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), units.OrList(valid)) {
		t.Errorf("error %v should name the input and list %v", err, valid)
	}
}
