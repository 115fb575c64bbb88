package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// hostileFrames are frames that try to reach the terminal or document that
// shows a screenshot: cursor movement, screen clearing, window titles,
// clipboard writes, hyperlinks, device control strings, 8-bit and UTF-8
// encoded C1 controls, bidirectional overrides, broken UTF-8, and an SGR
// sequence long enough to crash the ansi decoder.
var hostileFrames = []string{
	"\x1b[2J\x1b[H\x1b[?1049h\x1b[31mred\x1b[0m",
	"\x1b]0;pwned\x07title\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07clip",
	"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
	"\x1bP1$r0m\x1b\\dcs\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\",
	"a\x9b31mb\x9d0;x\x9c",
	"c1\u009b31m\u0085\u009d0;x\u009c",
	"bidi \u202eevil\u202c \u2066x\u2069",
	"bad \xff\xfe\xc0\x80 utf8",
	"bell\a back\bspace\x00nul\x7fdel\x0e\x0f\x1a\x18",
	"\x1b[" + strings.Repeat("1;", 200) + "31mlong sgr",
	"\x1b[38;2;999;999;999;48;5;9999mhuge\x1b[38;5m\x1b[38;2m\x1b[48;2;1m",
	"\x1b[1;2;3;4;5;7;8;9;21;53mattrs",
	"unterminated \x1b]0;title never ends",
	"\x1b[?25l\x1b[6n\x1b[c\x1b[>c\x1b[18t\x1bc\x1b7\x1b8\x1b=\x1b(0q\x1b(B",
	"\u0301start mark\n\u0301again",
	"\r\roverwrite\rme\r\n",
	"tab\there\t\tend",
}

// assertSafe fails if s holds anything a terminal would act on: a control
// byte other than "\n", ESC other than at the start of an SGR sequence
// (allowed only if allowSGR), a C1 or bidi-control code point, or invalid
// UTF-8.
func assertSafe(t *testing.T, what, s string, allowSGR bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8 in %q", what, s)
	}
	for i := 0; i < len(s); {
		if allowSGR {
			if n := sgrPrefix(s[i:]); n > 0 {
				i += n
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '\n' && unsafeRune(r) {
			t.Errorf("%s: unsafe rune %U at byte %d in %q", what, r, i, s)
			return
		}
		i += size
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, frame, want string }{
		{"sgr", "\x1b[31mred\x1b[0m \x1b[38;2;1;2;3;48;5;200mplain\x1b[m", "red plain"},
		{"trailing spaces", "ab   \n  cd  \n   ", "ab\n  cd\n"},
		{"final newline kept", "a\nb\n", "a\nb\n"},
		{"tabs", "a\tb\n\tc\n12345678\td", "a       b\n        c\n12345678        d"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr dropped", "ab\rcd", "abcd"},
		{"hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ text", "link text"},
		{"cursor and clear", "\x1b[2J\x1b[Hx\x1b[5;5Hy\x1b[A", "xy"},
		{"osc title bel", "\x1b]0;evil\aok", "ok"},
		{"dcs", "\x1bP1$r\x1b\\ok", "ok"},
		{"utf-8 c1", "a\u009b31mb", "a31mb"},
		{"8-bit c1", "a\x9b31mb", "a\uFFFD31mb"},
		{"bidi", "a\u202eb\u2066c", "abc"},
		{"invalid utf-8", "x\xffy", "x\uFFFDy"},
		{"wide", "表格 ok", "表格 ok"},
		{"combining", "e\u0301 \x1b[1mi\x1b[0m\u0308", "e\u0301 i\u0308"},
		{"mark at line start", "\u0301a\n\u0308b", "a\nb"},
		{"long sgr", "\x1b[" + strings.Repeat("1;", 100) + "mx", "x"},
		{"controls", "a\x00b\x07c\x7fd\x08e", "abcde"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FrameText(tc.frame); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.frame, got, tc.want)
			}
		})
	}
}

func TestTextMatchesStrippedFrame(t *testing.T) {
	frame := sampleFrame()
	lines := strings.Split(ansi.Strip(frame), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	if got, want := FrameText(frame), strings.Join(lines, "\n"); got != want {
		t.Errorf("Text differs from the stripped frame:\n got: %q\nwant: %q", got, want)
	}
}

func TestANSI(t *testing.T) {
	for _, tc := range []struct{ name, frame, want string }{
		{"keeps sgr", "\x1b[1;38;2;255;0;0mred\x1b[0m \x1b[38:5:208mx\x1b[m", "\x1b[1;38;2;255;0;0mred\x1b[0m \x1b[38:5:208mx\x1b[m"},
		{"adds reset", "\x1b[31mred", "\x1b[31mred\x1b[m"},
		{"reset before final newline", "\x1b[31mred\n", "\x1b[31mred\x1b[m\n"},
		{"no sgr no reset", "plain\n", "plain\n"},
		{
			"drops hostile",
			"\x1b[31mred\x1b]0;pwned\a\x1b[2J\x1b[?1049h\a\x1b[0m\x1bPq#0;2;0;0;0\x1b\\\x1b]8;;http://x\x1b\\\x1b[1mbold\x1b]8;;\x1b\\",
			"\x1b[31mred\x1b[0m\x1b[1mbold\x1b[m",
		},
		{"private sgr-like dropped", "\x1b[?1m\x1b[>4;2m\x1b[1 mx", "x"},
		{"keeps trailing spaces", "\x1b[44m  \x1b[0m  ", "\x1b[44m  \x1b[0m  \x1b[m"},
		{"long sgr dropped", "\x1b[" + strings.Repeat("1;", 40) + "mx", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FrameANSI(tc.frame); got != tc.want {
				t.Errorf("ANSI(%q) = %q, want %q", tc.frame, got, tc.want)
			}
		})
	}
}

func TestTextAndANSIAreSafe(t *testing.T) {
	for _, frame := range hostileFrames {
		assertSafe(t, "Text", FrameText(frame), false)
		assertSafe(t, "ANSI", FrameANSI(frame), true)
		if FrameText(FrameANSI(frame)) != FrameText(frame) {
			t.Errorf("Text(ANSI(%q)) = %q, want %q", frame, FrameText(FrameANSI(frame)), FrameText(frame))
		}
	}
}

func TestTextGolden(t *testing.T) {
	golden.RequireEqual(t, FrameText(sampleFrame()))
}

func TestANSIGolden(t *testing.T) {
	golden.RequireEqual(t, FrameANSI(sampleFrame()))
}
