package tuitest

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// RequireFrame checks that a frame the view drew has exactly height lines
// of exactly width cells and no control bytes other than SGR sequences.
func RequireFrame(t testing.TB, frame string, width, height int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != height {
		t.Fatalf("frame has %d lines, want %d", len(lines), height)
	}
	for i, line := range lines {
		if w := ansi.StringWidth(line); w != width {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, w, width, ansi.Strip(line))
		}
		plain := ansi.Strip(line)
		for _, r := range plain {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("line %d holds control character %U: %q", i, r, plain)
			}
		}
	}
}
