package render

import (
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// sameColor reports whether two colours are equal (nil only equals nil).
func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return toRGBA(a) == toRGBA(b)
}

func TestParseColoursAndAttributes(t *testing.T) {
	frame := "\x1b[38;2;255;0;0mA\x1b[48;5;21mB\x1b[0m\x1b[31;1mC\x1b[0m\x1b[2;3;4;7;9mD\x1b[0m\x1b[8mE\x1b[0mF"
	g, err := ParseFrame(frame, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Columns != 6 || g.Rows != 1 {
		t.Fatalf("grid is %d×%d, want 6×1", g.Columns, g.Rows)
	}
	for x, want := range []GridCell{
		{Glyph: "A", Width: 1, Fg: ansi.RGBColor{R: 255}},
		{Glyph: "B", Width: 1, Fg: ansi.RGBColor{R: 255}, Bg: ansi.IndexedColor(21)},
		{Glyph: "C", Width: 1, Fg: ansi.Red, Attrs: Bold},
		{Glyph: "D", Width: 1, Attrs: Faint | Italic | Underline | Reverse | Strikethrough},
		{Glyph: "E", Width: 1, Attrs: Conceal},
		{Glyph: "F", Width: 1},
	} {
		got := g.Cell(x, 0)
		if got.Glyph != want.Glyph || got.Width != want.Width || got.Attrs != want.Attrs ||
			!sameColor(got.Fg, want.Fg) || !sameColor(got.Bg, want.Bg) {
			t.Errorf("cell %d = %+v, want %+v", x, got, want)
		}
	}
}

func TestParseWideCharacters(t *testing.T) {
	g, err := ParseFrame("a\x1b[44m界\x1b[0mb\n表格", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Columns != 4 || g.Rows != 2 {
		t.Fatalf("grid is %d×%d, want 4×2", g.Columns, g.Rows)
	}
	lead, cont := g.Cell(1, 0), g.Cell(2, 0)
	if lead.Glyph != "界" || lead.Width != 2 {
		t.Errorf("cell 1 = %+v, want 界 of width 2", lead)
	}
	if cont.Glyph != "" || cont.Width != 0 || !sameColor(cont.Bg, ansi.Blue) {
		t.Errorf("cell 2 = %+v, want the blue continuation of 界", cont)
	}
	if got := g.Cell(3, 0).Glyph; got != "b" {
		t.Errorf("cell 3 = %q, want b", got)
	}
	if got := g.Line(1); got != "表格" {
		t.Errorf("line 1 = %q, want 表格", got)
	}
}

func TestParseCropsAndPads(t *testing.T) {
	g, err := ParseFrame("abc\nde\n", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Columns != 3 || g.Rows != 2 {
		t.Fatalf("inferred %d×%d, want 3×2 (a final newline starts no line)", g.Columns, g.Rows)
	}
	g, err = ParseFrame("abc\nde\nfg", 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for y := range g.Rows {
		lines = append(lines, g.Line(y))
	}
	if got, want := strings.Join(lines, "|"), "ab|de|fg|"; got != want {
		t.Errorf("cropped lines = %q, want %q", got, want)
	}
	// A wide glyph cut by the right edge becomes blank rather than spilling.
	g, err = ParseFrame("a界", 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Line(0); got != "a" {
		t.Errorf("cut wide glyph: line = %q, want %q", got, "a")
	}
}

func TestParseRejectsHugeFrames(t *testing.T) {
	if _, err := ParseFrame(strings.Repeat("x", MaxColumns+1), 0, 0); err == nil {
		t.Error("a line wider than MaxColumns parsed without error")
	}
	if _, err := ParseFrame(strings.Repeat("\n", MaxRows+1), 0, 0); err == nil {
		t.Error("more than MaxRows lines parsed without error")
	}
	if _, err := ParseFrame(strings.Repeat("x", MaxColumns+1), 80, 24); err != nil {
		t.Errorf("cropping a huge frame: %v", err)
	}
}

func TestParseHostileFrames(t *testing.T) {
	for _, frame := range hostileFrames {
		g, err := ParseFrame(frame, 0, 0)
		if err != nil {
			t.Fatalf("Parse(%q): %v", frame, err)
		}
		for y := range g.Rows {
			if got, want := g.Line(y), strings.Split(FrameText(frame), "\n")[y]; got != want {
				t.Errorf("Parse(%q) line %d = %q, Text has %q", frame, y, got, want)
			}
			for x := range g.Columns {
				assertSafe(t, "cell", g.Cell(x, y).Glyph, false)
			}
		}
	}
}
