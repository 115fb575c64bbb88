// Package render draws what btviz shows, in one place and with one font:
// a [heatmap.Matrix] as terminal text ([HeatText], sized by [TextLayout],
// clicks mapped back by [HitTest]) and as a chart image ([ChartPNG],
// [ChartSVG]), and a rendered terminal frame — the exact string the
// interactive view draws — as review artifacts: a PNG, an SVG, plain text
// and terminal-safe ANSI text. Go Mono is parsed once here (font.go) for
// both; no other package draws glyphs. It needs no terminal;
// every function is a pure function of its input and options.
//
// Frames: every function below is a pure function of the frame and its
// [FrameOptions].
//
// [ParseFrame] reads the frame into a [Grid] of cells with ultraviolet's cell
// buffer, so colours (16, 256 and true colour), attributes and wide
// characters are interpreted as Bubble Tea itself would. [FramePNG] and [FrameImage]
// rasterize the grid with Go Mono; [FrameSVG] writes one element per run of
// same-styled text; [FrameText] and [FrameANSI] return the frame's text.
//
// Layout: a cell is 9×18 px at scale 1 (so 200 columns make 1800 px), text
// is 15 px Go Mono; [FrameOptions] documents the exact image size with a title
// bar and padding, and [FrameOptions.Size] computes it.
//
// Box drawing (U+2500–U+257F), block elements (U+2580–U+259F) and braille
// (U+2800–U+28FF) are drawn as shapes in both PNG and SVG, so borders and
// heat-map half blocks are crisp and meet without gaps: lines run through
// each cell's centre at fixed offsets, ▀ and ▄ split a cell exactly, the
// shades ░ ▒ ▓ blend 25/50/75 % of the foreground over the background.
// In the PNG, glyphs Go Mono lacks (CJK, emoji) appear as an outlined box,
// except a few status symbols (✓ ✗ ⚠ ▶ ◆ ⋯ …) that are drawn as shapes.
//
// Frames are untrusted: only printable text, "\n" and SGR sequences survive
// ([FrameText] lists the rules), no output contains a control byte other than
// "\n" (and ESC starting an SGR sequence in [FrameANSI]), grids are bounded by
// [MaxColumns] and [MaxRows], and raster images also by [MaxPixels].
package render
