package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestLargestRowsKeepKeysWhole: the largest-rows list writes each key
// whole when the list has room for it (the time it holds comes only
// beside a whole key), and when it has not, shortens the segments before
// the last two, so that the post and the timestamp that tell the rows
// apart stay whole. It used to cut every key in the middle at 120
// columns, and at 160 to make room for the time.
func TestLargestRowsKeepKeysWhole(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	for _, size := range [][2]int{{120, 40}, {160, 40}, {200, 60}} {
		frame := ansi.Strip(RenderFrame(snap, nil, ViewState{Main: PaneRows}, size[0], size[1], true, colorprofile.NoTTY))
		rows, _ := TopRows(snap)
		shown := 0
		for _, row := range rows {
			key := row.Key.String()
			segments := strings.Split(key, "#")
			tail := strings.Join(segments[len(segments)-2:], "#")
			for _, line := range strings.Split(frame, "\n") {
				line, _, _ = strings.Cut(line, "│") // the list, not the details pane beside it
				if !strings.Contains(line, tail) {
					continue
				}
				shown++
				if size[0] >= 160 && !strings.Contains(line, key) {
					t.Errorf("%dx%d: %q is cut though the list has room for it: %q", size[0], size[1], key, line)
				}
			}
		}
		if shown < 10 {
			t.Errorf("%dx%d: only %d listed rows show their last two segments whole:\n%s", size[0], size[1], shown, frame)
		}
	}
}

func TestCutKeySegments(t *testing.T) {
	key := keyspace.Key("user#valentina_andersen53#p001519#1793319034873")
	for width, want := range map[int]string{
		60: "user#valentina_andersen53#p001519#1793319034873",
		30: "user#va…#p001519#1793319034873",
		29: "us…#va…#p001519#1793319034873",
	} {
		if got := cutKeySegments(key, "#", width); got != want || ansi.StringWidth(got) > width {
			t.Errorf("width %d: %q, want %q", width, got, want)
		}
	}
	for width := 1; width <= 50; width++ {
		for _, k := range []keyspace.Key{key, "a\x00b#\xff\xfe\xfd\xfc\xfb#c", "no-delimiter-at-all-here", "#"} {
			got := cutKeySegments(k, "#", width)
			if w := ansi.StringWidth(got); w > max(width, 1) && len(k.String()) > width {
				t.Errorf("width %d: %q is %d cells", width, got, w)
			}
			if strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r == 0xfffd }) {
				t.Errorf("width %d: %q holds a raw byte", width, got)
			}
		}
	}
}
