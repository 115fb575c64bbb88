package export

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseSize: any --size either fails with an error that quotes it
// and shows the form to use, or gives a size within the bounds that,
// written back, parses to itself.
func FuzzParseSize(f *testing.F) {
	for _, seed := range []string{"200x60", "80X24", "120×40", " 1x1 ", "x", "99999999999999999999x1", "-5x-5", "0x0", "200x60x3", "２００x６０"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, size string) {
		width, height, err := ParseSize(size)
		if err != nil {
			if !strings.Contains(err.Error(), "size ") {
				t.Fatalf("ParseSize(%q): error %q does not say what was wrong", size, err)
			}
			return
		}
		if width < MinWidth || width > MaxWidth || height < MinHeight || height > MaxHeight {
			t.Fatalf("ParseSize(%q) = %dx%d, outside the bounds", size, width, height)
		}
		w, h, err := ParseSize(fmt.Sprintf("%dx%d", width, height))
		if err != nil || w != width || h != height {
			t.Fatalf("%dx%d does not parse back: %dx%d, %v", width, height, w, h, err)
		}
	})
}
