package render

import (
	"encoding/base64"
	"fmt"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
)

// Go Mono is the one font btviz draws with: terminal frames (a glyph a
// cell) and heatmap charts (strings at a point) take their faces here, and
// both kinds of SVG embed the same fonts.

// Font variants, indexes into the parsed Go Mono fonts: the bold and italic
// bits of a glyph's style.
const (
	styleBold = 1 << iota
	styleItalic
)

// goMono parses the four Go Mono variants once; sfnt fonts are read-only
// after parsing and safe to share between goroutines.
var goMono = sync.OnceValues(func() ([4]*opentype.Font, error) {
	var fonts [4]*opentype.Font
	for i, ttf := range [4][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return fonts, fmt.Errorf("screenshot: parse embedded Go Mono font %d: %w", i, err)
		}
		fonts[i] = f
	}
	return fonts, nil
})

// newFace returns a face of f at size pixels (72 DPI): unhinted for a
// frame's cells, where glyphs are centred in a cell of their own; fully
// hinted for a chart's text, whose strings sit on whole pixels.
func newFace(f *opentype.Font, size float64, hinting font.Hinting) (font.Face, error) {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: hinting})
	if err != nil {
		return nil, fmt.Errorf("Go Mono at %g px: %w", size, err)
	}
	return face, nil
}

// embeddedFonts are the Go Mono variants an SVG embeds as @font-face rules
// (regular and bold; italics fall back to the browser's slanting), each
// with its CSS font-weight and the TTF in base64.
var embeddedFonts = sync.OnceValue(func() []embeddedFont {
	return []embeddedFont{
		{"normal", base64.StdEncoding.EncodeToString(gomono.TTF)},
		{"bold", base64.StdEncoding.EncodeToString(gomonobold.TTF)},
	}
})

// embeddedFont is one @font-face of an SVG.
type embeddedFont struct {
	weight, base64 string
}

// textMetrics places text and its decorations inside a cell, in pixels from
// the cell's top edge.
type textMetrics struct {
	baseline   int // text baseline
	underline  int // top of the underline
	strike     int // top of the strikethrough line
	decoration int // thickness of both lines
}

// newFaces returns the four Go Mono faces at the resolved font size, with
// the metrics of the regular face. Faces are not safe for concurrent use;
// each render makes its own.
func newFaces(m metrics) ([4]font.Face, textMetrics, error) {
	var faces [4]font.Face
	fonts, err := goMono()
	if err != nil {
		return faces, textMetrics{}, err
	}
	for i, f := range fonts {
		face, err := newFace(f, m.fontSize, font.HintingNone)
		if err != nil {
			return faces, textMetrics{}, fmt.Errorf("screenshot: %w", err)
		}
		faces[i] = face
	}
	fm := faces[0].Metrics()
	ascent := float64(fm.Ascent) / 64
	descent := float64(fm.Descent) / 64
	xHeight := float64(fm.XHeight) / 64
	tm := textMetrics{decoration: lineWidth(m.cellW, m.cellH)}
	tm.baseline = int(math.Round((float64(m.cellH)-ascent-descent)/2 + ascent))
	tm.underline = min(tm.baseline+int(math.Round(descent/2)), m.cellH-tm.decoration)
	tm.strike = tm.baseline - int(math.Round(xHeight/2)) - tm.decoration/2
	return faces, tm, nil
}
