package render

import "math"

// weight is the kind of line on one arm of a box-drawing glyph.
type weight uint8

const (
	noLine weight = iota
	lightLine
	heavyLine
	doubleLine
)

// Arm directions, indexes into [boxArms].
const (
	armUp = iota
	armRight
	armDown
	armLeft
)

// boxArms describes the arms of U+2500–U+257F, four characters per glyph in
// the order up, right, down, left: '.' none, 'l' light, 'h' heavy, 'd'
// double. Dashed lines, arcs and diagonals are listed by their plain arms
// and drawn specially (see [boxDrawing]).
const boxArms = "" +
	".l.l.h.hl.l.h.h." + // ─ ━ │ ┃
	".l.l.h.hl.l.h.h." + // ┄ ┅ ┆ ┇
	".l.l.h.hl.l.h.h." + // ┈ ┉ ┊ ┋
	".ll..hl..lh..hh." + // ┌ ┍ ┎ ┏
	"..ll..lh..hl..hh" + // ┐ ┑ ┒ ┓
	"ll..lh..hl..hh.." + // └ ┕ ┖ ┗
	"l..ll..hh..lh..h" + // ┘ ┙ ┚ ┛
	"lll.lhl.hll.llh." + // ├ ┝ ┞ ┟
	"hlh.hhl.lhh.hhh." + // ┠ ┡ ┢ ┣
	"l.lll.lhh.lll.hl" + // ┤ ┥ ┦ ┧
	"h.hlh.lhl.hhh.hh" + // ┨ ┩ ┪ ┫
	".lll.llh.hll.hlh" + // ┬ ┭ ┮ ┯
	".lhl.lhh.hhl.hhh" + // ┰ ┱ ┲ ┳
	"ll.lll.hlh.llh.h" + // ┴ ┵ ┶ ┷
	"hl.lhl.hhh.lhh.h" + // ┸ ┹ ┺ ┻
	"lllllllhlhlllhlh" + // ┼ ┽ ┾ ┿
	"hlllllhlhlhlhllh" + // ╀ ╁ ╂ ╃
	"hhllllhhlhhlhhlh" + // ╄ ╅ ╆ ╇
	"lhhhhlhhhhhlhhhh" + // ╈ ╉ ╊ ╋
	".l.l.h.hl.l.h.h." + // ╌ ╍ ╎ ╏
	".d.dd.d..dl..ld." + // ═ ║ ╒ ╓
	".dd...ld..dl..dd" + // ╔ ╕ ╖ ╗
	"ld..dl..dd..l..d" + // ╘ ╙ ╚ ╛
	"d..ld..dldl.dld." + // ╜ ╝ ╞ ╟
	"ddd.l.ldd.dld.dd" + // ╠ ╡ ╢ ╣
	".dld.ldl.dddld.d" + // ╤ ╥ ╦ ╧
	"dl.ldd.dldlddldl" + // ╨ ╩ ╪ ╫
	"dddd.ll...lll..l" + // ╬ ╭ ╮ ╯
	"ll.............." + // ╰ ╱ ╲ ╳
	"...ll....l....l." + // ╴ ╵ ╶ ╷
	"...hh....h....h." + // ╸ ╹ ╺ ╻
	".h.ll.h..l.hh.l." // ╼ ╽ ╾ ╿

// arms returns the four arm weights of a box-drawing glyph.
func arms(r rune) [4]weight {
	var out [4]weight
	i := int(r-0x2500) * 4
	if i < 0 || i+4 > len(boxArms) {
		return out
	}
	for d := range out {
		switch boxArms[i+d] {
		case 'l':
			out[d] = lightLine
		case 'h':
			out[d] = heavyLine
		case 'd':
			out[d] = doubleLine
		}
	}
	return out
}

// dashCount returns how many dashes a dashed box-drawing line has per cell,
// or 0 for a solid line.
func dashCount(r rune) int {
	switch {
	case r >= 0x2504 && r <= 0x2507:
		return 3
	case r >= 0x2508 && r <= 0x250b:
		return 4
	case r >= 0x254c && r <= 0x254f:
		return 2
	}
	return 0
}

// boxDrawing returns the shapes of a box-drawing glyph, U+2500–U+257F, in a
// w×h px cell. Lines run through the cell's centre at the same offsets in
// every cell, so that neighbours join without gaps.
func boxDrawing(r rune, w, h int) []shape {
	b := boxGeometry{w: w, h: h, t: lineWidth(w, h), arms: arms(r)}
	switch {
	case r >= 0x256d && r <= 0x2570:
		return b.arc(r)
	case r >= 0x2571 && r <= 0x2573:
		return b.diagonals(r)
	case dashCount(r) > 0:
		return b.dashed(dashCount(r))
	}
	var out []shape
	for d, wt := range b.arms {
		if wt != noLine {
			out = append(out, b.arm(d)...)
		}
	}
	return out
}

// boxGeometry lays out the lines of one box-drawing glyph.
type boxGeometry struct {
	w, h int       // cell size in pixels
	t    int       // light line thickness
	arms [4]weight // weights of the up, right, down and left arms
}

// band is one line's extent across its direction: [off, off+size).
type band struct{ off, size int }

// bands returns the lines of an arm of weight wt across a span of n pixels:
// one centred band for light and heavy, two thin ones for double.
func (b boxGeometry) bands(wt weight, n int) []band {
	switch wt {
	case lightLine:
		return []band{{(n - b.t) / 2, b.t}}
	case heavyLine:
		return []band{{(n - 3*b.t) / 2, 3 * b.t}}
	case doubleLine:
		off := (n - 3*b.t) / 2
		return []band{{off, b.t}, {off + 2*b.t, b.t}}
	}
	return nil
}

// horizontal reports whether direction d is left or right.
func horizontal(d int) bool { return d == armLeft || d == armRight }

// arm returns the rectangles of the arm in direction d. Each of its lines
// runs from the cell edge towards the centre and stops where it meets the
// perpendicular lines: on the near line of a perpendicular arm on its own
// side (an inner corner), through the centre if the opposite arm exists,
// else on the far line of a perpendicular arm on the other side (an outer
// corner), else at the centre.
func (b boxGeometry) arm(d int) []shape {
	along, across := b.h, b.w // extent along the arm, and across it
	sides := [2]int{armLeft, armRight}
	if horizontal(d) {
		along, across = b.w, b.h
		sides = [2]int{armUp, armDown}
	}
	towardsEnd := d == armRight || d == armDown // the arm's edge is at `along`
	opposite := (d + 2) % 4
	lines := b.bands(b.arms[d], across)
	var out []shape
	for i, line := range lines {
		var stop int
		switch {
		case len(lines) == 1 && b.arms[opposite] != noLine:
			stop = b.centre(along, line.size, towardsEnd)
		case len(lines) == 1:
			perp := append(b.bands(b.arms[sides[0]], along), b.bands(b.arms[sides[1]], along)...)
			near := b.arms[sides[0]] != noLine && b.arms[sides[1]] != noLine
			stop = b.meet(perp, near, towardsEnd, along, line.size)
		case b.arms[sides[i]] != noLine:
			stop = b.meet(b.bands(b.arms[sides[i]], along), true, towardsEnd, along, line.size)
		case b.arms[opposite] != noLine:
			stop = b.centre(along, line.size, towardsEnd)
		default:
			stop = b.meet(b.bands(b.arms[sides[1-i]], along), false, towardsEnd, along, line.size)
		}
		lo, hi := 0, stop
		if towardsEnd {
			lo, hi = stop, along
		}
		if horizontal(d) {
			out = append(out, solid(lo, line.off, hi, line.off+line.size))
		} else {
			out = append(out, solid(line.off, lo, line.off+line.size, hi))
		}
	}
	return out
}

// centre returns where a line of the given size stops at the cell's centre.
func (b boxGeometry) centre(along, size int, towardsEnd bool) int {
	start := (along - size) / 2
	if towardsEnd {
		return start
	}
	return start + size
}

// meet returns where a line stops on one of the perpendicular lines perp:
// the one nearest the arm's edge (near) or the farthest, covering it. With
// no perpendicular lines it stops at the centre.
func (b boxGeometry) meet(perp []band, near, towardsEnd bool, along, size int) int {
	if len(perp) == 0 {
		return b.centre(along, size, towardsEnd)
	}
	lowest, highest := perp[0], perp[0]
	for _, p := range perp[1:] {
		if p.off < lowest.off {
			lowest = p
		}
		if p.off > highest.off {
			highest = p
		}
	}
	if towardsEnd == near {
		// Right/down arm meeting its nearest line, or left/up arm meeting
		// its farthest: the line with the highest offset.
		if towardsEnd {
			return highest.off
		}
		return highest.off + highest.size
	}
	if towardsEnd {
		return lowest.off
	}
	return lowest.off + lowest.size
}

// dashed returns a straight light or heavy line broken into n dashes per
// cell, each followed by an equal share of the gap.
func (b boxGeometry) dashed(n int) []shape {
	d := armRight
	if b.arms[armRight] == noLine {
		d = armDown
	}
	along, across := b.h, b.w
	if horizontal(d) {
		along, across = b.w, b.h
	}
	line := b.bands(b.arms[d], across)[0]
	var out []shape
	for i := range n {
		lo, hi := i*along/n, (i+1)*along/n
		gap := max(1, (hi-lo)/3)
		lo += gap / 2
		hi -= gap - gap/2
		if hi <= lo {
			continue
		}
		if horizontal(d) {
			out = append(out, solid(lo, line.off, hi, line.off+line.size))
		} else {
			out = append(out, solid(line.off, lo, line.off+line.size, hi))
		}
	}
	return out
}

// arcSegments is how many straight pieces approximate a rounded corner.
const arcSegments = 12

// arc returns a rounded corner ╭ ╮ ╯ ╰: a quarter circle joining the two
// arms' light lines, plus straight pieces out to the cell edges.
func (b boxGeometry) arc(r rune) []shape {
	x0 := (b.w - b.t) / 2
	y0 := (b.h - b.t) / 2
	half := float64(b.t) / 2
	cx, cy := float64(x0)+half, float64(y0)+half
	radius := math.Min(math.Min(cx, float64(b.w)-cx), math.Min(cy, float64(b.h)-cy))
	// Centre of curvature and the arc's start angle (y grows downwards).
	var ox, oy, from float64
	switch r {
	case 0x256d: // ╭ down and right
		ox, oy, from = cx+radius, cy+radius, math.Pi
	case 0x256e: // ╮ down and left
		ox, oy, from = cx-radius, cy+radius, 1.5*math.Pi
	case 0x256f: // ╯ up and left
		ox, oy, from = cx-radius, cy-radius, 0
	default: // ╰ up and right
		ox, oy, from = cx+radius, cy-radius, 0.5*math.Pi
	}
	ring := make([]point, 0, 2*(arcSegments+1))
	for _, rad := range []float64{radius + half, radius - half} {
		for i := range arcSegments + 1 {
			step := i
			if rad < radius {
				step = arcSegments - i // inner edge back the other way
			}
			a := from + float64(step)/arcSegments*math.Pi/2
			ring = append(ring, point{float32(ox + rad*math.Cos(a)), float32(oy + rad*math.Sin(a))})
		}
	}
	out := []shape{polygon(ring...)}
	// Straight pieces from where the arc ends to the cell edges.
	xl, xr := int(math.Round(ox)), b.w
	if ox < cx {
		xl, xr = 0, int(math.Round(ox))
	}
	yt, yb := int(math.Round(oy)), b.h
	if oy < cy {
		yt, yb = 0, int(math.Round(oy))
	}
	if xl < xr {
		out = append(out, solid(xl, y0, xr, y0+b.t))
	}
	if yt < yb {
		out = append(out, solid(x0, yt, x0+b.t, yb))
	}
	return out
}

// diagonals returns ╱ ╲ or ╳: lines from corner to corner of the cell, as
// thick as a light line measured across the line.
func (b boxGeometry) diagonals(r rune) []shape {
	w, h := float32(b.w), float32(b.h)
	// Horizontal extent of a line of thickness t at this slope.
	dx := float32(float64(b.t) * math.Hypot(float64(b.w), float64(b.h)) / float64(b.h))
	rising := polygon(point{w - dx, 0}, point{w, 0}, point{dx, h}, point{0, h})
	falling := polygon(point{0, 0}, point{dx, 0}, point{w, h}, point{w - dx, h})
	switch r {
	case 0x2571:
		return []shape{rising}
	case 0x2572:
		return []shape{falling}
	}
	return []shape{rising, falling}
}
