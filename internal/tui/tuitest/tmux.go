// Package tuitest drives btviz's terminal UI end to end in a real
// terminal: a detached tmux session of a fixed size running the program,
// keys sent with `tmux send-keys`, screens read with `tmux capture-pane`,
// and the terminal's modes (alternate screen, mouse reporting, cursor)
// read back after the program exits, so a test can check that it left the
// terminal clean.
//
// An end-to-end test of the built binary (keys are tmux key names; Send
// pauses between keys so that Escape is never read as alt+key), as
// cmd/btviz's TestE2ETerminalCelebrityFlow runs it:
//
//	term := tuitest.Start(t, tuitest.Options{Width: 200, Height: 60}, "./btviz", "--emulator")
//	term.WaitFor(t, 5*time.Second, tuitest.PickerShown)            // picker on screen at once
//	term.WaitFor(t, 2*time.Minute, tuitest.PickerAllLoaded(18))    // demo scenarios loaded
//	term.Send("/")                                                 // filter the tables
//	term.Type("celebrity")
//	term.Send("Enter", "Enter")                                    // open social-celebrity
//	term.WaitFor(t, time.Minute, tuitest.ScanComplete, tuitest.CelebrityBucket, tuitest.CelebrityFinding)
//	term.Send("f")                                                 // focus the findings
//	term.WaitFor(t, 5*time.Second, tuitest.FindingDetails)
//	term.Send("q")
//	term.WaitExit(t, 5*time.Second)   // exit 0, alternate screen off, mouse off, cursor on
//
// The exported strings below are what the TUI shows at each step. The
// tmux tests of cmd/btviz wait for most of them on the real program; the
// tui package's TestTuitestStringsAreOnScreen checks every one against
// the frames the program draws (TestTuitestStringsAreAllChecked fails
// when one is left out), so a changed wording fails a fast test first.
package tuitest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Strings the TUI shows, for WaitFor.
const (
	// PickerShown is on the picker's second line from its first frame.
	PickerShown = "Pick a table to see its key space"
	// PickerListed is in the picker's status line once tables are listed.
	PickerListed = "enter opens a table"
	// PickerLoading is in the status line while the demo still loads
	// scenarios in the background.
	PickerLoading = "still loading in the background"
	// HeatmapTitle heads the heatmap pane (writes metric, the default).
	HeatmapTitle = "Heatmap · cells written by key and write time"
	// ScanComplete is in the header's first line after a complete full
	// scan; ScanIncomplete after a stopped one.
	ScanComplete   = "full scan · complete"
	ScanIncomplete = "incomplete (cancelled"
	// EmulatorNote and GCNote are the header's notes on an emulator and
	// for the writes metric.
	EmulatorNote = "emulator: boundaries are samples, not tablets"
	GCNote       = "only versions kept by GC are visible"
	// CelebrityBucket is the key-axis label of the celebrity's prefix in
	// social-celebrity's user# view, CelebrityFinding its finding's kind
	// and CelebrityPrefix the prefix it names.
	CelebrityBucket  = "mila_rosewood#"
	CelebrityFinding = "hot-key-range"
	CelebrityPrefix  = "user#mila_rosewood#"
	// CelebrityCrumb is the breadcrumb once drilled into the celebrity.
	CelebrityCrumb = "⌂ social-celebrity › user# › mila_rosewood#"
	// FindingDetails heads the details pane when the findings list has
	// the keyboard; FindingAdvice is in it.
	FindingDetails = "Finding 1 of"
	FindingAdvice  = "Advice"
	// SearchPrompt is the status line while `/` is open;
	// PickerFilterPrompt while it is open in the picker.
	SearchPrompt       = "find prefix:"
	PickerFilterPrompt = "filter tables:"
	// ScreenshotSaved is in the status line after `s`.
	ScreenshotSaved = "screenshot saved: "
	// TooSmall is shown below 80×24.
	TooSmall = "terminal too small: need 80×24"
	// LargestRows heads the `L` view.
	LargestRows = "Largest rows"
	// LiveRecording starts the status line of the live view;
	// TrafficHeatmap heads its heatmap (operations, the default metric of
	// a recording); ReadHotspot is the finding the read-hotspot demo
	// traffic raises.
	LiveRecording  = "● recording"
	TrafficHeatmap = "Heatmap · operations by key and time"
	ReadHotspot    = "read-hotspot"
	// CPUHeatmap heads the heatmap of the cpu metric (hot tablets; the
	// cluster follows); HotTabletsNote is the header's note on it, and
	// SimulatedNote the note on the demo's simulated hot tablets.
	// HotTabletFinding is the kind of their finding.
	CPUHeatmap       = "Heatmap · node CPU % (cluster "
	SimulatedHeatmap = "Heatmap · simulated node CPU % (cluster "
	HotTabletsNote   = "hot tablets: one node's CPU of one cluster"
	SimulatedNote    = "SIMULATED hot tablets"
	HotTabletFinding = "hot-tablet"
)

// ReadHotspotFinding reports whether screen's findings list names the
// read hotspot the read-hotspot demo traffic plants on the celebrity: a
// line with the kind [ReadHotspot] and "prefix user#mila_rosewood#", as
// the list writes a finding (the status line names the workload, which
// has the same name, but no prefix).
func ReadHotspotFinding(screen string) bool {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, ReadHotspot) && strings.Contains(line, "prefix "+CelebrityPrefix) {
			return true
		}
	}
	return false
}

// opsShare is how the details pane writes the selected bucket's share of
// a recording's operations: "ops      1,209  (80% of ops)".
var opsShare = regexp.MustCompile(`\((\d+(?:\.\d+)?)% of ops\)`)

// SelectedOpsShare returns the share of all recorded operations, in
// percent, that the details pane says the selected bucket holds, and
// false when the pane shows no share of operations.
func SelectedOpsShare(screen string) (float64, bool) {
	m := opsShare.FindStringSubmatch(screen)
	if m == nil {
		return 0, false
	}
	share, err := strconv.ParseFloat(m[1], 64)
	return share, err == nil
}

// PickerAllLoaded is the picker's status line once n tables are listed
// and none is still loading.
func PickerAllLoaded(n int) string {
	return fmt.Sprintf("%d tables · / filters · %s", n, PickerListed)
}

// ExitMarker is what the shell prints after the program exits; Start
// wraps the command so that it does.
const ExitMarker = "TUITEST-EXITED rc="

// Options size the terminal and set its environment.
type Options struct {
	// Width and Height are the terminal size (default 200×60).
	Width, Height int
	// Env are extra environment variables (NAME=value) for the program;
	// TERM=xterm-256color and COLORTERM=truecolor are set unless given.
	Env []string
	// Dir is the program's working directory.
	Dir string
}

// Terminal is a tmux session running one program, on a tmux server of
// its own: tests that run at once (in other packages, other checkouts)
// never share a server, so one stopping cannot take another's down.
type Terminal struct {
	session string
	socket  string
}

// tmux is a tmux command against the terminal's own server.
func (term *Terminal) tmux(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-S", term.socket}, args...)...)
}

// Start runs command in a new detached tmux session and closes it when the
// test ends. It skips the test when tmux is not installed.
func Start(t testing.TB, o Options, command ...string) *Terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if o.Width == 0 {
		o.Width, o.Height = 200, 60
	}
	env := []string{"TERM=xterm-256color", "COLORTERM=truecolor"}
	env = append(env, o.Env...)
	var script strings.Builder
	if o.Dir != "" {
		script.WriteString("cd " + shellQuote(o.Dir) + " && ")
	}
	script.WriteString("env")
	for _, e := range env {
		script.WriteString(" " + shellQuote(e))
	}
	for _, arg := range command {
		script.WriteString(" " + shellQuote(arg))
	}
	script.WriteString("; echo " + ExitMarker + "$?; sleep 3600")
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, t.Name())
	dir, err := os.MkdirTemp("", "tuitest") // short: a socket's path has at most 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	term := &Terminal{session: fmt.Sprintf("tuitest-%s-%d", name, time.Now().UnixNano()), socket: filepath.Join(dir, "tmux")}
	out, err := term.tmux("new-session", "-d", "-s", term.session,
		"-x", strconv.Itoa(o.Width), "-y", strconv.Itoa(o.Height), script.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("starting tmux: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_ = term.tmux("kill-server").Run()
		_ = os.RemoveAll(dir)
	})
	return term
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// keyPause separates keys so that a terminal never reads Escape followed
// by a key as alt+key.
const keyPause = 80 * time.Millisecond

// Send sends keys one at a time, as tmux names them ("j", "Enter",
// "Escape", "BSpace", "Tab", "Up", "C-c"), pausing between them.
func (term *Terminal) Send(keys ...string) {
	for _, k := range keys {
		_ = term.tmux("send-keys", "-t", term.session, k).Run()
		time.Sleep(keyPause)
	}
}

// Type sends text literally (no key names).
func (term *Terminal) Type(text string) {
	_ = term.tmux("send-keys", "-t", term.session, "-l", text).Run()
	time.Sleep(keyPause)
}

// Resize changes the terminal's size.
func (term *Terminal) Resize(width, height int) {
	_ = term.tmux("resize-window", "-t", term.session, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height)).Run()
	time.Sleep(keyPause)
}

// Screen returns the visible screen as plain text.
func (term *Terminal) Screen() string { return term.capture() }

func (term *Terminal) capture() string {
	out, err := term.tmux("capture-pane", "-p", "-t", term.session).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// WaitFor polls the screen until it contains every one of wants, and
// returns it; it fails the test with the last screen after timeout
// (times the slack: see [waitSlack]).
func (term *Terminal) WaitFor(t testing.TB, timeout time.Duration, wants ...string) string {
	t.Helper()
	return term.WaitUntil(t, timeout, strings.Join(wants, " and "), func(screen string) bool {
		for _, w := range wants {
			if !strings.Contains(screen, w) {
				return false
			}
		}
		return true
	})
}

// WaitUntil polls the screen until cond holds; it fails the test with
// the last screen after timeout (times the slack: see [waitSlack]).
func (term *Terminal) WaitUntil(t testing.TB, timeout time.Duration, what string, cond func(screen string) bool) string {
	t.Helper()
	timeout = slack(timeout)
	deadline := time.Now().Add(timeout)
	screen := ""
	for {
		screen = term.Screen()
		if cond(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s; the screen is:\n%s", timeout, what, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Modes are the terminal modes tmux reports for the pane.
type Modes struct {
	AltScreen, Mouse, CursorVisible bool
}

// Modes reads the pane's terminal modes.
func (term *Terminal) Modes() Modes {
	out, _ := term.tmux("display-message", "-p", "-t", term.session,
		"#{alternate_on} #{mouse_any_flag} #{mouse_standard_flag} #{mouse_button_flag} #{cursor_flag}").Output()
	f := strings.Fields(string(bytes.TrimSpace(out)))
	on := func(i int) bool { return i < len(f) && f[i] == "1" }
	return Modes{AltScreen: on(0), Mouse: on(1) || on(2) || on(3), CursorVisible: on(4)}
}

// Title is the pane's title, which a program sets with OSC 0 or 2; the
// test fails when tmux cannot say.
func (term *Terminal) Title(t testing.TB) string {
	t.Helper()
	out, err := term.tmux("display-message", "-p", "-t", term.session, "#{pane_title}").Output()
	if err != nil {
		t.Fatalf("reading the pane's title: %v", err)
	}
	return string(bytes.TrimSpace(out))
}

// WaitExit waits for the program to exit and checks it left the terminal
// clean: exit status 0, no alternate screen, mouse reporting off, cursor
// shown. It returns the screen after the exit.
func (term *Terminal) WaitExit(t testing.TB, timeout time.Duration) string {
	t.Helper()
	screen := term.WaitFor(t, timeout, ExitMarker)
	if !strings.Contains(screen, ExitMarker+"0") {
		t.Errorf("the program exited with a failure:\n%s", screen)
	}
	if m := term.Modes(); m.AltScreen || m.Mouse || !m.CursorVisible {
		t.Errorf("the terminal was not restored: %+v", m)
	}
	return screen
}
