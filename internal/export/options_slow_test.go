//go:build slow

package export

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestLargestSizeOfEachFormatIsWritten: the largest --size each format
// advertises is written, checked up front rather than after the frame was
// drawn: an .svg at 1000x499 (which failed after all the work, with a
// library's message about Options.Scale), a .png at the largest sizes
// its pixel budget holds; one cell more is refused at once, in --size's
// words, with sizes that work.
func TestLargestSizeOfEachFormatIsWritten(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	tallest, widest := largestPNG(MaxWidth, MaxHeight)
	if tallest != 413 || widest != 828 {
		t.Errorf("a PNG holds 1000x%d and %dx499, want 1000x413 and 828x499 (64 MP at 9×18 px a cell, title row included)", tallest, widest)
	}
	for _, tc := range []struct{ out, size string }{
		{"max.svg", fmt.Sprintf("%dx%d", MaxWidth, MaxHeight)},
		{"max.txt", fmt.Sprintf("%dx%d", MaxWidth, MaxHeight)},
		{"tall.png", fmt.Sprintf("%dx%d", MaxWidth, tallest)},
		{"wide.png", fmt.Sprintf("%dx%d", widest, MaxHeight)},
	} {
		o, err := ParseOptions(Flags{Out: tc.out, Size: tc.size})
		if err != nil {
			t.Errorf("--size %s --out %s: %v", tc.size, tc.out, err)
			continue
		}
		if err := Write(filepath.Join(t.TempDir(), tc.out), snap, findings, o); err != nil {
			t.Errorf("--size %s --out %s: %v", tc.size, tc.out, err)
		}
	}
	for size, fits := range map[string]string{"1000x414": "1000x413", "829x499": "828x499", "1000x499": "1000x413"} {
		_, err := ParseOptions(Flags{Out: "a.png", Size: size})
		if err == nil {
			t.Errorf("--size %s --out a.png: no error", size)
			continue
		}
		for _, want := range []string{"--size", fits, "an .svg, .txt or .ansi takes every size up to 1000x499"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("--size %s: %q lacks %q", size, err, want)
			}
		}
	}
	if help := SizeLimits(); !strings.Contains(help, "at most 1000x499; a .png at most 64 megapixels, e.g. 1000x413 or 828x499") {
		t.Errorf("--size's help: %q", help)
	}
}
