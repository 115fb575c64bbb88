package render

import (
	"image/color"
	"strconv"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Ramp sizes per profile: how many distinct non-zero shades a terminal
// cell can take.
const (
	trueColorShades = 96
	ansi256Shades   = 32
)

// shadeLevels is the number of levels drawn without colour, by
// [shadeChar]: none, then four steps up.
const shadeLevels = 5

// shadeChar returns the character for a level of a ramp without colour.
func shadeChar(level int) string {
	switch level {
	case 0:
		return " "
	case 1:
		return "░"
	case 2:
		return "▒"
	case 3:
		return "▓"
	}
	return "█"
}

// cellRamp quantizes intensities to what one colour profile can show:
// SGR colour parameters per level, or shade characters without colour.
// Level 0 is the value 0; levels 1… are the ramp from its first visible
// step to its top.
type cellRamp struct {
	colored bool
	fg, bg  []string
	colors  []color.Color // level colours, for the legend
}

func newCellRamp(p Palette, profile colorprofile.Profile) cellRamp {
	p = p.orDefault()
	switch {
	case profile <= colorprofile.ASCII:
		return cellRamp{}
	case profile == colorprofile.ANSI:
		r := cellRamp{colored: true}
		for _, c := range p.basic {
			r.add(c, basicSGR(c, 30), basicSGR(c, 40))
		}
		return r
	}
	shades := trueColorShades
	if profile == colorprofile.ANSI256 {
		shades = ansi256Shades
	}
	r := cellRamp{colored: true}
	for k := 0; k <= shades; k++ {
		pos := 0.0
		if k > 0 {
			pos = minVisible + (1-minVisible)*float64(k-1)/float64(shades-1)
		}
		c := p.At(pos)
		if profile == colorprofile.ANSI256 {
			idx := ansi.Convert256(c)
			n := strconv.Itoa(int(idx))
			r.add(idx, "38;5;"+n, "48;5;"+n)
			continue
		}
		rgb := strconv.Itoa(int(c.R)) + ";" + strconv.Itoa(int(c.G)) + ";" + strconv.Itoa(int(c.B))
		r.add(c, "38;2;"+rgb, "48;2;"+rgb)
	}
	return r
}

func (r *cellRamp) add(c color.Color, fg, bg string) {
	r.colors = append(r.colors, c)
	r.fg = append(r.fg, fg)
	r.bg = append(r.bg, bg)
}

// basicSGR returns the SGR parameter of a 16-colour c, with base 30 for
// the foreground and 40 for the background.
func basicSGR(c ansi.BasicColor, base int) string {
	if c < 8 {
		return strconv.Itoa(base + int(c))
	}
	return strconv.Itoa(base + 60 + int(c) - 8)
}

// levels returns how many levels the ramp has, 0 included.
func (r cellRamp) levels() int {
	if !r.colored {
		return shadeLevels
	}
	return len(r.fg)
}

// level returns the ramp level of an intensity in [0, 1].
func (r cellRamp) level(intensity float64) int {
	if intensity <= 0 {
		return 0
	}
	steps := r.levels() - 1
	return 1 + min(int(intensity*float64(steps)), steps-1)
}
