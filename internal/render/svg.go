package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"io"
	"strconv"
	"unicode/utf8"
)

// svgFontFamily names Go Mono first, then common monospace fonts.
const svgFontFamily = `'Go Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace`

// FrameSVG writes the frame as an SVG document with the layout documented on
// [FrameOptions] (one pixel is one SVG user unit).
//
// Structure: a full-size <rect class="page"> in the theme background;
// <g class="bg"> with one <rect> per run of equal, non-default background
// colour in a row; then a <g> per row (class="title" for the title bar,
// class="row" data-row="N" for frame row N) holding:
//
//   - <text data-col="C"> per run of same-styled glyphs starting at column
//     C, every glyph placed at its column by the x list, with spaces kept
//     (xml:space="preserve"); a wide or multi-code-point glyph gets its own
//     <text>, centred on its two columns;
//   - <g class="glyphs" data-col="C" data-text="…"> per run of box-drawing,
//     block or braille glyphs, drawn as <rect> and <path> shapes (the same
//     shapes as in [FramePNG]); data-text holds the glyphs they stand for;
//   - <rect class="decor"> for underlines and strikethroughs.
//
// Rule for checking the text: in each row, place every <text>'s character
// data and every glyph group's data-text at its data-col, fill the columns
// between with spaces and trim trailing spaces; the result is that row of
// [Grid.Line], which for a frame that fits the grid is the line of [FrameText].
func FrameSVG(w io.Writer, frame string, opt FrameOptions) error {
	sc, err := newScene(frame, opt)
	if err != nil {
		return err
	}
	_, tm, err := newFaces(sc.m)
	if err != nil {
		return err
	}
	s := svgWriter{sc: sc, tm: tm}
	s.document(opt.EmbedFont)
	if _, err := w.Write(s.buf.Bytes()); err != nil {
		return fmt.Errorf("screenshot: write SVG: %w", err)
	}
	return nil
}

// svgWriter builds an SVG document for a scene.
type svgWriter struct {
	sc         *scene
	tm         textMetrics
	buf        bytes.Buffer
	shapeCache map[glyphKey][]shape // by glyph and width in px
}

// document writes the whole SVG.
func (s *svgWriter) document(embedFont bool) {
	size, bg := s.sc.size, toRGBA(s.sc.theme.Background)
	s.printf(`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" xml:space="preserve">`+"\n",
		size.X, size.Y, size.X, size.Y)
	s.style(embedFont)
	s.rect(image.Rectangle{Max: size}, bg, "page")
	s.backgrounds(bg)
	for y, row := range s.sc.rows {
		switch {
		case s.sc.title && y == 0:
			s.buf.WriteString(`<g class="title">` + "\n")
		case s.sc.title:
			s.printf(`<g class="row" data-row="%d">`+"\n", y-1)
		default:
			s.printf(`<g class="row" data-row="%d">`+"\n", y)
		}
		s.row(y, row)
		s.buf.WriteString("</g>\n")
	}
	s.buf.WriteString("</svg>\n")
}

// style writes the stylesheet, with Go Mono embedded if asked.
func (s *svgWriter) style(embedFont bool) {
	s.buf.WriteString("<style>\n")
	if embedFont {
		for _, f := range embeddedFonts() {
			s.printf("@font-face { font-family: 'Go Mono'; font-weight: %s; src: url(data:font/ttf;base64,%s) format('truetype'); }\n",
				f.weight, f.base64)
		}
	}
	s.printf("text { font-family: %s; font-size: %spx; }\n", svgFontFamily, strconv.FormatFloat(s.sc.m.fontSize, 'f', -1, 64))
	s.buf.WriteString("text { white-space: pre; }\n.b { font-weight: bold; }\n.i { font-style: italic; }\n")
	s.buf.WriteString("</style>\n")
}

// backgrounds writes one rectangle per run of equal background colour that
// differs from the page's.
func (s *svgWriter) backgrounds(page color.RGBA) {
	s.buf.WriteString(`<g class="bg" shape-rendering="crispEdges">` + "\n")
	for y, row := range s.sc.rows {
		for i := 0; i < len(row); {
			j := i + 1
			for j < len(row) && row[j].bg == row[i].bg {
				j++
			}
			if row[i].bg != page {
				first, last := s.sc.cellRect(y, row[i]), s.sc.cellRect(y, row[j-1])
				s.rect(first.Union(last), row[i].bg, "")
			}
			i = j
		}
	}
	s.buf.WriteString("</g>\n")
}

// row writes the glyphs and decorations of scene row y.
func (s *svgWriter) row(y int, row []paint) {
	for i := 0; i < len(row); {
		switch p := row[i]; {
		case isDrawn(p.glyph):
			i = s.shapes(y, row, i)
		case p.glyph == " ":
			i++
		default:
			i = s.text(y, row, i)
		}
	}
	s.decorations(y, row)
}

// simpleGlyph reports whether a paint is one narrow code point, which a
// <text> run can position with its x list.
func simpleGlyph(p paint) bool {
	return p.cells == 1 && utf8.RuneCountInString(p.glyph) == 1 && !isDrawn(p.glyph)
}

// sameText reports whether two paints can share a <text> element.
func sameText(a, b paint) bool {
	const textAttrs = Bold | Italic
	return a.fg == b.fg && a.attrs&textAttrs == b.attrs&textAttrs
}

// text writes the <text> run starting at row[i] and returns the index after
// it. Spaces join a run whatever their style, but never end it.
func (s *svgWriter) text(y int, row []paint, i int) int {
	first := row[i]
	end := i + 1
	if simpleGlyph(first) {
		for j := i + 1; j < len(row); j++ {
			p := row[j]
			if !simpleGlyph(p) || (p.glyph != " " && !sameText(first, p)) {
				break
			}
			if p.glyph != " " {
				end = j + 1
			}
		}
	}
	baseline := s.sc.origin.Y + y*s.sc.m.cellH + s.tm.baseline
	s.buf.WriteString("<text ")
	s.attr("data-col", first.col)
	s.buf.WriteString(`x="`)
	if simpleGlyph(first) {
		for j, p := range row[i:end] {
			if j > 0 {
				s.buf.WriteByte(' ')
			}
			s.buf.Write(strconv.AppendInt(s.buf.AvailableBuffer(), int64(s.sc.origin.X+p.col*s.sc.m.cellW), 10))
		}
		s.buf.WriteByte('"')
	} else {
		centre := s.sc.origin.X + first.col*s.sc.m.cellW + first.cells*s.sc.m.cellW/2
		s.printf(`%d" text-anchor="middle"`, centre)
	}
	s.buf.WriteByte(' ')
	s.attr("y", baseline)
	s.buf.WriteString(`fill="`)
	s.color(first.fg)
	s.buf.WriteByte('"')
	switch first.attrs & (Bold | Italic) {
	case Bold:
		s.buf.WriteString(` class="b"`)
	case Italic:
		s.buf.WriteString(` class="i"`)
	case Bold | Italic:
		s.buf.WriteString(` class="b i"`)
	}
	s.buf.WriteByte('>')
	for _, p := range row[i:end] {
		s.escape(p.glyph)
	}
	s.buf.WriteString("</text>\n")
	return end
}

// shapes writes the glyph group for the run of drawn glyphs starting at
// row[i] and returns the index after it. Rectangles of one colour that
// touch along a row are merged.
func (s *svgWriter) shapes(y int, row []paint, i int) int {
	end := i
	for end < len(row) && isDrawn(row[end].glyph) {
		end++
	}
	s.printf(`<g class="glyphs" data-col="%d" data-text="`, row[i].col)
	for _, p := range row[i:end] {
		s.escape(p.glyph)
	}
	s.buf.WriteString(`" shape-rendering="crispEdges">` + "\n")
	var rects []colorRect
	var paths bytes.Buffer
	for _, p := range row[i:end] {
		cell := s.sc.cellRect(y, p)
		shapes := s.shapesOf(p.glyph, cell.Dx())
		for _, sh := range shapes {
			fill := mix(p.fg, p.bg, sh.coverage)
			if sh.poly != nil {
				s.path(&paths, sh.poly, cell.Min, fill)
				continue
			}
			if r := sh.rect.Add(cell.Min); !r.Empty() {
				rects = append(rects, colorRect{r, fill})
			}
		}
	}
	for _, r := range mergeRects(rects) {
		s.rect(r.rect, r.fill, "")
	}
	s.buf.Write(paths.Bytes())
	s.buf.WriteString("</g>\n")
	return end
}

// shapesOf returns the shapes of a drawn glyph w px wide, computed once per
// document.
func (s *svgWriter) shapesOf(glyph string, w int) []shape {
	key := glyphKey{glyph: glyph, cells: w}
	if shapes, ok := s.shapeCache[key]; ok {
		return shapes
	}
	shapes, _ := drawnGlyph(glyph, w, s.sc.m.cellH)
	if s.shapeCache == nil {
		s.shapeCache = map[glyphKey][]shape{}
	}
	s.shapeCache[key] = shapes
	return shapes
}

// path writes a filled polygon, anti-aliased, offset by origin.
func (s *svgWriter) path(out *bytes.Buffer, poly []point, origin image.Point, fill color.RGBA) {
	out.WriteString(`<path shape-rendering="geometricPrecision" d="`)
	for k, p := range poly {
		if k == 0 {
			out.WriteByte('M')
		} else {
			out.WriteByte('L')
		}
		out.WriteString(strconv.FormatFloat(float64(p.x)+float64(origin.X), 'f', 2, 32))
		out.WriteByte(' ')
		out.WriteString(strconv.FormatFloat(float64(p.y)+float64(origin.Y), 'f', 2, 32))
	}
	out.WriteString(`Z" fill="`)
	out.WriteString(hex(fill))
	out.WriteString(`"/>` + "\n")
}

// decorations writes underlines and strikethroughs, merged along the row.
func (s *svgWriter) decorations(y int, row []paint) {
	for _, kind := range []struct {
		attr Attr
		top  int
	}{{Underline, s.tm.underline}, {Strikethrough, s.tm.strike}} {
		for i := 0; i < len(row); {
			if row[i].attrs&kind.attr == 0 {
				i++
				continue
			}
			j := i + 1
			for j < len(row) && row[j].attrs&kind.attr != 0 && row[j].fg == row[i].fg {
				j++
			}
			r := s.sc.cellRect(y, row[i]).Union(s.sc.cellRect(y, row[j-1]))
			r.Min.Y += kind.top
			r.Max.Y = r.Min.Y + s.tm.decoration
			s.rect(r, row[i].fg, "decor")
			i = j
		}
	}
}

// rect writes a filled rectangle.
func (s *svgWriter) rect(r image.Rectangle, fill color.RGBA, class string) {
	s.buf.WriteString("<rect ")
	if class != "" {
		s.buf.WriteString(`class="` + class + `" `)
	}
	s.attr("x", r.Min.X)
	s.attr("y", r.Min.Y)
	s.attr("width", r.Dx())
	s.attr("height", r.Dy())
	s.buf.WriteString(`fill="`)
	s.color(fill)
	s.buf.WriteString(`"/>` + "\n")
}

// attr writes name="v" and a space.
func (s *svgWriter) attr(name string, v int) {
	s.buf.WriteString(name)
	s.buf.WriteString(`="`)
	s.buf.Write(strconv.AppendInt(s.buf.AvailableBuffer(), int64(v), 10))
	s.buf.WriteString(`" `)
}

// color writes c as #rrggbb.
func (s *svgWriter) color(c color.RGBA) {
	const digits = "0123456789abcdef"
	s.buf.Write([]byte{'#',
		digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}

// escape writes text as XML character data (also safe in attributes).
func (s *svgWriter) escape(text string) {
	// Writes to a bytes.Buffer cannot fail.
	_ = xml.EscapeText(&s.buf, []byte(text))
}

// printf appends formatted output.
func (s *svgWriter) printf(format string, args ...any) {
	fmt.Fprintf(&s.buf, format, args...)
}
