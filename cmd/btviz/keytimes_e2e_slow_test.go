//go:build slow

package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestE2ETerminalKeyTimes runs the built btviz in tmux on the three demo
// tables whose keys hold times, as `btviz --emulator --table T` does, and
// checks what a user reads: the details pane and the largest-rows list
// write the time a key's digits stand for beside them, t writes it in the
// key labels, and y says it sent the selected bucket's start key to the
// clipboard, and that inside tmux it arrives only with set-clipboard on.
func TestE2ETerminalKeyTimes(t *testing.T) {
	t.Parallel() // long, and needs nothing another test writes: runs beside the other such tests
	btviz, _ := buildBinaries(t)
	tables := []struct {
		table string
		// drill is a prefix to search for first ("" stays on the first
		// screen), keyTime the form of a key's time in the details pane.
		drill   string
		keyTime *regexp.Regexp
	}{
		{"timeseries-timestamp-first", "", regexp.MustCompile(`\b\d{13} \(20\d\d-\d\d-\d\d \d\d:\d\d:\d\dZ\)`)},
		{"timeseries-reversed-ts", "machine_1032405#", regexp.MustCompile(`\b\d{19} \(reversed: 20\d\d-\d\d-\d\d \d\d:\d\d:\d\dZ\)`)},
		{"phone-device-day", "phone#00001a5d#", regexp.MustCompile(`\b20\d{6} \(20\d\d-\d\d-\d\d\)`)},
	}
	// labelTime is a heatmap row's label followed by its time, with or
	// without the year and seconds.
	labelTime := regexp.MustCompile(`^\S+ (rev )?(20\d\d-)?\d\d-\d\d\b`)
	// rowTime is a row key with its time, in any of the forms that fit
	// beside the whole key (the year and the seconds go first).
	rowTime := regexp.MustCompile(`#\S+ \((reversed: )?(20\d\d-)?\d\d-\d\d( \d\d:\d\d(:\d\d)?Z?)?\)`)
	for _, tt := range tables {
		t.Run(tt.table, func(t *testing.T) {
			term := tuitest.Start(t, tuitest.Options{Width: 200, Height: 60, Dir: t.TempDir(), Env: []string{
				"BIGTABLE_EMULATOR_HOST=", "HOME=" + t.TempDir(),
			}}, btviz, "--emulator", "--table", tt.table)
			term.WaitFor(t, time.Minute, tuitest.ScanComplete, tuitest.HeatmapTitle)
			if tt.drill != "" {
				term.Send("/")
				term.WaitFor(t, 30*time.Second, tuitest.SearchPrompt)
				term.Type(tt.drill)
				term.Send("Enter")
				term.WaitFor(t, 30*time.Second, "› "+strings.TrimSuffix(tt.drill[strings.IndexByte(tt.drill, '#')+1:], "#"))
				term.Send("Down") // a bucket whose start holds a time
			}
			// The details pane: the selected bucket's range, and the time
			// its bound and its largest rows hold.
			term.WaitUntil(t, 30*time.Second, "a key's time in the details pane", tt.keyTime.MatchString)
			term.WaitUntil(t, 30*time.Second, "a time beside the details pane's largest rows", func(s string) bool {
				return strings.Contains(s, "Largest rows here") && rowTime.MatchString(s)
			})
			// t: the labels show times too.
			term.Send("t")
			term.WaitFor(t, 30*time.Second, "labels show the UTC time their key holds")
			term.WaitUntil(t, 30*time.Second, "a label with its time", func(screen string) bool {
				for _, line := range strings.Split(screen, "\n") {
					label, _, _ := strings.Cut(line, "│")
					if labelTime.MatchString(label) {
						return true
					}
				}
				return false
			})
			// y: the selected bucket's start key, said in the status line.
			term.Send("y")
			term.WaitFor(t, 30*time.Second, "sent the ", "key of bucket ", "to the clipboard; inside tmux it reaches the clipboard only with")
			// The largest-rows list: every key with its time.
			term.Send("L")
			term.WaitUntil(t, 30*time.Second, "the largest-rows list, a time beside each key", func(screen string) bool {
				listed := 0
				for _, line := range strings.Split(screen, "\n") {
					if rowTime.MatchString(line) {
						listed++
					}
				}
				return strings.Contains(screen, "row key") && listed >= 5
			})
			term.Send("q")
			term.WaitExit(t, 10*time.Second)
		})
	}
}
