package screenshot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// renderSVG renders the frame through [SVG].
func renderSVG(t *testing.T, frame string, opt Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := SVG(&buf, frame, opt); err != nil {
		t.Fatalf("SVG: %v", err)
	}
	return buf.String()
}

// svgPiece is a run of text found in an SVG row: a <text>'s character data
// or a glyph group's data-text, at its column.
type svgPiece struct {
	col  int
	text string
}

// svgDoc is what the tests read back from an SVG.
type svgDoc struct {
	width, height int
	title         []svgPiece
	rows          map[int][]svgPiece
	fills         []string // fill colours of <rect> elements, in order
}

// readSVG decodes every token of an SVG (failing on malformed XML) and
// collects its text pieces per row, following the rule documented on [SVG].
func readSVG(t *testing.T, doc string) svgDoc {
	t.Helper()
	out := svgDoc{rows: map[int][]svgPiece{}}
	dec := xml.NewDecoder(strings.NewReader(doc))
	attr := func(el xml.StartElement, name string) (string, bool) {
		for _, a := range el.Attr {
			if a.Name.Local == name {
				return a.Value, true
			}
		}
		return "", false
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
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			col, _ := attr(el, "data-col")
			c, _ := strconv.Atoi(col)
			switch el.Name.Local {
			case "svg":
				w, _ := attr(el, "width")
				h, _ := attr(el, "height")
				out.width, _ = strconv.Atoi(w)
				out.height, _ = strconv.Atoi(h)
			case "g":
				class, _ := attr(el, "class")
				switch class {
				case "title":
					inTitle = true
				case "row":
					inTitle = false
					r, _ := attr(el, "data-row")
					row, _ = strconv.Atoi(r)
				case "glyphs":
					data, _ := attr(el, "data-text")
					add(svgPiece{c, data})
				}
			case "text":
				text = &svgPiece{col: c}
			case "rect":
				fill, _ := attr(el, "fill")
				out.fills = append(out.fills, fill)
			}
		case xml.CharData:
			if text != nil {
				text.text += string(el)
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "text":
				add(*text)
				text = nil
			case "g":
				// Glyph groups sit inside rows; a row or title group ends
				// when its own </g> comes, which the next start resets.
			}
		}
	}
	return out
}

// line joins the pieces of a row by the documented rule: each at its
// column, spaces between, trailing spaces trimmed.
func line(pieces []svgPiece) string {
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].col < pieces[j].col })
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

func TestSVGTextMatchesText(t *testing.T) {
	for name, frame := range map[string]string{
		"sample":  sampleFrame(),
		"big":     bigFrame(120, 30),
		"spaces":  "a  b   c\n  \x1b[44m   \x1b[0m x\n\n   indented",
		"wide":    "表格 \x1b[1m界\x1b[0m x\ne\u0301 ok",
		"escapes": "<b>&amp;</b> \"quotes\" 'apos' ]]> <!-- -->",
	} {
		t.Run(name, func(t *testing.T) {
			title := "btviz — table celebrity — cells written"
			doc := readSVG(t, renderSVG(t, frame, Options{Title: title, Padding: 4}))
			want := strings.Split(strings.TrimSuffix(Text(frame), "\n"), "\n")
			for y, wantLine := range want {
				if got := line(doc.rows[y]); got != wantLine {
					t.Errorf("row %d: SVG text %q, want %q", y, got, wantLine)
				}
			}
			g, err := Parse(frame, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(line(doc.title)), ansi.Truncate(title, g.Columns, "…"); got != want {
				t.Errorf("title %q, want %q", got, want)
			}
		})
	}
}

func TestSVGSize(t *testing.T) {
	opt := Options{Title: "t", Padding: 5, Scale: 2}
	doc := readSVG(t, renderSVG(t, "0123456789\nab", opt))
	want, err := opt.Size(10, 2)
	if err != nil {
		t.Fatal(err)
	}
	if doc.width != want.X || doc.height != want.Y {
		t.Errorf("SVG is %d×%d, want %v", doc.width, doc.height, want)
	}
}

func TestSVGDrawsBlocksAsShapes(t *testing.T) {
	frame := "\x1b[38;2;255;255;0m█\x1b[38;2;0;255;0;48;2;0;0;255m▀\x1b[0m──x"
	out := renderSVG(t, frame, Options{})
	doc := readSVG(t, out)
	if got := doc.rows[0]; len(got) != 2 || got[0].text != "█▀──" || got[1].text != "x" {
		t.Errorf("row pieces %+v, want a glyph group █▀── and text x", got)
	}
	if strings.Contains(out, ">█") || strings.Contains(out, ">▀") || strings.Contains(out, ">─") {
		t.Error("block or box glyphs appear as <text> content")
	}
	for _, want := range []string{
		`<rect x="0" y="0" width="9" height="18" fill="#ffff00"/>`, // █ fills its cell
		`<rect x="9" y="0" width="9" height="18" fill="#0000ff"/>`, // ▀'s background
		`<rect x="9" y="0" width="9" height="9" fill="#00ff00"/>`,  // ▀'s top half
		`width="18" height="1" fill="#e4e4e7"/>`,                   // ── merged into one line
	} {
		if !strings.Contains(out, want) {
			t.Errorf("SVG lacks %s", want)
		}
	}
}

func TestSVGHostileFrames(t *testing.T) {
	for _, frame := range hostileFrames {
		out := renderSVG(t, frame, Options{Title: frame})
		assertSafe(t, "SVG", out, false)
		readSVG(t, out)
	}
}

func TestSVGEmbedsFont(t *testing.T) {
	out := renderSVG(t, "x", Options{EmbedFont: true})
	if !strings.Contains(out, "@font-face") || !strings.Contains(out, "data:font/ttf;base64,") {
		t.Error("EmbedFont: no @font-face with Go Mono")
	}
	readSVG(t, out)
}

func TestSVGGolden(t *testing.T) {
	frame := "\x1b[1;38;2;125;86;244m╭─ btviz ─╮\x1b[0m\n" +
		"\x1b[38;2;125;86;244m│\x1b[0m\x1b[38;2;0;255;0;48;2;0;0;255m▀▀\x1b[38;5;208m░▒▓\x1b[0m \x1b[4mk<&>\x1b[0m\x1b[38;2;125;86;244m│\x1b[0m\n" +
		"\x1b[38;2;125;86;244m╰─────────╯\x1b[0m 表…"
	golden.RequireEqual(t, renderSVG(t, frame, Options{Title: "golden", Padding: 2}))
}
