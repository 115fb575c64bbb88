//go:build slow

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestE2ETerminalCelebrityFlow runs the built btviz binary in tmux exactly
// as the README's first command does (`btviz --emulator`: the embedded
// emulator, every demo table loading in the background) and walks the
// celebrity flow a user would, checking the screen at each step and that
// quitting restores the terminal.
func TestE2ETerminalCelebrityFlow(t *testing.T) {
	btviz, _ := buildBinaries(t)
	shots := t.TempDir()
	start := time.Now()
	term := tuitest.Start(t, tuitest.Options{Width: 200, Height: 60, Dir: shots, Env: []string{
		"BIGTABLE_EMULATOR_HOST=", "HOME=" + t.TempDir(),
	}}, btviz, "--emulator")

	// The picker comes up at once and fills in as the tables load.
	term.WaitFor(t, 30*time.Second, tuitest.PickerShown, "social-celebrity")
	t.Logf("picker on screen after %v", time.Since(start).Round(time.Millisecond))
	tables := len(demo.Scenarios())
	term.WaitFor(t, 2*time.Minute, tuitest.PickerAllLoaded(tables))
	t.Logf("all %d demo tables loaded after %v", tables, time.Since(start).Round(time.Millisecond))

	// Filter the list down to the celebrity tables and open the first:
	// its hotspot is the one bright band.
	term.Send("/")
	term.WaitFor(t, 30*time.Second, tuitest.PickerFilterPrompt)
	term.Type("celebrity")
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, fmt.Sprintf(`2 of %d tables hold "celebrity"`, tables), "social-celebrity-salted")
	term.WaitUntil(t, 30*time.Second, "the other tables filtered out", func(s string) bool { return !strings.Contains(s, "users-reversed-ids") })
	term.Send("Enter")
	term.WaitFor(t, time.Minute, tuitest.ScanComplete, tuitest.HeatmapTitle, tuitest.CelebrityBucket,
		tuitest.CelebrityFinding, tuitest.EmulatorNote, tuitest.GCNote)

	// Its finding: details and advice, then a jump to the celebrity's bucket.
	term.Send("f")
	term.WaitFor(t, 30*time.Second, tuitest.FindingDetails, tuitest.FindingAdvice)
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, "⌂ social-celebrity › user#")
	// Drill into the celebrity's prefix, and back up.
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, tuitest.CelebrityCrumb, "…p000000")
	term.Send("Escape")
	term.WaitUntil(t, 30*time.Second, "the way back up", func(s string) bool { return !strings.Contains(s, tuitest.CelebrityCrumb) })
	// Search a prefix and land on it.
	term.Send("/")
	term.WaitFor(t, 30*time.Second, tuitest.SearchPrompt)
	term.Type(tuitest.CelebrityPrefix)
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, tuitest.CelebrityCrumb)
	// A screenshot lands in the working directory as PNG and SVG.
	term.Send("s")
	term.WaitFor(t, 30*time.Second, tuitest.ScreenshotSaved)
	for _, pattern := range []string{"btviz-social-celebrity-*.png", "btviz-social-celebrity-*.svg"} {
		if matches, _ := filepath.Glob(filepath.Join(shots, pattern)); len(matches) != 1 {
			t.Errorf("screenshot %s: found %v", pattern, matches)
		} else if info, err := os.Stat(matches[0]); err != nil || info.Size() == 0 {
			t.Errorf("screenshot %s is empty", matches[0])
		}
	}
	// Below 80×24 it says so, and it comes back when there is room again.
	term.Resize(70, 20)
	term.WaitFor(t, 30*time.Second, tuitest.TooSmall)
	term.Resize(120, 40)
	term.WaitFor(t, 30*time.Second, tuitest.CelebrityBucket)
	// Quit: the terminal must be as it was.
	term.Send("q")
	term.WaitExit(t, 10*time.Second)
}

// TestE2ETerminalLiveTraffic runs `btviz --emulator --traffic
// read-hotspot` in tmux: the demo workload calls the embedded emulator
// through the recording proxy, and the live view must show the recording
// grow (a new second on the time axis), name the read hotspot on the
// celebrity's prefix in its findings, show her bucket holding most of the
// operations, drill into it, and quit with the terminal restored.
func TestE2ETerminalLiveTraffic(t *testing.T) {
	btviz, _ := buildBinaries(t)
	start := time.Now()
	term := tuitest.Start(t, tuitest.Options{Width: 180, Height: 50, Dir: t.TempDir(), Env: []string{
		"BIGTABLE_EMULATOR_HOST=", "HOME=" + t.TempDir(),
	}}, btviz, "--emulator", "--traffic", "read-hotspot")
	screen := term.WaitFor(t, time.Minute, tuitest.LiveRecording, tuitest.TrafficHeatmap, tuitest.CelebrityBucket)
	t.Logf("live view on screen after %v", time.Since(start).Round(time.Millisecond))
	axis := func(s string) string {
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "┬") {
				return line
			}
		}
		return ""
	}
	first := axis(screen)
	term.WaitUntil(t, 30*time.Second, "a new column on the time axis", func(s string) bool { return axis(s) != first })
	term.WaitUntil(t, time.Minute, "the read hotspot on user#mila_rosewood# in the findings", tuitest.ReadHotspotFinding)
	t.Logf("read hotspot named after %v", time.Since(start).Round(time.Millisecond))
	// Her bucket among the users: most of the operations are hers (the
	// workload sends 80% of its calls there), so it is the brightest.
	term.Send("/")
	term.WaitFor(t, 30*time.Second, tuitest.SearchPrompt)
	term.Type(strings.TrimSuffix(tuitest.CelebrityPrefix, "#"))
	term.Send("Enter")
	term.WaitUntil(t, 30*time.Second, "the celebrity's bucket holding most of the operations", func(s string) bool {
		share, ok := tuitest.SelectedOpsShare(s)
		return ok && share > 50 && slices.Contains(strings.Fields(s), tuitest.CelebrityPrefix) // the bucket's start
	})
	// Back to the table's top level before the next key: a terminal reads
	// Escape and a key that follows it closely as alt+key (seen once in CI
	// under load, where "/" was lost), so the test waits for Escape's effect.
	term.Send("Escape")
	term.WaitUntil(t, 30*time.Second, "the way back to the table's top level", atTopLevel)
	// Drill into the celebrity: her prefix's own view.
	term.Send("/")
	term.WaitFor(t, 30*time.Second, tuitest.SearchPrompt)
	term.Type(tuitest.CelebrityPrefix)
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, tuitest.CelebrityCrumb, tuitest.LiveRecording)
	term.Send("q")
	term.WaitExit(t, 15*time.Second)
}

// atTopLevel reports whether screen's breadcrumb is the table's own, with
// no prefix drilled into.
func atTopLevel(screen string) bool {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "⌂ social-celebrity") {
			return !strings.Contains(line, "›")
		}
	}
	return false
}
