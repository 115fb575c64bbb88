package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// FrameText returns the frame as plain text: every escape sequence and control
// byte removed (see the rules below), each tab expanded to spaces up to the
// next multiple of 8 columns, and trailing spaces trimmed from each line. Lines stay separated by "\n", and the result
// ends with "\n" exactly when the frame does. Wide characters appear once
// (they occupy two columns in the grid but are one character of text).
//
// Escapes and control bytes are removed as follows: invalid UTF-8 becomes
// U+FFFD; "\r\n" becomes "\n" and a lone "\r" is dropped; SGR, cursor, OSC
// (including hyperlinks), DCS and every other escape sequence, C0/C1
// controls, DEL and bidirectional-override code points are dropped; a
// combining mark at the start of a line is dropped.
func FrameText(frame string) string {
	lines := strings.Split(clean(frame, false).text, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " ")
	}
	return strings.Join(lines, "\n")
}

// FrameANSI returns the frame reduced to text, "\n" and SGR sequences (colours
// and attributes), so that it is safe to print to a terminal: cursor
// movement, OSC (titles, hyperlinks, clipboard), DCS and all other control
// bytes are removed by the same rules as [FrameText]. Trailing spaces are kept,
// since they may carry a background colour. If any SGR sequence remains, the
// result ends with a reset ("\x1b[m", before a final "\n") so that colours do
// not leak into the shell.
func FrameANSI(frame string) string {
	cf := clean(frame, true)
	if !cf.hasSGR {
		return cf.text
	}
	body, newline := strings.CutSuffix(cf.text, "\n")
	if !strings.HasSuffix(body, ansi.ResetStyle) && !strings.HasSuffix(body, "\x1b[0m") {
		body += ansi.ResetStyle
	}
	if newline {
		body += "\n"
	}
	return body
}
