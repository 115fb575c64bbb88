package export

import (
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// svgPiece is a run of text in a screenshot SVG row, at its column.
type svgPiece struct {
	col  int
	text string
}

// screenshotSVG is what the tests read back from a screenshot SVG.
type screenshotSVG struct {
	width, height int
	title         []svgPiece
	rows          map[int][]svgPiece
}

// readScreenshotSVG decodes every token of an SVG, failing on malformed
// XML, and collects its text per row by the rule screenshot.SVG documents:
// each <text>'s character data and each glyph group's data-text at its
// data-col.
func readScreenshotSVG(t *testing.T, doc string) screenshotSVG {
	t.Helper()
	out := screenshotSVG{rows: map[int][]svgPiece{}}
	dec := xml.NewDecoder(strings.NewReader(doc))
	attr := func(el xml.StartElement, name string) string {
		for _, a := range el.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	row, inTitle := -1, false
	var text *svgPiece
	add := func(p svgPiece) {
		if inTitle {
			out.title = append(out.title, p)
		} else if row >= 0 {
			out.rows[row] = append(out.rows[row], p)
		}
	}
	for depth := 0; ; {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			col, _ := strconv.Atoi(attr(el, "data-col"))
			switch el.Name.Local {
			case "svg":
				if depth == 1 {
					out.width, _ = strconv.Atoi(attr(el, "width"))
					out.height, _ = strconv.Atoi(attr(el, "height"))
				}
			case "g":
				switch attr(el, "class") {
				case "title":
					inTitle = true
				case "row":
					inTitle = false
					row, _ = strconv.Atoi(attr(el, "data-row"))
				case "glyphs":
					add(svgPiece{col, attr(el, "data-text")})
				}
			case "text":
				text = &svgPiece{col: col}
			}
		case xml.CharData:
			if text != nil {
				text.text += string(el)
			}
		case xml.EndElement:
			depth--
			if el.Name.Local == "text" && text != nil {
				add(*text)
				text = nil
			}
		}
	}
	return out
}

// svgLine joins a row's pieces: each at its column, spaces between,
// trailing spaces trimmed.
func svgLine(pieces []svgPiece) string {
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].col < pieces[j].col })
	var b strings.Builder
	col := 0
	for _, p := range pieces {
		if p.col > col {
			b.WriteString(strings.Repeat(" ", p.col-col))
			col = p.col
		}
		b.WriteString(p.text)
		col += ansi.StringWidth(p.text)
	}
	return strings.TrimRight(b.String(), " ")
}
