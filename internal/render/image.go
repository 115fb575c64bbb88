package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	"github.com/btviz/btviz/internal/heatmap"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// ChartImage draws the matrix as an image: title, key labels, heat cells
// as rectangles, time axis and legend, with Go Mono embedded so it looks
// the same on any machine.
func ChartImage(m *heatmap.Matrix, o ImageOptions) (*image.RGBA, error) {
	if m == nil {
		return nil, fmt.Errorf("rendering a heatmap image: no matrix; build one with Build")
	}
	width, height, err := o.size()
	if err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", err)
	}
	fonts, err := goMono()
	if err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", err)
	}
	c := &rasterCanvas{img: image.NewRGBA(image.Rect(0, 0, width, height)), fonts: fonts, faces: map[faceKey]font.Face{}}
	newFigure(m, o, width, height).draw(c)
	c.close()
	if c.err != nil {
		return nil, fmt.Errorf("rendering a heatmap image: %w", c.err)
	}
	return c.img, nil
}

// ChartPNG draws the matrix as a PNG image (see [ChartImage]) to w.
func ChartPNG(w io.Writer, m *heatmap.Matrix, o ImageOptions) error {
	img, err := ChartImage(m, o)
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
	fonts [4]*opentype.Font
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
	f := r.fonts[0]
	if bold {
		f = r.fonts[styleBold]
	}
	face, err := newFace(f, size, font.HintingFull)
	if err != nil {
		return nil, err
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
