package view

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

func TestProgressLineFitsAndHasNoControlBytes(t *testing.T) {
	running := source.Progress{
		RangesDone: 12, RangesTotal: 30, RowsRead: 1_234_567, BytesRead: 99 << 20, Done: 0.41,
		Elapsed: 9 * time.Second, ETA: 13 * time.Second, RowsPerSecond: 180_000,
		Mode: keyspace.ModeSample, Fraction: 0.05, Rescans: 1,
	}
	final := running
	final.Final, final.RangesDone, final.Done = true, 30, 1
	for _, p := range []source.Progress{running, final, {}} {
		for _, width := range []int{10, 40, 79, 120, 200} {
			line := ProgressLine(p, width)
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
	wide := ProgressLine(running, 120)
	for _, want := range []string{"sampling 5%", "41%", "12/30 ranges", "1.23M rows", "180K rows/s", "13s left", "1 re-read", "█"} {
		if !strings.Contains(wide, want) {
			t.Errorf("line %q lacks %q", wide, want)
		}
	}
	if done := ProgressLine(final, 120); !strings.HasPrefix(done, "sampled 5%") || !strings.Contains(done, "in 9s") {
		t.Errorf("final line %q", done)
	}
}
