package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// mustBuild builds the matrix of view v over snap.
func mustBuild(t *testing.T, snap *keyspace.Snapshot, v heatmap.View) *heatmap.Matrix {
	t.Helper()
	m, err := heatmap.Build(snap, v)
	if err != nil {
		t.Fatalf("Build(%+v): %v", v, err)
	}
	return m
}

func profiles() []colorprofile.Profile {
	return []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII, colorprofile.ANSI, colorprofile.ANSI256, colorprofile.TrueColor}
}

// sgr matches a Select Graphic Rendition sequence, the only escape
// sequence the renderer may write.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// unsafeText returns a description of the first byte or rune of out
// that is a control character once SGR sequences are removed, or "".
func unsafeText(out string) string {
	plain := sgr.ReplaceAllString(out, "")
	for i, r := range plain {
		switch {
		case r == '\n':
		case r == utf8.RuneError && !strings.HasPrefix(plain[i:], "\uFFFD"):
			return fmt.Sprintf("invalid UTF-8 byte %#x at %d", plain[i], i)
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			return fmt.Sprintf("control character %U at %d", r, i)
		}
	}
	return ""
}

func assertFrame(t *testing.T, out string, width, height int, what string) {
	t.Helper()
	if width <= 0 || height <= 0 {
		if out != "" {
			t.Fatalf("%s: want no output for %d×%d, got %q", what, width, height, out)
		}
		return
	}
	lines := strings.Split(out, "\n")
	if len(lines) != height {
		t.Fatalf("%s: %d lines, want %d", what, len(lines), height)
	}
	for i, line := range lines {
		if w := ansi.StringWidth(line); w != width {
			t.Fatalf("%s: line %d is %d cells wide, want %d: %q", what, i, w, width, line)
		}
	}
	if bad := unsafeText(out); bad != "" {
		t.Fatalf("%s: %s", what, bad)
	}
}

func TestHeatTextIsExactlyTheAskedSize(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	timed := mustBuild(t, snap, heatmap.View{Rows: 50, Columns: 90})
	untimed := mustBuild(t, snap, heatmap.View{Rows: 50, Metric: heatmap.MetricBytes, Bucketing: heatmap.BucketHeat})
	empty := mustBuild(t, snap, heatmap.View{Start: "x", End: "y", Rows: 5, Columns: 10})
	// Every size in the slow tier; an even sample, the smallest and the
	// largest included, in the fast one.
	widths := tier.Sample([]int{0, 1, 2, 3, 5, 9, 23, 24, 25, 40, 79, 80, 81, 120, 200, 240, 333}, 7)
	heights := tier.Sample([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 24, 70}, 6)
	for _, m := range []*heatmap.Matrix{timed, untimed, empty, nil} {
		for _, p := range profiles() {
			for _, w := range widths {
				for _, h := range heights {
					o := TextOptions{Width: w, Height: h, Profile: p, Title: "celebrity — writes", Selected: &Cell{Bucket: 3, Column: 10},
						Scale: heatmap.Scale{Kind: heatmap.ScaleLog, Brightness: 2}}
					assertFrame(t, HeatText(m, o), w, h, fmt.Sprintf("%v %d×%d", p, w, h))
				}
			}
		}
	}
}

func TestHeatTextWritesNoRawControlBytesFromKeys(t *testing.T) {
	rows := []keyspace.Row{
		{Key: "evil\x1b[2J#1", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "evil\x9b31m#2", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "evil\xc2\x9b#3", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "\x07bell\x00#4", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
		{Key: "plain#5", Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch, 1)}},
	}
	snap := heatmaptest.BuildSnapshot(t, "evil\x1b]0;pwned\x07", rows, keyspace.Options{Delimiters: "#"})
	for _, mode := range heatmap.Bucketings() {
		m := mustBuild(t, snap, heatmap.View{Bucketing: mode, Rows: 10, Columns: 20})
		for _, p := range profiles() {
			o := TextOptions{Width: 60, Height: 12, Profile: p, Title: "table " + m.Table + " \x9b\xc2\x9b", Selected: &Cell{Bucket: 1, Column: 2}}
			out := HeatText(m, o)
			assertFrame(t, out, 60, 12, fmt.Sprintf("%s %v", mode, p))
			if plain := sgr.ReplaceAllString(out, ""); strings.ContainsAny(plain, "\x1b\x9b") || strings.Contains(plain, "\u009b") {
				t.Fatalf("%s %v: raw escape in %q", mode, p, plain)
			}
			if p <= colorprofile.NoTTY && strings.Contains(out, "\x1b") {
				t.Fatalf("%s: NoTTY output has escape sequences", mode)
			}
			if mode == heatmap.BucketPrefix && !strings.Contains(out, `\x1b[2J#`) {
				t.Fatalf("the escaped key should be shown as \\x1b: %q", out)
			}
		}
	}
}

func TestHitTestFindsTheBucketAndColumnUnderTheMouse(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "device-reversed-ts")
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.NoTTY} {
		for _, rows := range []int{5, 60} {
			o := TextOptions{Width: 100, Height: 30, Profile: p}
			l := TextLayout(o, true)
			m := mustBuild(t, snap, heatmap.View{Rows: min(rows, l.KeySamples), Columns: l.HeatWidth / 2})
			last := -1
			for y := l.HeatY; y < l.HeatY+l.HeatLines; y++ {
				hit, ok := HitTest(m, o, l.HeatX+3, y)
				if !ok || hit.Area != HitHeat || hit.Column != 1 || hit.Bucket < last {
					t.Fatalf("%v %d rows: line %d hit %+v %v", p, rows, y, hit, ok)
				}
				last = hit.Bucket
				label, ok := HitTest(m, o, 0, y)
				if !ok || label.Area != HitLabel || label.Bucket != hit.Bucket || label.Column != -1 {
					t.Fatalf("%v: label hit %+v", p, label)
				}
			}
			if last != len(m.Buckets)-1 && p == colorprofile.NoTTY {
				t.Fatalf("%v %d rows: the last line shows bucket %d of %d", p, rows, last, len(m.Buckets))
			}
			axis, ok := HitTest(m, o, l.HeatX+l.HeatWidth-1, l.AxisLine)
			if !ok || axis.Area != HitAxis || axis.Column != m.Columns()-1 || axis.Bucket != -1 {
				t.Fatalf("%v: axis hit %+v", p, axis)
			}
			if _, ok := HitTest(m, o, 5, l.LegendLine); ok {
				t.Fatal("the legend is not clickable")
			}
			if _, ok := HitTest(m, o, 100, 0); ok {
				t.Fatal("outside the frame")
			}
		}
	}
}

func TestSelectionIsMarked(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "device-reversed-ts")
	o := TextOptions{Width: 80, Height: 24, Profile: colorprofile.NoTTY, Selected: &Cell{Bucket: 2, Column: 5}}
	l := TextLayout(o, true)
	m := mustBuild(t, snap, heatmap.View{Rows: 8, Columns: l.HeatWidth})
	lines := strings.Split(HeatText(m, o), "\n")
	for y := l.HeatY; y < l.HeatY+l.HeatLines; y++ {
		hit, _ := HitTest(m, o, l.HeatX, y)
		marked := strings.Contains(lines[y], selectedRowMark)
		if marked != (hit.Bucket == 2) {
			t.Fatalf("line %d (bucket %d) marked %v", y, hit.Bucket, marked)
		}
	}
	if x := strings.Index(lines[l.AxisLine], selectedColumnMark); x < 0 {
		t.Fatal("no column mark on the axis")
	}
}
