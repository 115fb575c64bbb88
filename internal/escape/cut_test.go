package escape

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutKeyKeepsStartAndEndWithoutSplittingEscapes(t *testing.T) {
	tests := []struct {
		key   string
		width int
		want  string
	}{
		{"user#42", 20, "user#42"},
		{"user#mila_rosewood#p000000#1793121947079", 20, "user#mila_ros…947079"},
		// The tail keeps whole escapes: "\xa1\x8fB5\x8a" would cut \x8f.
		{"\x00\x07\x00\x1b\x00\x00\x01\xa1\x8fB5\x8a", 24, `\x00\x07\x00\x1b…B5\x8a`},
		{"\x00\x07\x00\x1b\x00\x00\x01\xa1\x8fB5\x8a", 23, `\x00\x07\x00…B5\x8a`},
		{"\x00\x07\x00\x1b\x00\x00\x01\xa1\x8fB5\x8a", 21, `\x00\x07\x00…B5\x8a`},
		// Below minMiddleCut only the start is kept, cut before an escape.
		{"\x00\x07\x00\x1b", 10, `\x00\x07…`},
		{"abcdefghijklmnop", 8, "abcdefg…"},
	}
	for _, tt := range tests {
		got := CutKey(Key(tt.key), tt.width)
		if got != tt.want {
			t.Errorf("CutKey(%q, %d) = %q, want %q", tt.key, tt.width, got, tt.want)
		}
		if w := utf8.RuneCountInString(got); w > tt.width {
			t.Errorf("CutKey(%q, %d) is %d cells wide", tt.key, tt.width, w)
		}
	}
}

func TestWrapKeyKeepsEscapesWholeAndTheEndInSight(t *testing.T) {
	key := Key("user#mila_rosewood#\x00\x07\x1b#1793404832385#machine_0042")
	tests := []struct {
		width, maxLines int
		want            []string
	}{
		{80, 3, []string{key}},
		{20, 5, []string{`user#mila_rosewood#`, `\x00\x07\x1b#1793404`, `832385#machine_0042`}},
		{20, 2, []string{`user#mila_rosewood#`, `\x00\x07\x1b#…e_0042`}},
		{8, 3, []string{`user#mi…`}},
	}
	for _, tt := range tests {
		got := WrapKey(key, tt.width, tt.maxLines)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("WrapKey(%d, %d) = %q, want %q", tt.width, tt.maxLines, got, tt.want)
		}
		for _, line := range got {
			if utf8.RuneCountInString(line) > tt.width {
				t.Errorf("WrapKey(%d, %d): line %q is too wide", tt.width, tt.maxLines, line)
			}
		}
	}
}
