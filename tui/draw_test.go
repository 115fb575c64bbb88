package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/keyspace"
)

func TestSafeTextEscapesControlBytes(t *testing.T) {
	for in, want := range map[string]string{
		"plain text · ünïcode":   "plain text · ünïcode",
		"bell\a and esc\x1b[31m": `bell\x07 and esc\x1b[31m`,
		"bad utf8 \xff\xfe":      `bad utf8 \xff\xfe`,
		"c1 \u0085 next line":    `c1 \xc2\x85 next line`,
	} {
		if got := safeText(in); got != want {
			t.Errorf("safeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHostileFindingTextIsEscaped(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	findings := []diagnose.Finding{{Kind: "hot-key-range", Severity: diagnose.SeverityWarning, Prefix: "user#\x1b]0;pwned\a",
		Start: "user#\x1b", End: "user#\x1c", Summary: "summary with \x1b[2J a clear screen", Advice: "advice\r\nwith a carriage return"}}
	frame := RenderFrame(snap, findings, ViewState{Focus: PaneFindings}, 200, 60, true, colorprofile.NoTTY)
	requireFrame(t, frame, 200, 60)
	if strings.ContainsAny(ansi.Strip(frame), "\x1b\a\r") || strings.Contains(frame, "\x1b") {
		t.Fatal("hostile finding text reached the frame raw")
	}
	if !strings.Contains(frame, `user#\x1b]0;pwned\x07`) {
		t.Fatal("the hostile prefix is not shown escaped")
	}
}

func TestKeyTextKeepsStartAndEndWithoutSplittingEscapes(t *testing.T) {
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
		got := keyText(keyspace.Key(tt.key), tt.width)
		if got != tt.want {
			t.Errorf("keyText(%q, %d) = %q, want %q", tt.key, tt.width, got, tt.want)
		}
		if w := ansi.StringWidth(got); w > tt.width {
			t.Errorf("keyText(%q, %d) is %d cells wide", tt.key, tt.width, w)
		}
	}
}
