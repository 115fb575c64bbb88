package render

import (
	"fmt"
	"image"
	"image/color"
	"io"
)

// FramePNG writes the frame as a PNG screenshot. The size and layout are those
// documented on [FrameOptions]; text is Go Mono, anti-aliased on each cell's
// background, and box drawing, block elements and braille are drawn as
// shapes. Glyphs Go Mono lacks appear as an outlined box.
func FramePNG(w io.Writer, frame string, opt FrameOptions) error {
	img, err := FrameImage(frame, opt)
	if err != nil {
		return err
	}
	return encodePNG(w, img)
}

// FrameImage renders the frame into an RGBA image, as [FramePNG] encodes it.
func FrameImage(frame string, opt FrameOptions) (*image.RGBA, error) {
	sc, err := newScene(frame, opt)
	if err != nil {
		return nil, err
	}
	if px := sc.size.X * sc.size.Y; px > MaxPixels {
		return nil, fmt.Errorf("screenshot: a %d×%d px image exceeds %d pixels; lower Options.Scale or crop with Options.Columns and Options.Rows", sc.size.X, sc.size.Y, MaxPixels)
	}
	glyphs, err := newGlyphCache(sc.m)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rectangle{Max: sc.size})
	if sc.m.pad > 0 {
		// The cells cover the grid; only the padding needs the page colour.
		fillRect(img, img.Rect, toRGBA(sc.theme.Background))
	}
	for y, row := range sc.rows {
		for _, p := range row {
			r := sc.cellRect(y, p)
			if p.glyph == " " && p.attrs&(Underline|Strikethrough) == 0 {
				fillRect(img, r, p.bg)
				continue
			}
			composite(img, r, glyphs.mask(p.glyph, p.cells, p.attrs), p.fg, p.bg)
		}
	}
	return img, nil
}

// fillRect paints r (clipped to the image) in c.
func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	if r.Empty() {
		return
	}
	first := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):img.PixOffset(r.Max.X, r.Min.Y)]
	for i := 0; i < len(first); i += 4 {
		first[0+i], first[1+i], first[2+i], first[3+i] = c.R, c.G, c.B, c.A
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(r.Min.X, y):], first)
	}
}

// composite paints r with fg where the mask covers it and bg elsewhere,
// blending the two by the mask's coverage.
func composite(img *image.RGBA, r image.Rectangle, mask *image.Alpha, fg, bg color.RGBA) {
	origin := r.Min
	r = r.Intersect(img.Rect).Intersect(mask.Rect.Add(origin))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		dst := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		cov := mask.Pix[mask.PixOffset(r.Min.X-origin.X, y-origin.Y):][:r.Dx()]
		for x, a := range cov {
			px := dst[4*x : 4*x+4 : 4*x+4]
			switch a {
			case 0:
				px[0], px[1], px[2], px[3] = bg.R, bg.G, bg.B, 0xff
			case 0xff:
				px[0], px[1], px[2], px[3] = fg.R, fg.G, fg.B, 0xff
			default:
				k, j := uint32(a), 255-uint32(a)
				px[0] = uint8((uint32(fg.R)*k + uint32(bg.R)*j + 127) / 255)
				px[1] = uint8((uint32(fg.G)*k + uint32(bg.G)*j + 127) / 255)
				px[2] = uint8((uint32(fg.B)*k + uint32(bg.B)*j + 127) / 255)
				px[3] = 0xff
			}
		}
	}
}
