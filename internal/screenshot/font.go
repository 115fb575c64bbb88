package screenshot

import (
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
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: m.fontSize, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			return faces, textMetrics{}, fmt.Errorf("screenshot: Go Mono at %g px: %w", m.fontSize, err)
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
