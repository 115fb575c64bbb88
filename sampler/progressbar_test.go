package sampler

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/keyspace"
)

func TestLineFitsAndHasNoControlBytes(t *testing.T) {
	running := Progress{
		RangesDone: 12, RangesTotal: 30, RowsRead: 1_234_567, BytesRead: 99 << 20, Done: 0.41,
		Elapsed: 9 * time.Second, ETA: 13 * time.Second, RowsPerSecond: 180_000,
		Mode: keyspace.ModeSample, Fraction: 0.05, Rescans: 1,
	}
	final := running
	final.Final, final.RangesDone, final.Done = true, 30, 1
	for _, p := range []Progress{running, final, {}} {
		for _, width := range []int{10, 40, 79, 120, 200} {
			line := Line(p, width)
			if w := ansi.StringWidth(line); w > width {
				t.Errorf("width %d: line is %d cells: %q", width, w, line)
			}
			for _, r := range line {
				if r < 0x20 || r == 0x7f {
					t.Errorf("control byte %#x in %q", r, line)
				}
			}
		}
	}
	wide := Line(running, 120)
	for _, want := range []string{"sampling 5%", "41%", "12/30 ranges", "1.23M rows", "180K rows/s", "ETA 13s", "1 re-read", "█"} {
		if !strings.Contains(wide, want) {
			t.Errorf("line %q lacks %q", wide, want)
		}
	}
	if done := Line(final, 120); !strings.HasPrefix(done, "sampled 5%") || !strings.Contains(done, "in 9s") {
		t.Errorf("final line %q", done)
	}
}

func TestBarIsExact(t *testing.T) {
	for _, tc := range []struct {
		share float64
		cells int
		want  string
	}{
		{0, 4, "    "}, {1, 4, "████"}, {0.5, 4, "██  "}, {0.55, 4, "██▏ "}, {2, 3, "███"}, {-1, 2, "  "},
	} {
		if got := bar(tc.share, tc.cells); got != tc.want || ansi.StringWidth(got) != tc.cells {
			t.Errorf("bar(%v, %d) = %q, want %q", tc.share, tc.cells, got, tc.want)
		}
	}
}

func TestBarIsSilentOffTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "progress")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := NewBar(f)
	b.Update(Progress{RangesTotal: 3, Final: true})
	if info, _ := f.Stat(); info.Size() != 0 {
		t.Fatalf("the bar wrote %d bytes to a file", info.Size())
	}
}

func TestHumanDuration(t *testing.T) {
	for got, want := range map[string]string{
		humanDuration(45 * time.Second): "45s", humanDuration(185 * time.Second): "3m05s", humanDuration(130 * time.Minute): "2h10m",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
