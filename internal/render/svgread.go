package render

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// SVGText is the text of a screenshot SVG read back by [ReadFrameSVG]: for
// checking a screenshot against the frame it was made from.
type SVGText struct {
	// Width and Height are the outermost <svg> element's size in pixels.
	Width, Height int
	// Title holds the title bar's pieces; Rows each grid row's, by row.
	Title []SVGPiece
	Rows  map[int][]SVGPiece
}

// SVGPiece is a run of text in a row: a <text> element's character data
// or a glyph group's data-text, at its column.
type SVGPiece struct {
	Column int
	Text   string
}

// ReadFrameSVG decodes a screenshot SVG written by [FrameSVG], failing on malformed
// XML, and collects its text by the rule [FrameSVG] documents.
func ReadFrameSVG(r io.Reader) (*SVGText, error) {
	out := &SVGText{Rows: map[int][]SVGPiece{}}
	dec := xml.NewDecoder(r)
	attr := func(el xml.StartElement, name string) string {
		for _, a := range el.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	row, inTitle := -1, false
	var text *SVGPiece
	add := func(p SVGPiece) {
		if inTitle {
			out.Title = append(out.Title, p)
		} else if row >= 0 {
			out.Rows[row] = append(out.Rows[row], p)
		}
	}
	for depth := 0; ; {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading a screenshot SVG: %w", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			col, _ := strconv.Atoi(attr(el, "data-col"))
			switch el.Name.Local {
			case "svg":
				if depth == 1 {
					out.Width, _ = strconv.Atoi(attr(el, "width"))
					out.Height, _ = strconv.Atoi(attr(el, "height"))
				}
			case "g":
				switch attr(el, "class") {
				case "title":
					inTitle = true
				case "row":
					inTitle = false
					row, _ = strconv.Atoi(attr(el, "data-row"))
				case "glyphs":
					add(SVGPiece{col, attr(el, "data-text")})
				}
			case "text":
				text = &SVGPiece{Column: col}
			}
		case xml.CharData:
			if text != nil {
				text.Text += string(el)
			}
		case xml.EndElement:
			depth--
			if el.Name.Local == "text" && text != nil {
				add(*text)
				text = nil
			}
		}
	}
}

// SVGLine joins pieces by the rule [FrameSVG] documents: each at its column,
// spaces between, trailing spaces trimmed. Applied to a row it gives the
// row of [FrameText].
func SVGLine(pieces []SVGPiece) string {
	pieces = append([]SVGPiece(nil), pieces...)
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].Column < pieces[j].Column })
	var b strings.Builder
	col := 0
	for _, p := range pieces {
		if p.Column > col {
			b.WriteString(strings.Repeat(" ", p.Column-col))
			col = p.Column
		}
		b.WriteString(p.Text)
		col += ansi.StringWidth(p.Text)
	}
	return strings.TrimRight(b.String(), " ")
}
