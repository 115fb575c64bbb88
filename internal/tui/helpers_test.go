package tui

import (
	"context"
	"image/color"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/view"
)

// scenarioSnapshot returns a copy of the snapshot of a demo scenario or
// test table, as `btviz scan` would save it from the demo's emulator.
func scenarioSnapshot(t testing.TB, name string) *keyspace.Snapshot {
	t.Helper()
	return demotest.Snapshot(t, name)
}

// newSnapshotModel returns a model showing snap at width×height, as
// `btviz open` would, with its findings already diagnosed.
func newSnapshotModel(t testing.TB, snap *keyspace.Snapshot, width, height int, profile colorprofile.Profile) *Model {
	t.Helper()
	m := New(context.Background(), Config{
		Snapshot: snap, Findings: diagnose.Diagnose(snap), Source: session.NewSnapshotSource("test.btviz", snap),
		Theme: view.ThemeDark, Profile: profile, ScreenshotDir: t.TempDir(),
		Now: func() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) },
	})
	update(m, tea.ColorProfileMsg{Profile: profile})
	update(m, tea.WindowSizeMsg{Width: width, Height: height})
	return m
}

// update feeds msg to m and returns the command it asks for.
func update(m *Model, msg tea.Msg) tea.Cmd {
	next, cmd := m.Update(msg)
	if next.(*Model) != m {
		panic("Update returned another model")
	}
	return cmd
}

// keyMsg builds the key press of a key name as bubbles' key bindings name
// them: "j", "enter", "esc", "ctrl+c", "L", "/".
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "backspace": tea.KeyBackspace, "tab": tea.KeyTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	}
	if code, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	if name == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// press sends key presses to m and returns the last command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = update(m, keyMsg(k))
	}
	return cmd
}

// typeText types text into m one rune at a time.
func typeText(m *Model, text string) {
	for _, r := range text {
		update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen returns m's frame without escape sequences.
func screen(m *Model) string { return ansi.Strip(m.View().Content) }

// runtime runs a model's commands the way Bubble Tea does, each in a
// goroutine, and feeds their messages back to Update on the test's
// goroutine, until a condition holds.
type runtime struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
	quit bool
}

func newRuntime(t testing.TB, m *Model) *runtime {
	return &runtime{t: t, m: m, msgs: make(chan tea.Msg, 64)}
}

// run starts cmd (and the commands it batches).
func (r *runtime) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if msg != nil {
			r.msgs <- msg
		}
	}()
}

// until feeds messages to the model until cond holds or timeout passes.
func (r *runtime) until(timeout time.Duration, what string, cond func() bool) {
	r.t.Helper()
	deadline := time.After(timeout)
	for !cond() {
		select {
		case msg := <-r.msgs:
			r.handle(msg)
		case <-deadline:
			r.t.Fatalf("timed out after %v waiting for %s; screen:\n%s", timeout, what, screen(r.m))
		}
	}
}

// handle unpacks batches and sequences and updates the model.
func (r *runtime) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, cmd := range msg {
			r.run(cmd)
		}
		return
	case tea.QuitMsg:
		r.quit = true
		return
	}
	if reflect.TypeOf(msg).PkgPath() == "charm.land/bubbletea/v2" {
		return // terminal requests (background colour and the like)
	}
	r.run(update(r.m, msg))
}

// send delivers msg to the model and runs what it asks for.
func (r *runtime) send(msg tea.Msg) { r.run(update(r.m, msg)) }

// press sends key presses through the runtime.
func (r *runtime) press(keys ...string) {
	for _, k := range keys {
		r.send(keyMsg(k))
	}
}

// lipglossWhite is a light terminal background.
var lipglossWhite = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}

// timeoutShort bounds waits on commands that do no network I/O.
const timeoutShort = 5 * time.Second

// heatRect is where the heatmap's cells are drawn: the main area below the
// pane's title line.
func heatRect(f *view.Frame) view.Rect {
	r := f.Layout.Main
	return view.Rect{X: r.X, Y: r.Y + 1, W: r.W, H: max(r.H-1, 0)}
}

// loadingTables counts the picker's tables still loading in the background.
func loadingTables(m *Model) int {
	n := 0
	for _, t := range m.picker.Tables {
		if t.Loading != nil && t.Loading.Err == nil {
			n++
		}
	}
	return n
}

// crumbAt returns the screen column where the breadcrumb segment starting
// with label begins, failing when the breadcrumb line lacks it.
func crumbAt(t *testing.T, m *Model, label string) int {
	t.Helper()
	line := strings.Split(screen(m), "\n")[m.sh.Layout.Header.Y+1]
	i := strings.Index(line, label)
	if i < 0 {
		t.Fatalf("the breadcrumb line %q has no segment %q", line, label)
	}
	return ansi.StringWidth(line[:i])
}
