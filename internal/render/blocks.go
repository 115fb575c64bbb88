package render

// eighth returns the pixel boundary k/8 of the way along a side of n pixels.
// Upper and lower (or left and right) partial blocks share these boundaries,
// so ▀ and ▄ split a cell exactly in two.
func eighth(k, n int) int {
	return (k*n + 4) / 8
}

// blockElement returns the shapes of a block element, U+2580–U+259F:
// partial blocks in eighths, the full block, shades (a solid rectangle whose
// coverage blends foreground over background) and quadrants.
func blockElement(r rune, w, h int) []shape {
	upper := func(k int) shape { return solid(0, 0, w, eighth(k, h)) }
	lower := func(k int) shape { return solid(0, eighth(8-k, h), w, h) }
	left := func(k int) shape { return solid(0, 0, eighth(k, w), h) }
	right := func(k int) shape { return solid(eighth(8-k, w), 0, w, h) }
	shade := func(coverage float64) shape {
		s := solid(0, 0, w, h)
		s.coverage = coverage
		return s
	}
	switch {
	case r == 0x2580: // ▀
		return []shape{upper(4)}
	case r >= 0x2581 && r <= 0x2588: // ▁ ▂ ▃ ▄ ▅ ▆ ▇ █
		return []shape{lower(int(r - 0x2580))}
	case r >= 0x2589 && r <= 0x258f: // ▉ ▊ ▋ ▌ ▍ ▎ ▏
		return []shape{left(int(0x2590 - r))}
	case r == 0x2590: // ▐
		return []shape{right(4)}
	case r == 0x2591: // ░
		return []shape{shade(lightShade)}
	case r == 0x2592: // ▒
		return []shape{shade(mediumShade)}
	case r == 0x2593: // ▓
		return []shape{shade(darkShade)}
	case r == 0x2594: // ▔
		return []shape{upper(1)}
	case r == 0x2595: // ▕
		return []shape{right(1)}
	}
	return quadrants(r, w, h)
}

// Quadrant bits for U+2596–U+259F.
const (
	quadUL = 1 << iota
	quadUR
	quadLL
	quadLR
)

// quadrantBits lists the filled quadrants of ▖ ▗ ▘ ▙ ▚ ▛ ▜ ▝ ▞ ▟ in order.
var quadrantBits = [...]uint8{
	quadLL,
	quadLR,
	quadUL,
	quadUL | quadLL | quadLR,
	quadUL | quadLR,
	quadUL | quadUR | quadLL,
	quadUL | quadUR | quadLR,
	quadUR,
	quadUR | quadLL,
	quadUR | quadLL | quadLR,
}

// quadrants returns the shapes of a quadrant block, U+2596–U+259F.
func quadrants(r rune, w, h int) []shape {
	i := int(r - 0x2596)
	if i < 0 || i >= len(quadrantBits) {
		return nil
	}
	bits := quadrantBits[i]
	midX, midY := eighth(4, w), eighth(4, h)
	var out []shape
	if bits&quadUL != 0 {
		out = append(out, solid(0, 0, midX, midY))
	}
	if bits&quadUR != 0 {
		out = append(out, solid(midX, 0, w, midY))
	}
	if bits&quadLL != 0 {
		out = append(out, solid(0, midY, midX, h))
	}
	if bits&quadLR != 0 {
		out = append(out, solid(midX, midY, w, h))
	}
	return out
}

// braille returns the dots of a braille pattern, U+2800–U+28FF: two
// columns of four dots, bit i of the code point's low byte being dot i+1 in
// the Unicode order (1-2-3 down the left, 4-5-6 down the right, then 7, 8).
func braille(r rune, w, h int) []shape {
	bits := int(r - 0x2800)
	// Dot positions (column, row) for bits 0–7.
	dots := [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
	size := max(1, min(w/4, h/8))
	var out []shape
	for bit, d := range dots {
		if bits&(1<<bit) == 0 {
			continue
		}
		cx := (2*d[0] + 1) * w / 4
		cy := (2*d[1] + 1) * h / 8
		x0, y0 := cx-size/2, cy-size/2
		out = append(out, solid(x0, y0, x0+size, y0+size))
	}
	return out
}
