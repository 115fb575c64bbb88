package render

import (
	"fmt"
	"image/png"
	"io"
	"strings"
	"testing"
)

// bigFrame builds a cols×rows frame shaped like a full-screen btviz view: a
// rounded border, a header line of bold text, a heat map of ▀ cells whose
// two halves all differ in colour, and a footer of key help.
func bigFrame(cols, rows int) string {
	var b strings.Builder
	inner := cols - 2
	b.WriteString("\x1b[38;2;125;86;244m╭" + strings.Repeat("─", inner) + "╮\x1b[m\n")
	header := fmt.Sprintf("\x1b[1mbtviz\x1b[22m — table celebrity — cells written per key bucket × hour%s", strings.Repeat(" ", inner))
	b.WriteString("\x1b[38;2;125;86;244m│\x1b[m" + cutPlain(header, inner) + "\x1b[38;2;125;86;244m│\x1b[m\n")
	for y := range rows - 4 {
		b.WriteString("\x1b[38;2;125;86;244m│\x1b[m")
		label := fmt.Sprintf("user#%04d ", y*37)
		b.WriteString("\x1b[2m" + label + "\x1b[22m")
		for x := range inner - len(label) {
			v := (x*7 + y*13) % 256
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm▀", v, 255-v, (v*3)%256, (v+40)%256, (200+v)%256, 90)
		}
		b.WriteString("\x1b[m\x1b[38;2;125;86;244m│\x1b[m\n")
	}
	help := "↑/↓ move • enter drill down • esc up • tab metric • e export • q quit" + strings.Repeat(" ", inner)
	b.WriteString("\x1b[38;2;125;86;244m│\x1b[m\x1b[38;5;244m" + cutPlain(help, inner) + "\x1b[m\x1b[38;2;125;86;244m│\x1b[m\n")
	b.WriteString("\x1b[38;2;125;86;244m╰" + strings.Repeat("─", inner) + "╯\x1b[m")
	return b.String()
}

// cutPlain cuts s, which may hold SGR sequences, to n columns.
func cutPlain(s string, n int) string {
	var b strings.Builder
	cols := 0
	for i := 0; i < len(s); {
		if s[i] == '\x1b' {
			j := strings.IndexByte(s[i:], 'm')
			b.WriteString(s[i : i+j+1])
			i += j + 1
			continue
		}
		if cols == n {
			break
		}
		r := []rune(s[i:])[0]
		b.WriteRune(r)
		i += len(string(r))
		cols++
	}
	return b.String()
}

func BenchmarkPNG_240x70(b *testing.B) {
	frame := bigFrame(240, 70)
	b.ReportAllocs()
	for b.Loop() {
		if err := FramePNG(io.Discard, frame, FrameOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImage_240x70(b *testing.B) {
	frame := bigFrame(240, 70)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FrameImage(frame, FrameOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVG_240x70(b *testing.B) {
	frame := bigFrame(240, 70)
	b.ReportAllocs()
	for b.Loop() {
		if err := FrameSVG(io.Discard, frame, FrameOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse_240x70(b *testing.B) {
	frame := bigFrame(240, 70)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFrame(frame, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode_240x70 and BenchmarkEncodeStdlib_240x70 compare the PNG
// encoder with image/png's fastest setting on the same screenshot.
func BenchmarkEncode_240x70(b *testing.B) {
	img, err := FrameImage(bigFrame(240, 70), FrameOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var size countingWriter
	for b.Loop() {
		size = 0
		if err := encodePNG(&size, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "bytes")
}

func BenchmarkEncodeStdlib_240x70(b *testing.B) {
	img, err := FrameImage(bigFrame(240, 70), FrameOptions{})
	if err != nil {
		b.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	var size countingWriter
	for b.Loop() {
		size = 0
		if err := enc.Encode(&size, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "bytes")
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
