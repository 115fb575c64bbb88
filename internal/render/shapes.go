package render

import (
	"image"
	"unicode/utf8"

	"golang.org/x/image/vector"
)

// shape is one filled region of a glyph that btviz draws itself rather than
// taking from the font, in pixels relative to the cell's top-left corner.
// Both renderers use the same shapes, so the SVG and the PNG agree.
type shape struct {
	// rect is the filled rectangle when poly is nil.
	rect image.Rectangle
	// poly is a closed polygon, filled with anti-aliasing.
	poly []point
	// coverage is the share of the foreground colour over the background:
	// 1 for solid shapes, less for the shades ░ ▒ ▓.
	coverage float64
	// erase cuts the polygon out of the shapes before it instead of
	// filling it (for the "!" in ⚠).
	erase bool
}

// point is a polygon vertex in pixels.
type point struct{ x, y float32 }

// solid returns a fully covered rectangle shape.
func solid(x0, y0, x1, y1 int) shape {
	return shape{rect: image.Rect(x0, y0, x1, y1), coverage: 1}
}

// polygon returns a fully covered polygon shape.
func polygon(pts ...point) shape {
	return shape{poly: pts, coverage: 1}
}

// drawnGlyph returns the shapes of glyph in a w×h px cell area if it is one
// btviz draws itself (see [isDrawn]).
func drawnGlyph(glyph string, w, h int) ([]shape, bool) {
	if !isDrawn(glyph) || w <= 0 || h <= 0 {
		return nil, false
	}
	switch r, _ := utf8.DecodeRuneInString(glyph); {
	case r <= 0x257f:
		return boxDrawing(r, w, h), true
	case r <= 0x259f:
		return blockElement(r, w, h), true
	default:
		return braille(r, w, h), true
	}
}

// isDrawn reports whether glyph is one that btviz draws as shapes rather
// than taking from the font: box drawing (U+2500–U+257F), block elements
// (U+2580–U+259F) and braille patterns (U+2800–U+28FF). Fonts rarely cover
// these, and drawn shapes meet their neighbours without gaps.
func isDrawn(glyph string) bool {
	r, size := utf8.DecodeRuneInString(glyph)
	return size == len(glyph) && (r >= 0x2500 && r <= 0x259f || r >= 0x2800 && r <= 0x28ff)
}

// lineWidth is the thickness of a light box-drawing line in a w×h px cell;
// heavy lines and double-line pairs are three times as thick.
func lineWidth(w, h int) int {
	return max(1, min((w+4)/9, (h+8)/18))
}

// rasterize draws shapes into a w×h alpha mask, 255 where the foreground
// covers the cell fully.
func rasterize(shapes []shape, w, h int) *image.Alpha {
	mask := image.NewAlpha(image.Rect(0, 0, w, h))
	var z *vector.Rasterizer
	for _, s := range shapes {
		if s.poly == nil {
			fillMax(mask, s.rect, uint8(s.coverage*255+0.5))
			continue
		}
		if len(s.poly) < 3 {
			continue
		}
		if z == nil {
			z = vector.NewRasterizer(w, h)
		} else {
			z.Reset(w, h)
		}
		z.MoveTo(s.poly[0].x, s.poly[0].y)
		for _, p := range s.poly[1:] {
			z.LineTo(p.x, p.y)
		}
		z.ClosePath()
		if !s.erase {
			z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
			continue
		}
		cut := image.NewAlpha(mask.Rect)
		z.Draw(cut, cut.Bounds(), image.Opaque, image.Point{})
		for i, a := range cut.Pix {
			mask.Pix[i] = uint8(uint32(mask.Pix[i]) * (255 - uint32(a)) / 255)
		}
	}
	return mask
}

// fillMax raises the mask to at least a inside r.
func fillMax(mask *image.Alpha, r image.Rectangle, a uint8) {
	r = r.Intersect(mask.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := mask.Pix[mask.PixOffset(r.Min.X, y):mask.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = max(row[i], a)
		}
	}
}
