package render

import (
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// glyphKey identifies one rasterized glyph mask.
type glyphKey struct {
	glyph string
	cells int
	attrs Attr // only Bold, Italic, Underline and Strikethrough matter
}

// maskAttrs are the attributes that change a glyph's mask.
const maskAttrs = Bold | Italic | Underline | Strikethrough

// glyphCache rasterizes glyphs into alpha masks of whole cells (255 where
// the foreground covers a pixel) and keeps them for the rest of one render.
type glyphCache struct {
	m     metrics
	tm    textMetrics
	fonts [4]*opentype.Font
	faces [4]font.Face
	buf   sfnt.Buffer
	masks map[glyphKey]*image.Alpha
}

// newGlyphCache prepares Go Mono at the scene's font size.
func newGlyphCache(m metrics) (*glyphCache, error) {
	fonts, err := goMono()
	if err != nil {
		return nil, err
	}
	faces, tm, err := newFaces(m)
	if err != nil {
		return nil, err
	}
	return &glyphCache{m: m, tm: tm, fonts: fonts, faces: faces, masks: map[glyphKey]*image.Alpha{}}, nil
}

// mask returns the mask of glyph over the given number of cells, with
// underline and strikethrough included.
func (gc *glyphCache) mask(glyph string, cells int, attrs Attr) *image.Alpha {
	key := glyphKey{glyph: glyph, cells: cells, attrs: attrs & maskAttrs}
	if m, ok := gc.masks[key]; ok {
		return m
	}
	w, h := cells*gc.m.cellW, gc.m.cellH
	var mask *image.Alpha
	if shapes, ok := drawnGlyph(glyph, w, h); ok {
		mask = rasterize(shapes, w, h)
	} else {
		mask = image.NewAlpha(image.Rect(0, 0, w, h))
		if !gc.drawText(mask, glyph, attrs) {
			if shapes, ok := symbolGlyph(glyph, w, h); ok {
				mask = rasterize(shapes, w, h)
			} else {
				gc.replacementBox(mask)
			}
		}
	}
	if attrs&Underline != 0 {
		fillMax(mask, image.Rect(0, gc.tm.underline, w, gc.tm.underline+gc.tm.decoration), 0xff)
	}
	if attrs&Strikethrough != 0 {
		fillMax(mask, image.Rect(0, gc.tm.strike, w, gc.tm.strike+gc.tm.decoration), 0xff)
	}
	gc.masks[key] = mask
	return mask
}

// drawText draws a grapheme cluster with Go Mono, centred in the mask, and
// reports whether the font has the cluster's first rune; if not, it draws
// nothing. Other runes the font lacks (combining marks) are left out.
func (gc *glyphCache) drawText(mask *image.Alpha, glyph string, attrs Attr) bool {
	if glyph == " " || glyph == "" {
		return true
	}
	variant := 0
	if attrs&Bold != 0 {
		variant |= styleBold
	}
	if attrs&Italic != 0 {
		variant |= styleItalic
	}
	face, f := gc.faces[variant], gc.fonts[variant]
	text := make([]rune, 0, len(glyph))
	for i, r := range glyph {
		if idx, err := f.GlyphIndex(&gc.buf, r); err != nil || idx == 0 {
			if i == 0 {
				return false
			}
			continue
		}
		text = append(text, r)
	}
	s := string(text)
	advance := font.MeasureString(face, s)
	x := (fixed.I(mask.Rect.Dx()) - advance) / 2
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.Point26_6{X: x, Y: fixed.I(gc.tm.baseline)}}
	d.DrawString(s)
	return true
}

// replacementBox draws the outline of a box that stands for a glyph the
// font lacks: visible, and clearly not a character of the frame.
func (gc *glyphCache) replacementBox(mask *image.Alpha) {
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	t := gc.tm.decoration
	x0, x1 := t, w-t
	y0, y1 := h/6, h-h/6
	if x1-x0 < 2*t || y1-y0 < 2*t {
		fillMax(mask, mask.Rect, 0x80)
		return
	}
	for _, r := range []image.Rectangle{
		image.Rect(x0, y0, x1, y0+t), image.Rect(x0, y1-t, x1, y1),
		image.Rect(x0, y0, x0+t, y1), image.Rect(x1-t, y0, x1, y1),
	} {
		fillMax(mask, r, 0xff)
	}
}
