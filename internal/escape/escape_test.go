package escape

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"user#42", "user#42"},
		{"", ""},
		{`a\b`, `a\x5cb`},
		{"\x00\x1b[31m", `\x00\x1b[31m`},
		{"caf\u00e9", `caf\xc3\xa9`},
		{"\u202e", `\xe2\x80\xae`},
		{"\xff", `\xff`},
	} {
		if got := Key(tc.in); got != tc.want {
			t.Errorf("Key(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestText pins the one rule: what stays and what is escaped, and how.
func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"events", "events"},
		{"café 東京", "café 東京"},
		{`C:\path`, `C:\path`},
		{"\x1b]0;TITLE\x07", `\x1b]0;TITLE\x07`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"a\u009bb", `a\xc2\x9bb`},                       // C1 CSI
		{"evil\u202etxt.exe", `evil\xe2\x80\xaetxt.exe`}, // right-to-left override
		{"x\u2066y\u2069", `x\xe2\x81\xa6y\xe2\x81\xa9`}, // isolates
		{"zero\u200bwidth", `zero\xe2\x80\x8bwidth`},
		{"bom\ufeff", `bom\xef\xbb\xbf`},
		{"line\u2028sep", `line\xe2\x80\xa8sep`},
		{"two\nlines\ttab", `two\x0alines\x09tab`},
		{"bad\xffutf8\xc3", `bad\xffutf8\xc3`},
		{"del\x7f", `del\x7f`},
		{"\ufffd literal", "\ufffd literal"},
	} {
		got := Text(tc.in)
		if got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !Clean(got) {
			t.Errorf("Text(%q) = %q is not clean", tc.in, got)
		}
		if Clean(tc.in) != (got == tc.in) {
			t.Errorf("Clean(%q) = %v, but Text changes it: %v", tc.in, Clean(tc.in), got != tc.in)
		}
	}
}

func TestUnsafe(t *testing.T) {
	unsafe := []rune{0, 0x07, 0x1b, 0x7f, 0x85, 0x9b, 0x9c, 0x61c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0x200b, 0xfeff, 0x2028, 0x2029, 0xe0001}
	for _, r := range unsafe {
		if !Unsafe(r) {
			t.Errorf("Unsafe(%U) = false", r)
		}
	}
	safe := []rune{' ', 'a', '~', 0xa0, 0xe9, 0x6771, 0x2500, 0x2588, 0x2026, 0xfffd, 0x1f600}
	for _, r := range safe {
		if Unsafe(r) {
			t.Errorf("Unsafe(%U) = true", r)
		}
	}
}

func FuzzText(f *testing.F) {
	for _, seed := range []string{"", "plain", "\x1b[2J", "\u202e", "\xff\xfe", "a\u009bb"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not valid UTF-8", s, out)
		}
		for _, r := range out {
			if Unsafe(r) {
				t.Fatalf("Text(%q) = %q holds %U", s, out, r)
			}
		}
		if strings.Count(out, `\x`) < strings.Count(s, `\x`) {
			t.Fatalf("Text(%q) lost text: %q", s, out)
		}
		key := Key(s)
		for i := 0; i < len(key); i++ {
			if key[i] < 0x20 || key[i] > 0x7e {
				t.Fatalf("Key(%q) = %q holds byte %#x", s, key, key[i])
			}
		}
	})
}

// TestQuoteWritesTextAsTextDoes: a quoted value is written the same
// visible way as any other text, where Go's %q writes \a and \u202e.
func TestQuoteWritesTextAsTextDoes(t *testing.T) {
	if got, want := Quote("zoë\a\u202e\u009b\xff"), `"zoë\x07\xe2\x80\xae\xc2\x9b\xff"`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}
