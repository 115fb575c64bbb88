package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/render"
)

// clipboardText runs a command and returns the text it asks the terminal
// to put on the clipboard (tea.SetClipboard's message), or fails.
func clipboardText(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	msg := cmd()
	if v := reflect.ValueOf(msg); v.Kind() != reflect.String || v.Type().Name() != "setClipboardMsg" {
		t.Fatalf("y asked for %T, want tea.SetClipboard's message", msg)
	}
	return fmt.Sprint(msg)
}

func TestCopyPutsTheSelectedKeyEscapedOnTheClipboard(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.NoTTY)
	m.current().state.Selected = bucketIndex(t, m, "…mila_rosewood#")
	if got := clipboardText(t, update(m, keyMsg("y"))); got != "user#mila_rosewood#" {
		t.Fatalf("y on the celebrity's bucket copies %q", got)
	}
	if line := ansi.Strip(m.render()); !strings.Contains(line, "sent the start key of bucket") || !strings.Contains(line, "· user#mila_rosewood# (escaped as \\xNN)") ||
		!strings.Contains(line, "if your terminal allows OSC 52") || strings.Contains(line, "✓") {
		t.Fatalf("the status line does not say what was sent, and that the terminal may not pass it on:\n%s", line)
	}

	// In the largest-rows view, the selected row's key; binary bytes
	// escaped, never raw.
	m = newSnapshotModel(t, scenarioSnapshot(t, "binary-sensor-keys"), 200, 60, colorprofile.NoTTY)
	press(m, "L")
	f := m.frame()
	row, ok := f.SelectedRow()
	if !ok {
		t.Fatal("no largest row")
	}
	got := clipboardText(t, update(m, keyMsg("y")))
	if got != row.Key.String() || strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		t.Fatalf("y on a binary row copies %q, want %q escaped", got, row.Key.String())
	}
}

// TestCopySaysWhenTheTerminalMayNotPassItOn: inside tmux, GNU screen or
// Apple's Terminal the status line says what the copy needs or that it
// will not arrive, never that it was copied.
func TestCopySaysWhenTheTerminalMayNotPassItOn(t *testing.T) {
	for env, want := range map[string]string{
		"TMUX=/tmp/tmux-0/default,1234,0": "inside tmux it reaches the clipboard only with `set -g set-clipboard on` in ~/.tmux.conf",
		"STY=1234.pts-0.host":             "GNU screen does not pass it on",
		"TERM_PROGRAM=Apple_Terminal":     "Terminal.app does not pass it on",
		"TERM=xterm-256color":             "it reaches the clipboard if your terminal allows OSC 52",
	} {
		m := New(t.Context(), Config{Snapshot: scenarioSnapshot(t, "social-celebrity"), Profile: colorprofile.NoTTY, Environ: []string{env}})
		update(m, tea.WindowSizeMsg{Width: 240, Height: 60})
		clipboardText(t, update(m, keyMsg("y")))
		if line := ansi.Strip(m.render()); !strings.Contains(line, want) || strings.Contains(line, "✓") {
			t.Errorf("%s: the status line lacks %q (or claims a copy):\n%s", env, want, line)
		}
	}
}

func TestHoverShowsTheRowRangeInTheStatusLine(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.TrueColor)
	target := bucketIndex(t, m, "…mila_rosewood#")
	f := m.frame()
	r := heatRect(f)
	for y := r.Y; y < r.Y+r.H; y++ {
		if hit, ok := f.HitHeat(r.X+3, y); ok && hit.Bucket == target {
			update(m, tea.MouseMotionMsg{X: r.X + 3, Y: y})
			break
		}
	}
	b := m.matrix.Buckets[target]
	want := fmt.Sprintf("bucket %d of %d: [user#mila_rosewood#, %s)", target+1, len(m.matrix.Buckets), b.End)
	if status := ansi.Strip(m.render()); !strings.Contains(status, want) {
		t.Fatalf("hovering the celebrity's row: status line lacks %q:\n%s", want, status)
	}
	if m.current().state.Selected == target && target != 0 {
		t.Fatal("hovering moved the selection")
	}
	// Leaving the heatmap clears it; a real message is not replaced.
	update(m, tea.MouseMotionMsg{X: m.sh.Layout.Findings.X + 2, Y: m.sh.Layout.Findings.Y + 2})
	if strings.Contains(ansi.Strip(m.render()), want) {
		t.Fatal("the hovered range stays after the pointer left the heatmap")
	}
	m.setMessage("a screenshot was saved", false)
	update(m, tea.MouseMotionMsg{X: r.X + 3, Y: r.Y + 1})
	if !strings.Contains(ansi.Strip(m.render()), "a screenshot was saved") {
		t.Fatal("hovering replaced a message")
	}
}

func TestTTogglesTimesInLabels(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "timeseries-timestamp-first"), 200, 60, colorprofile.NoTTY)
	b := &m.matrix.Buckets[1]
	if b.LabelTime == "" {
		t.Fatalf("bucket %q has no label time", b.Label)
	}
	width := render.TextLayout(render.TextOptions{Width: m.sh.Layout.Main.W, Height: m.sh.Layout.Main.H - 1}, m.matrix.Timed()).LabelWidth
	timed := m.matrix.TimedLabels(width)[1]
	if !strings.Contains(timed, b.LabelTime) || strings.Contains(m.render(), timed) {
		t.Fatalf("labels show %q before t", timed)
	}
	press(m, "t")
	screen := ansi.Strip(m.render())
	if !strings.Contains(screen, "\n"+timed) || !strings.Contains(screen, "labels show the UTC time their key holds") {
		t.Fatalf("t: labels lack %q or the status line does not say so:\n%s", timed, screen)
	}
	press(m, "t")
	if strings.Contains(m.render(), timed) {
		t.Fatal("a second t leaves the times")
	}
}
