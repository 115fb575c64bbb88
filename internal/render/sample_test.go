package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// outDir, if set, receives the sample screenshots for a person to look at:
// go test ./screenshot/ -run TestSample -out /tmp/shots
var outDir = flag.String("out", "", "directory to write sample screenshots to")

// heatRow renders cols cells of ▀ whose top and bottom halves step through
// a gradient, two heat-map rows per terminal row.
func heatRow(cols, row int) string {
	var b strings.Builder
	for x := range cols {
		top := fmt.Sprintf("#%02x%02x%02x", 255*x/max(1, cols-1), 40+row*20, 255-255*x/max(1, cols-1))
		bottom := fmt.Sprintf("#%02x%02x%02x", 255*x/max(1, cols-1), 50+row*20, 200-200*x/max(1, cols-1))
		b.WriteString(lipgloss.NewStyle().Foreground(lipgloss.Color(top)).Background(lipgloss.Color(bottom)).Render("▀"))
	}
	return b.String()
}

// sampleFrame builds a frame like the btviz TUI draws: bordered panels,
// bold and coloured text, a heat map of half blocks, shades, CJK text, a
// hyperlink and the basic and 256-colour palettes.
func sampleFrame() string {
	accent := lipgloss.Color("#7D56F4")
	title := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#FAFAFA")).Background(accent).Padding(0, 1).Render("btviz — table celebrity")
	var heat []string
	for r := range 4 {
		heat = append(heat, heatRow(32, r))
	}
	shades := lipgloss.NewStyle().Foreground(lipgloss.Color("#F25D94")).Render(" ░▒▓█▀▄▌▐▖▗▘▝▚▞")
	heatPanel := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1).
		Render(lipgloss.JoinVertical(lipgloss.Left, title, strings.Join(heat, "\n"), shades))

	text := strings.Join([]string{
		lipgloss.NewStyle().Bold(true).Render("Findings") + " " + lipgloss.NewStyle().Faint(true).Render("(3)"),
		"\x1b[31mred\x1b[0m \x1b[92mbright\x1b[0m \x1b[38;5;208m208\x1b[0m \x1b[7mrev\x1b[0m",
		lipgloss.NewStyle().Italic(true).Render("italic") + " " + lipgloss.NewStyle().Underline(true).Render("under") + " " + lipgloss.NewStyle().Strikethrough(true).Render("strike"),
		"キー設計 表格 ok…",
		"\x1b]8;;https://cloud.google.com/bigtable\x1b\\docs link\x1b]8;;\x1b\\ ⣿⡇⠁",
	}, "\n")
	textPanel := lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(lipgloss.Color("#04B575")).Padding(0, 1).Render(text)

	grid := strings.Join([]string{
		"┏━━┳━━┓ ┌┄┄┬╌╌┐ ╔══╦══╗ ╭──╮",
		"┃ab┃cd┃ ┆ab│cd╎ ║ab║cd║ │╱╲│",
		"┣━━╋━━┫ ├──┼──┤ ╠══╬══╣ │╲╱│",
		"┗━━┻━━┛ └──┴──┘ ╚══╩══╝ ╰──╯",
		"╒═╤═╕ ╓─╥─╖ ┍━┯━┑ ╴╶╵╷╼╾",
	}, "\n")
	gridPanel := lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(0, 1).Render(grid)
	return lipgloss.JoinHorizontal(lipgloss.Top, heatPanel, " ", lipgloss.JoinVertical(lipgloss.Left, textPanel, gridPanel))
}

// TestSample renders the sample frame in both themes and checks that it
// renders; with -out it writes the files for a person to look at.
func TestSample(t *testing.T) {
	frame := sampleFrame()
	for name, opt := range map[string]FrameOptions{
		"dark":  {Title: "btviz — table celebrity — cells written", Padding: 8},
		"light": {Theme: LightFrameTheme(), Scale: 2},
	} {
		var png, svg strings.Builder
		if err := FramePNG(&png, frame, opt); err != nil {
			t.Fatalf("%s: PNG: %v", name, err)
		}
		if err := FrameSVG(&svg, frame, opt); err != nil {
			t.Fatalf("%s: SVG: %v", name, err)
		}
		if *outDir == "" {
			continue
		}
		for ext, data := range map[string]string{"png": png.String(), "svg": svg.String(), "txt": FrameText(frame), "ansi": FrameANSI(frame)} {
			path := filepath.Join(*outDir, "sample-"+name+"."+ext)
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
