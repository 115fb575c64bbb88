package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

func TestSafeTextEscapesControlBytes(t *testing.T) {
	for in, want := range map[string]string{
		"plain text · ünïcode":   "plain text · ünïcode",
		"bell\a and esc\x1b[31m": `bell\x07 and esc\x1b[31m`,
		"bad utf8 \xff\xfe":      `bad utf8 \xff\xfe`,
		"c1 \u0085 next line":    `c1 \xc2\x85 next line`,
	} {
		if got := escape.Text(in); got != want {
			t.Errorf("escape.Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHostileFindingTextIsEscaped(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	findings := []diagnose.Finding{{Kind: "hot-key-range", Severity: diagnose.SeverityWarning, Prefix: "user#\x1b]0;pwned\a",
		Start: "user#\x1b", End: "user#\x1c", Summary: "summary with \x1b[2J a clear screen", Advice: "advice\r\nwith a carriage return"}}
	frame := RenderFrame(snap, findings, ViewState{Focus: PaneFindings}, 200, 60, true, colorprofile.NoTTY)
	tuitest.RequireFrame(t, frame, 200, 60)
	if strings.ContainsAny(ansi.Strip(frame), "\x1b\a\r") || strings.Contains(frame, "\x1b") {
		t.Fatal("hostile finding text reached the frame raw")
	}
	if !strings.Contains(frame, `user#\x1b]0;pwned\x07`) {
		t.Fatal("the hostile prefix is not shown escaped")
	}
}
