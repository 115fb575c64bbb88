package render

import (
	"image"
	"image/color"
	"sort"
)

// colorRect is a rectangle and its colour.
type colorRect struct {
	rect image.Rectangle
	fill color.RGBA
}

// mergeRects joins rectangles of one colour that overlap or touch: first
// along rows (same top and bottom), then down columns (same left and
// right). A run of ─ becomes one rectangle, a │ one per cell.
func mergeRects(rects []colorRect) []colorRect {
	rects = mergeAlong(rects, func(r image.Rectangle) (int, int, int, int) {
		return r.Min.Y, r.Max.Y, r.Min.X, r.Max.X
	}, func(a, b int, r image.Rectangle) image.Rectangle {
		r.Min.X, r.Max.X = a, b
		return r
	})
	return mergeAlong(rects, func(r image.Rectangle) (int, int, int, int) {
		return r.Min.X, r.Max.X, r.Min.Y, r.Max.Y
	}, func(a, b int, r image.Rectangle) image.Rectangle {
		r.Min.Y, r.Max.Y = a, b
		return r
	})
}

// mergeAlong merges rectangles that share a colour and a cross extent
// (key returns cross start, cross end, then the extent along) where their
// extents along overlap or touch; set writes a merged extent back.
func mergeAlong(rects []colorRect, key func(image.Rectangle) (int, int, int, int), set func(lo, hi int, r image.Rectangle) image.Rectangle) []colorRect {
	sort.SliceStable(rects, func(i, j int) bool {
		a, b := rects[i], rects[j]
		if a.fill != b.fill {
			return colorLess(a.fill, b.fill)
		}
		a0, a1, a2, _ := key(a.rect)
		b0, b1, b2, _ := key(b.rect)
		if a0 != b0 {
			return a0 < b0
		}
		if a1 != b1 {
			return a1 < b1
		}
		return a2 < b2
	})
	var out []colorRect
	for _, r := range rects {
		if n := len(out); n > 0 && out[n-1].fill == r.fill {
			p0, p1, plo, phi := key(out[n-1].rect)
			q0, q1, qlo, qhi := key(r.rect)
			if p0 == q0 && p1 == q1 && qlo <= phi {
				out[n-1].rect = set(plo, max(phi, qhi), out[n-1].rect)
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// colorLess orders colours for sorting.
func colorLess(a, b color.RGBA) bool {
	if a.R != b.R {
		return a.R < b.R
	}
	if a.G != b.G {
		return a.G < b.G
	}
	return a.B < b.B
}
