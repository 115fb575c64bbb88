//go:build slow

package main

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/tui/tuitest"
)

var crashBinary struct {
	once sync.Once
	path string
	err  error
}

// buildCrashTestBinary builds btviz with -tags btviz_crashtest, which
// makes ctrl+x panic in the interactive view's Update and ctrl+y in a
// command of a batch (internal/tui/crashtest_on.go), into the directory of
// [buildBinaries].
func buildCrashTestBinary(t *testing.T) string {
	t.Helper()
	buildBinaries(t)
	crashBinary.once.Do(func() {
		crashBinary.path = filepath.Join(binaries.dir, "btviz-crashtest")
		crashBinary.err = goBuild(crashBinary.path, "btviz_crashtest")
	})
	if crashBinary.err != nil {
		t.Fatal(crashBinary.err)
	}
	return crashBinary.path
}

// TestE2EPanicInTheViewIsOneLineExitSeventy: a bug in the interactive
// view — a panic in its Update, or in a command Bubble Tea runs on a
// goroutine of its own — ends btviz with exit 70 and one escaped line
// that says it is a bug and where to report it, with the terminal put
// back and its title untouched: not Bubble Tea's 46-line stack trace
// with the panic's escape sequences raw, and not exit 2.
func TestE2EPanicInTheViewIsOneLineExitSeventy(t *testing.T) {
	btviz := buildCrashTestBinary(t)
	snap := smallSnapshot(t, 300)
	for _, key := range []string{"C-x", "C-y"} {
		t.Run(key, func(t *testing.T) {
			term := tuitest.Start(t, tuitest.Options{Width: 260, Height: 40, Env: []string{"HOME=" + t.TempDir()}}, btviz, "open", snap)
			term.WaitFor(t, 30*time.Second, tuitest.HeatmapTitle)
			term.Send(key)
			screen := term.WaitFor(t, 30*time.Second, tuitest.ExitMarker)
			if !strings.Contains(screen, tuitest.ExitMarker+"70") {
				t.Errorf("want exit 70:\n%s", screen)
			}
			var lines []string
			for _, line := range strings.Split(screen, "\n") {
				if strings.TrimSpace(line) != "" && !strings.Contains(line, tuitest.ExitMarker) {
					lines = append(lines, line)
				}
			}
			if len(lines) != 1 {
				t.Fatalf("want one line before the exit, got %d:\n%s", len(lines), screen)
			}
			for _, want := range []string{`btviz: internal error: crash test \x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\xe2\x80\xae (at internal/tui.`, "a bug in btviz", "please report it"} {
				if !strings.Contains(lines[0], want) {
					t.Errorf("the line lacks %q: %s", want, lines[0])
				}
			}
			if m := term.Modes(); m.AltScreen || m.Mouse || !m.CursorVisible {
				t.Errorf("the terminal was not restored: %+v", m)
			}
			if title := term.Title(t); strings.Contains(title, "PWNED") {
				t.Errorf("the panic's escape sequence set the title: %q", title)
			}
		})
	}
}
