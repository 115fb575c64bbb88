package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// renderSVG renders the frame through [FrameSVG].
func renderSVG(t *testing.T, frame string, opt FrameOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := FrameSVG(&buf, frame, opt); err != nil {
		t.Fatalf("SVG: %v", err)
	}
	return buf.String()
}

// readSVG reads back an SVG through [ReadFrameSVG], failing the test on
// malformed XML.
func readSVG(t *testing.T, doc string) *SVGText {
	t.Helper()
	out, err := ReadFrameSVG(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("malformed SVG: %v", err)
	}
	return out
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
			doc := readSVG(t, renderSVG(t, frame, FrameOptions{Title: title, Padding: 4}))
			want := strings.Split(strings.TrimSuffix(FrameText(frame), "\n"), "\n")
			for y, wantLine := range want {
				if got := SVGLine(doc.Rows[y]); got != wantLine {
					t.Errorf("row %d: SVG text %q, want %q", y, got, wantLine)
				}
			}
			g, err := ParseFrame(frame, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(SVGLine(doc.Title)), ansi.Truncate(title, g.Columns, "…"); got != want {
				t.Errorf("title %q, want %q", got, want)
			}
		})
	}
}

func TestSVGSize(t *testing.T) {
	opt := FrameOptions{Title: "t", Padding: 5, Scale: 2}
	doc := readSVG(t, renderSVG(t, "0123456789\nab", opt))
	want, err := opt.Size(10, 2)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Width != want.X || doc.Height != want.Y {
		t.Errorf("SVG is %d×%d, want %v", doc.Width, doc.Height, want)
	}
}

func TestSVGDrawsBlocksAsShapes(t *testing.T) {
	frame := "\x1b[38;2;255;255;0m█\x1b[38;2;0;255;0;48;2;0;0;255m▀\x1b[0m──x"
	out := renderSVG(t, frame, FrameOptions{})
	doc := readSVG(t, out)
	if got := doc.Rows[0]; len(got) != 2 || got[0].Text != "█▀──" || got[1].Text != "x" {
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
		out := renderSVG(t, frame, FrameOptions{Title: frame})
		assertSafe(t, "SVG", out, false)
		readSVG(t, out)
	}
}

func TestSVGEmbedsFont(t *testing.T) {
	out := renderSVG(t, "x", FrameOptions{EmbedFont: true})
	if !strings.Contains(out, "@font-face") || !strings.Contains(out, "data:font/ttf;base64,") {
		t.Error("EmbedFont: no @font-face with Go Mono")
	}
	readSVG(t, out)
}

func TestSVGGolden(t *testing.T) {
	frame := "\x1b[1;38;2;125;86;244m╭─ btviz ─╮\x1b[0m\n" +
		"\x1b[38;2;125;86;244m│\x1b[0m\x1b[38;2;0;255;0;48;2;0;0;255m▀▀\x1b[38;5;208m░▒▓\x1b[0m \x1b[4mk<&>\x1b[0m\x1b[38;2;125;86;244m│\x1b[0m\n" +
		"\x1b[38;2;125;86;244m╰─────────╯\x1b[0m 表…"
	golden.RequireEqual(t, renderSVG(t, frame, FrameOptions{Title: "golden", Padding: 2}))
}
