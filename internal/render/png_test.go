package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decodePNG renders the frame through [FramePNG] and decodes the result.
func decodePNG(t *testing.T, frame string, opt FrameOptions) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := FramePNG(&buf, frame, opt); err != nil {
		t.Fatalf("PNG: %v", err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("decode PNG: %v", err)
	}
	return img
}

// rgbAt returns the opaque colour of a pixel.
func rgbAt(img image.Image, x, y int) color.RGBA {
	return toRGBA(img.At(x, y))
}

func TestPNGSize(t *testing.T) {
	frame := "0123456789\nab\n\x1b[1mxyz\x1b[0m"
	img := decodePNG(t, frame, FrameOptions{})
	if got, want := img.Bounds().Size(), image.Pt(10*DefaultCellWidth, 3*DefaultCellHeight); got != want {
		t.Errorf("no title, no padding: size %v, want cols×cellW × rows×cellH = %v", got, want)
	}
	opt := FrameOptions{Title: "btviz — table celebrity — cells written", Padding: 6, Scale: 2, CellWidth: 8, CellHeight: 16}
	img = decodePNG(t, frame, opt)
	want := image.Pt(10*8*2+2*6*2, (3+1)*16*2+2*6*2)
	if got := img.Bounds().Size(); got != want {
		t.Errorf("title, padding 6, scale 2, 8×16 cells: size %v, want %v", got, want)
	}
	if size, err := opt.Size(10, 3); err != nil || size != want {
		t.Errorf("Options.Size(10, 3) = %v, %v; want %v", size, err, want)
	}
}

func TestPNGDefaultWidthFor200Columns(t *testing.T) {
	size, err := FrameOptions{}.Size(200, 50)
	if err != nil {
		t.Fatal(err)
	}
	if size.X < 1200 {
		t.Errorf("a 200-column frame is %d px wide, want at least 1200", size.X)
	}
}

func TestPNGCellColours(t *testing.T) {
	red := "\x1b[48;2;255;0;0m \x1b[0m"
	half := "\x1b[38;2;0;255;0;48;2;0;0;255m▀\x1b[0m"
	full := "\x1b[38;2;255;255;0m█\x1b[0m"
	shade := "\x1b[38;2;255;255;255;48;2;0;0;0m▒\x1b[0m"
	lower := "\x1b[38;2;0;255;0;48;2;0;0;255m▄\x1b[0m"
	img := decodePNG(t, red+half+full+shade+lower, FrameOptions{})
	cw, ch := DefaultCellWidth, DefaultCellHeight
	for _, tc := range []struct {
		what string
		x, y int
		want color.RGBA
	}{
		{"bg #ff0000 cell, top-left corner", 0, 0, color.RGBA{255, 0, 0, 255}},
		{"bg #ff0000 cell, bottom-right corner", cw - 1, ch - 1, color.RGBA{255, 0, 0, 255}},
		{"▀ top half is fg", cw + cw/2, 1, color.RGBA{0, 255, 0, 255}},
		{"▀ just above the middle is fg", cw + cw/2, ch/2 - 1, color.RGBA{0, 255, 0, 255}},
		{"▀ just below the middle is bg", cw + cw/2, ch / 2, color.RGBA{0, 0, 255, 255}},
		{"▀ bottom half is bg", cw + cw/2, ch - 1, color.RGBA{0, 0, 255, 255}},
		{"█ top-left is fg", 2 * cw, 0, color.RGBA{255, 255, 0, 255}},
		{"█ bottom-right is fg", 3*cw - 1, ch - 1, color.RGBA{255, 255, 0, 255}},
		{"▒ is fg and bg blended half and half", 3*cw + 3, ch / 2, color.RGBA{128, 128, 128, 255}},
		{"▄ top half is bg", 4*cw + 1, ch/2 - 1, color.RGBA{0, 0, 255, 255}},
		{"▄ bottom half is fg", 4*cw + 1, ch / 2, color.RGBA{0, 255, 0, 255}},
	} {
		if got := rgbAt(img, tc.x, tc.y); got != tc.want {
			t.Errorf("%s: pixel (%d,%d) = %v, want %v", tc.what, tc.x, tc.y, got, tc.want)
		}
	}
}

func TestPNGThemeDefaultsAndReverse(t *testing.T) {
	for _, theme := range []FrameTheme{DarkFrameTheme(), LightFrameTheme()} {
		img := decodePNG(t, "a\x1b[7m \x1b[0m", FrameOptions{Theme: theme})
		if got, want := rgbAt(img, 0, 0), toRGBA(theme.Background); got != want {
			t.Errorf("default background = %v, want %v", got, want)
		}
		if got, want := rgbAt(img, DefaultCellWidth, 0), toRGBA(theme.Foreground); got != want {
			t.Errorf("reversed blank = %v, want the foreground %v", got, want)
		}
	}
}

// components counts the connected groups of pixels close to fg: 4-connected,
// or 8-connected if diagonal (for anti-aliased curves one pixel thick).
func components(img image.Image, fg color.RGBA, diagonal bool) int {
	steps := []image.Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	if diagonal {
		steps = append(steps, image.Pt(1, 1), image.Pt(1, -1), image.Pt(-1, 1), image.Pt(-1, -1))
	}
	b := img.Bounds()
	near := func(x, y int) bool {
		c := rgbAt(img, x, y)
		d := func(p, q uint8) int { return max(int(p)-int(q), int(q)-int(p)) }
		return d(c.R, fg.R)+d(c.G, fg.G)+d(c.B, fg.B) < 200
	}
	seen := make([]bool, b.Dx()*b.Dy())
	count := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if seen[y*b.Dx()+x] || !near(x, y) {
				continue
			}
			count++
			stack := []image.Point{{x, y}}
			seen[y*b.Dx()+x] = true
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, d := range steps {
					q := p.Add(d)
					if q.In(b) && !seen[q.Y*b.Dx()+q.X] && near(q.X, q.Y) {
						seen[q.Y*b.Dx()+q.X] = true
						stack = append(stack, q)
					}
				}
			}
		}
	}
	return count
}

func TestPNGBoxDrawingIsContinuous(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  int  // connected line shapes
		round bool // curves: count diagonal neighbours as connected
	}{
		{"light", "┌──┬─┐\n│  │ │\n├──┼─┤\n└──┴─┘", 1, false},
		{"heavy", "┏━━┳━┓\n┃  ┃ ┃\n┣━━╋━┫\n┗━━┻━┛", 1, false},
		{"rounded", "╭───╮\n│   │\n╰───╯", 1, true},
		{"half lines", "╶─╴ ╷\n    │\n    ╵", 2, false},
		{"double", "╔══╗\n║  ║\n╚══╝", 2, false},
		{"double crossing", "╔═╦═╗\n╠═╬═╣\n╚═╩═╝", 5, false},
		{"mixed", "╒═╤═╕\n╞═╪═╡\n╘═╧═╛", 1, false},
		{"mixed heavy and light", "┍━┯━┑\n┝━┿━┥\n┕━┷━┙", 1, false},
		{"lipgloss thick", "┏━┓\n┗━┛", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, scale := range []int{1, 2, 3} {
				white := color.RGBA{255, 255, 255, 255}
				img := decodePNG(t, "\x1b[38;2;255;255;255m"+strings.ReplaceAll(tc.frame, "\n", "\n\x1b[38;2;255;255;255m"), FrameOptions{Scale: scale})
				if got := components(img, white, tc.round); got != tc.want {
					t.Errorf("scale %d: %d separate line shapes, want %d", scale, got, tc.want)
				}
			}
		})
	}
}

func TestPNGLinesMeetAcrossCells(t *testing.T) {
	// A horizontal line through a row of cells covers one pixel row from the
	// first cell's centre to the last's, without a gap at any cell edge.
	img := decodePNG(t, "\x1b[38;2;255;255;255m╶────╴", FrameOptions{})
	white := color.RGBA{255, 255, 255, 255}
	mid := 3*DefaultCellWidth + DefaultCellWidth/2
	lineY := -1
	for y := range DefaultCellHeight {
		if rgbAt(img, mid, y) == white {
			lineY = y
			break
		}
	}
	if lineY < 0 {
		t.Fatal("no line found in the middle cell")
	}
	for x := DefaultCellWidth/2 + 1; x < 5*DefaultCellWidth+DefaultCellWidth/2; x++ {
		if got := rgbAt(img, x, lineY); got != white {
			t.Fatalf("gap at x=%d on the line at y=%d: %v", x, lineY, got)
		}
	}
}

// inked counts the pixels of a cell that differ from bg.
func inked(img image.Image, cell image.Rectangle, bg color.RGBA) int {
	n := 0
	for y := cell.Min.Y; y < cell.Max.Y; y++ {
		for x := cell.Min.X; x < cell.Max.X; x++ {
			if rgbAt(img, x, y) != bg {
				n++
			}
		}
	}
	return n
}

func TestPNGText(t *testing.T) {
	bg := toRGBA(DarkFrameTheme().Background)
	cell := func(col int) image.Rectangle {
		return image.Rect(col*DefaultCellWidth, 0, (col+1)*DefaultCellWidth, DefaultCellHeight)
	}
	img := decodePNG(t, "A\x1b[1mA\x1b[0m \x1b[4m \x1b[0m", FrameOptions{})
	regular, bold := inked(img, cell(0), bg), inked(img, cell(1), bg)
	if regular == 0 {
		t.Fatal("the letter A left its cell blank")
	}
	if bold <= regular {
		t.Errorf("bold A inks %d pixels, regular %d; want more", bold, regular)
	}
	if n := inked(img, cell(2), bg); n != 0 {
		t.Errorf("a blank cell inks %d pixels", n)
	}
	if n := inked(img, cell(3), bg); n == 0 {
		t.Error("an underlined blank shows no underline")
	}
	if got := rgbAt(img, 0, 0); got != bg {
		t.Errorf("corner of the A cell = %v, want the background %v", got, bg)
	}
}

func TestPNGMissingGlyphsShowABox(t *testing.T) {
	bg := toRGBA(DarkFrameTheme().Background)
	for _, glyph := range []string{"表", "😀", "\u4e00", "\U0010FFFD", "🏳️‍🌈", "\U0001F468\u200d\U0001F469"} {
		img := decodePNG(t, "x"+glyph+"x", FrameOptions{})
		if n := inked(img, image.Rect(DefaultCellWidth, 0, 2*DefaultCellWidth, DefaultCellHeight), bg); n == 0 {
			t.Errorf("%q: left its cell blank, want a replacement box", glyph)
		}
	}
}

func TestPNGHostileFrames(t *testing.T) {
	for _, frame := range hostileFrames {
		decodePNG(t, frame, FrameOptions{Title: frame})
	}
}

func TestPNGRejectsBadOptions(t *testing.T) {
	for _, opt := range []FrameOptions{
		{Scale: -1}, {Scale: MaxScale + 1}, {CellWidth: -3}, {CellHeight: MaxCellSize + 1},
		{Padding: -1}, {FontSize: -2}, {Columns: MaxColumns + 1}, {Rows: -1},
		{Columns: MaxColumns, Rows: MaxRows, Scale: 4},
	} {
		if err := FramePNG(&bytes.Buffer{}, "x", opt); err == nil {
			t.Errorf("PNG with %+v: no error", opt)
		}
	}
}

func TestEncodePNGRoundTrip(t *testing.T) {
	for _, opt := range []FrameOptions{{Scale: 2}, {Theme: LightFrameTheme(), Padding: 3, Title: "t"}} {
		img, err := FrameImage(sampleFrame(), opt)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if back.Bounds() != img.Bounds() {
			t.Fatalf("decoded size %v, want %v", back.Bounds(), img.Bounds())
		}
		for y := range img.Rect.Dy() {
			for x := range img.Rect.Dx() {
				if got, want := rgbAt(back, x, y), img.RGBAAt(x, y); got != want {
					t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, got, want)
				}
			}
		}
	}
}

// updateGolden is the golden package's -update flag.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestPNGGolden(t *testing.T) {
	for name, opt := range map[string]FrameOptions{
		"dark":  {Title: "btviz — table celebrity — cells written", Padding: 8},
		"light": {Theme: LightFrameTheme()},
	} {
		t.Run(name, func(t *testing.T) {
			img, err := FrameImage(sampleFrame(), opt)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", t.Name()+".png")
			if updateGolden() {
				var buf bytes.Buffer
				if err := encodePNG(&buf, img); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if want.Bounds() != img.Bounds() {
				t.Fatalf("size %v, golden %v", img.Bounds(), want.Bounds())
			}
			diff := 0
			for y := range img.Rect.Dy() {
				for x := range img.Rect.Dx() {
					if rgbAt(want, x, y) != img.RGBAAt(x, y) {
						diff++
					}
				}
			}
			if diff > 0 {
				t.Errorf("%d pixels differ from %s (look at it, then run with -update)", diff, path)
			}
		})
	}
}

func TestPNGPaletteAndFaint(t *testing.T) {
	theme := DarkFrameTheme()
	theme.ANSI[1] = color.RGBA{0x12, 0x34, 0x56, 0xff}
	img := decodePNG(t, "\x1b[31m█\x1b[0m\x1b[38;5;1m█\x1b[0m\x1b[2;38;2;255;255;255;48;2;0;0;0m█", FrameOptions{Theme: theme})
	for col, want := range []color.RGBA{theme.ANSI[1].(color.RGBA), theme.ANSI[1].(color.RGBA), {128, 128, 128, 255}} {
		if got := rgbAt(img, col*DefaultCellWidth+4, 9); got != want {
			t.Errorf("cell %d = %v, want %v", col, got, want)
		}
	}
}

func TestPNGLayoutWithTitleAndPadding(t *testing.T) {
	theme := DarkFrameTheme()
	opt := FrameOptions{Title: "title", Padding: 5, Scale: 2}
	img := decodePNG(t, "\x1b[48;2;255;0;0m  \x1b[0m\nxy", opt)
	pad, cw, ch := 5*2, DefaultCellWidth*2, DefaultCellHeight*2
	for _, tc := range []struct {
		what string
		x, y int
		want color.RGBA
	}{
		{"padding, top-left", 0, 0, toRGBA(theme.Background)},
		{"padding, bottom-right", 2*cw + 2*pad - 1, 3*ch + 2*pad - 1, toRGBA(theme.Background)},
		{"title bar, first pixel", pad, pad, toRGBA(theme.TitleBackground)},
		{"title bar, last pixel", pad + 2*cw - 1, pad + ch - 1, toRGBA(theme.TitleBackground)},
		{"grid origin", pad, pad + ch, color.RGBA{255, 0, 0, 255}},
		{"grid row 0 end", pad + 2*cw - 1, pad + 2*ch - 1, color.RGBA{255, 0, 0, 255}},
		{"grid row 1 corner", pad, pad + 2*ch, toRGBA(theme.Background)},
	} {
		if got := rgbAt(img, tc.x, tc.y); got != tc.want {
			t.Errorf("%s: pixel (%d,%d) = %v, want %v", tc.what, tc.x, tc.y, got, tc.want)
		}
	}
}
