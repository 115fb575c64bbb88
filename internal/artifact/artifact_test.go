package artifact

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTitleEscapesTableAndPrefix(t *testing.T) {
	for _, tc := range []struct{ table, what, prefix, want string }{
		{"events", "heatmap/writes", "", "btviz — events — heatmap/writes"},
		{"", "rows", "", "btviz — (no table) — rows"},
		{"evil\x1b]0;x\x07", "rows", "a\x00", `btviz — evil\x1b]0;x\x07 — rows — a\x00`},
		{"t\u202e", "prefixes/bytes", "caf\u00e9", `btviz — t\xe2\x80\xae — prefixes/bytes — caf\xc3\xa9`},
	} {
		if got := Title(tc.table, tc.what, tc.prefix); got != tc.want {
			t.Errorf("Title(%q, %q, %q) = %q, want %q", tc.table, tc.what, tc.prefix, got, tc.want)
		}
	}
}

func TestSafeNameAndStem(t *testing.T) {
	for in, want := range map[string]string{
		"social-celebrity": "social-celebrity", "a/b\\c d": "a_b_c_d", "": "_", "..": "_", "événement": "_v_nement", "x.y_z": "x.y_z",
	} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
	at := time.Date(2026, 11, 1, 12, 3, 4, 0, time.UTC)
	if got := Stem("../etc/passwd", at); got != "btviz-.._etc_passwd-20261101-120304" || strings.Contains(got, "/") {
		t.Errorf("Stem = %q", got)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{"a.png": FormatPNG, "b.SVG": FormatSVG, "c.txt": FormatText, "d.ansi": FormatANSI} {
		if got, err := FormatOf(path); err != nil || got != want {
			t.Errorf("FormatOf(%q) = %q, %v", path, got, err)
		}
	}
	for _, bad := range []string{"a", "a.jpg", "a.\x1b"} {
		_, err := FormatOf(bad)
		if err == nil || strings.ContainsRune(err.Error(), 0x1b) || !strings.Contains(err.Error(), ".png, .svg, .txt or .ansi") {
			t.Errorf("FormatOf(%q) = %v, want an error that lists the extensions", bad, err)
		}
	}
}

func TestWriteEveryFormat(t *testing.T) {
	dir := t.TempDir()
	f := Frame{Text: "\x1b[31mhello\x1b[m world\nsecond line", Columns: 20, Rows: 2, Dark: true, Title: Title("t", "heatmap/writes", "")}
	for _, format := range Formats() {
		path := filepath.Join(dir, "frame."+string(format))
		if err := Write(path, f, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		data, err := os.ReadFile(path)
		if err != nil || len(data) == 0 {
			t.Fatalf("%s: %d bytes, %v", format, len(data), err)
		}
		switch format {
		case FormatPNG:
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("the PNG does not decode: %v", err)
			}
		case FormatSVG:
			if !bytes.Contains(data, []byte("hello")) || !bytes.Contains(data, []byte("@font-face")) {
				t.Errorf("the SVG lacks its text or its embedded font")
			}
		case FormatText:
			if string(data) != "hello world\nsecond line\n" {
				t.Errorf("text %q", data)
			}
		case FormatANSI:
			if !bytes.Contains(data, []byte("\x1b[31m")) {
				t.Errorf("ANSI %q lost its colour", data)
			}
		}
	}
}
