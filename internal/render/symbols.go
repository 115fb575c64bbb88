package render

import "math"

// symbolGlyph returns shapes for a few symbols that TUIs use for status and
// selection but Go Mono lacks: ✓ ✔ ✗ ✘ ▶ ◀ ▸ ◂ ▴ ▾ ◆ ⋯ ⚠. The PNG draws
// these instead of a replacement box; the SVG leaves them to the viewer's
// fonts. Shapes are in a w×h px cell, centred on the font's x-height band.
func symbolGlyph(glyph string, w, h int) ([]shape, bool) {
	fw, fh := float32(w), float32(h)
	// The symbol box: the cell's width, a square-ish band around the middle.
	side := min(fw, fh*0.6)
	x0, x1 := (fw-side)/2, (fw+side)/2
	y0, y1 := fh*0.5-side/2, fh*0.5+side/2
	cx, cy := fw/2, fh*0.5
	stroke := float32(lineWidth(w, h)) * 1.5
	switch glyph {
	case "✓", "✔":
		t := stroke
		if glyph == "✔" {
			t *= 1.6
		}
		return []shape{
			thickLine(point{x0, cy}, point{cx - side*0.1, y1}, t),
			thickLine(point{cx - side*0.1, y1}, point{x1, y0}, t),
		}, true
	case "✗", "✘":
		t := stroke
		if glyph == "✘" {
			t *= 1.6
		}
		return []shape{
			thickLine(point{x0, y0}, point{x1, y1}, t),
			thickLine(point{x1, y0}, point{x0, y1}, t),
		}, true
	case "▶":
		return []shape{polygon(point{x0, y0}, point{x1, cy}, point{x0, y1})}, true
	case "◀":
		return []shape{polygon(point{x1, y0}, point{x0, cy}, point{x1, y1})}, true
	case "▸":
		return []shape{polygon(point{x0 + side*0.2, y0 + side*0.2}, point{x1 - side*0.1, cy}, point{x0 + side*0.2, y1 - side*0.2})}, true
	case "◂":
		return []shape{polygon(point{x1 - side*0.2, y0 + side*0.2}, point{x0 + side*0.1, cy}, point{x1 - side*0.2, y1 - side*0.2})}, true
	case "▴":
		return []shape{polygon(point{x0 + side*0.2, y1 - side*0.2}, point{cx, y0 + side*0.1}, point{x1 - side*0.2, y1 - side*0.2})}, true
	case "▾":
		return []shape{polygon(point{x0 + side*0.2, y0 + side*0.2}, point{cx, y1 - side*0.1}, point{x1 - side*0.2, y0 + side*0.2})}, true
	case "◆":
		return []shape{polygon(point{cx, y0}, point{x1, cy}, point{cx, y1}, point{x0, cy})}, true
	case "⋯":
		dot := max(1, side/5)
		var out []shape
		for _, x := range []float32{fw / 6, fw / 2, fw * 5 / 6} {
			out = append(out, polygon(point{x - dot/2, cy - dot/2}, point{x + dot/2, cy - dot/2}, point{x + dot/2, cy + dot/2}, point{x - dot/2, cy + dot/2}))
		}
		return out, true
	case "⚠":
		// A filled triangle with the exclamation mark cut out.
		top, bottom := fh*0.5-fw*0.5, fh*0.5+fw*0.45
		bar := max(1, fw/7)
		return []shape{
			polygon(point{cx, top}, point{fw, bottom}, point{0, bottom}),
			{poly: []point{{cx - bar/2, top + fw*0.35}, {cx + bar/2, top + fw*0.35}, {cx + bar/2, bottom - fw*0.35}, {cx - bar/2, bottom - fw*0.35}}, erase: true},
			{poly: []point{{cx - bar/2, bottom - fw*0.25}, {cx + bar/2, bottom - fw*0.25}, {cx + bar/2, bottom - fw*0.12}, {cx - bar/2, bottom - fw*0.12}}, erase: true},
		}, true
	}
	return nil, false
}

// thickLine returns a line from a to b, t px thick, as a polygon.
func thickLine(a, b point, t float32) shape {
	dx, dy := b.x-a.x, b.y-a.y
	length := float32(math.Hypot(float64(dx), float64(dy)))
	if length == 0 {
		return shape{}
	}
	nx, ny := -dy/length*t/2, dx/length*t/2
	return polygon(point{a.x + nx, a.y + ny}, point{b.x + nx, b.y + ny}, point{b.x - nx, b.y - ny}, point{a.x - nx, a.y - ny})
}
