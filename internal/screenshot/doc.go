// Package screenshot turns a rendered terminal frame — the exact string a
// Bubble Tea or lipgloss view draws — into review artifacts: a PNG, an SVG,
// plain text and terminal-safe ANSI text. It needs no terminal; every
// function is a pure function of the frame and its [Options].
//
// [Parse] reads the frame into a [Grid] of cells with ultraviolet's cell
// buffer, so colours (16, 256 and true colour), attributes and wide
// characters are interpreted as Bubble Tea itself would. [PNG] and [Image]
// rasterize the grid with Go Mono; [SVG] writes one element per run of
// same-styled text; [Text] and [ANSI] return the frame's text.
//
// Layout: a cell is 9×18 px at scale 1 (so 200 columns make 1800 px), text
// is 15 px Go Mono; [Options] documents the exact image size with a title
// bar and padding, and [Options.Size] computes it.
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
// ([Text] lists the rules), no output contains a control byte other than
// "\n" (and ESC starting an SGR sequence in [ANSI]), grids are bounded by
// [MaxColumns] and [MaxRows], and raster images also by [MaxPixels].
package screenshot
