package heatmap

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// RenderImage draws the matrix as an image: title, key labels, heat cells
// as rectangles, time axis and legend, with Go Mono embedded so it looks
// the same on any machine.
func RenderImage(m *Matrix, o ImageOptions) (*image.RGBA, error) {
	if m == nil {
		return nil, fmt.Errorf("rendering a heatmap image: no matrix; build one with heatmap.Build")
	}
	width, height, err := o.size()
	if err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", err)
	}
	faces, err := loadFonts()
	if err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", err)
	}
	c := &rasterCanvas{img: image.NewRGBA(image.Rect(0, 0, width, height)), fonts: faces, faces: map[faceKey]font.Face{}}
	newFigure(m, o, width, height).draw(c)
	c.close()
	if c.err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", c.err)
	}
	return c.img, nil
}

// RenderPNG draws the matrix as a PNG image (see [RenderImage]) to w.
func RenderPNG(w io.Writer, m *Matrix, o ImageOptions) error {
	img, err := RenderImage(m, o)
	if err != nil {
		return err
	}
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("writing the heatmap PNG: %w", err)
	}
	return nil
}

type faceKey struct {
	size float64
	bold bool
}

// rasterCanvas draws on an RGBA image.
type rasterCanvas struct {
	img   *image.RGBA
	fonts fonts
	faces map[faceKey]font.Face
	err   error
}

func (r *rasterCanvas) fill(x0, y0, x1, y1 int, c color.RGBA) {
	draw.Draw(r.img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Src)
}

func (r *rasterCanvas) text(x, y int, s string, size float64, bold bool, c color.RGBA, a anchor) {
	if s == "" {
		return
	}
	face, err := r.face(size, bold)
	if err != nil {
		r.err = err
		return
	}
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(c), Face: face}
	width := d.MeasureString(s)
	dot := fixed.I(x)
	switch a {
	case anchorMiddle:
		dot -= width / 2
	case anchorEnd:
		dot -= width
	}
	d.Dot = fixed.Point26_6{X: dot, Y: fixed.I(y)}
	d.DrawString(s)
}

func (r *rasterCanvas) face(size float64, bold bool) (font.Face, error) {
	key := faceKey{size: size, bold: bold}
	if face, ok := r.faces[key]; ok {
		return face, nil
	}
	f := r.fonts.regular
	if bold {
		f = r.fonts.bold
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("making a %v px Go Mono face: %w", size, err)
	}
	r.faces[key] = face
	return face, nil
}

// close releases the faces, keeping the first error.
func (r *rasterCanvas) close() {
	for _, face := range r.faces {
		if err := face.Close(); err != nil && r.err == nil {
			r.err = fmt.Errorf("closing a font face: %w", err)
		}
	}
}
