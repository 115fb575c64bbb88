package render

import (
	"bytes"
	"testing"
)

// FuzzFrame feeds arbitrary frames to every output: none may panic, fail
// on a frame within the size limits, or let a control byte through.
func FuzzFrame(f *testing.F) {
	for _, frame := range hostileFrames {
		f.Add(frame)
	}
	f.Add(sampleFrame())
	f.Add("╭─╮\n│▀│\n╰─╯")
	f.Fuzz(func(t *testing.T, frame string) {
		if len(frame) > 4000 {
			t.Skip("frame larger than the fuzz budget")
		}
		assertSafe(t, "Text", FrameText(frame), false)
		assertSafe(t, "ANSI", FrameANSI(frame), true)
		opt := FrameOptions{Title: frame, Columns: 80, Rows: 24}
		if cf := clean(frame, false); cf.width <= MaxColumns && cf.height <= MaxRows {
			if size, err := opt.Size(max(1, cf.width), max(1, cf.height)); err == nil && size.X*size.Y <= MaxPixels {
				opt.Columns, opt.Rows = 0, 0 // the inferred size is within the limits
			}
		}
		var svg bytes.Buffer
		if err := FrameSVG(&svg, frame, opt); err != nil {
			t.Fatalf("SVG: %v", err)
		}
		assertSafe(t, "SVG", svg.String(), false)
		readSVG(t, svg.String())
		if _, err := FrameImage(frame, opt); err != nil {
			t.Fatalf("Image: %v", err)
		}
	})
}
