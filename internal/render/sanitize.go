package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
)

// tabWidth is the distance between tab stops, as in a terminal's default.
const tabWidth = 8

// maxSGRParams is the most parameters an SGR sequence may carry. The ansi
// decoder that ultraviolet uses indexes a 32-entry array and panics beyond
// it, so longer sequences are dropped before they reach it.
const maxSGRParams = 32

// cleanFrame is a frame reduced to what a screenshot shows: printable
// grapheme clusters, "\n" and SGR sequences. Everything else is gone.
type cleanFrame struct {
	// text holds the clusters, line breaks and (if kept) SGR sequences.
	text string
	// width is the widest line in cells, height the number of lines; a
	// final "\n" ends the last line rather than starting an empty one.
	width, height int
	// hasSGR reports whether text holds any SGR sequence.
	hasSGR bool
}

// clean turns an arbitrary frame into a [cleanFrame]. The rules, which
// [FrameText], [FrameANSI] and the renderers share:
//
//   - invalid UTF-8 becomes U+FFFD (which also defuses 8-bit C1 controls);
//   - "\r\n" becomes "\n"; a lone "\r" is dropped;
//   - a tab becomes spaces up to the next multiple of 8 columns;
//   - an SGR sequence (ESC [ digits ; : m) is kept if keepSGR, else dropped;
//   - every other escape sequence (cursor movement, OSC including
//     hyperlinks, DCS, APC, …), C0 and C1 control and DEL is dropped;
//   - C1 and bidirectional-override code points are dropped from text, so
//     that the output cannot reorder or reinterpret what a terminal shows;
//   - a zero-width cluster (a combining mark) at the start of a line, where
//     it has no base to combine with, is dropped.
func clean(frame string, keepSGR bool) cleanFrame {
	frame = strings.ToValidUTF8(frame, "\uFFFD")
	var out strings.Builder
	out.Grow(len(frame))
	var cf cleanFrame
	col := 0
	lines := 1
	var state byte
	for len(frame) > 0 {
		// Fast paths for the two commonest cases: printable ASCII not
		// followed by a possible combining mark, and SGR sequences.
		if c := frame[0]; c >= 0x20 && c < 0x7f && (len(frame) == 1 || frame[1] < 0x80) {
			out.WriteByte(c)
			col++
			frame = frame[1:]
			continue
		}
		if n := sgrPrefix(frame); n > 0 {
			if keepSGR {
				out.WriteString(frame[:n])
				cf.hasSGR = true
			}
			frame = frame[n:]
			continue
		}
		// A nil parser: the decoder's parameter collection panics on long
		// sequences, and the raw bytes are all this needs.
		seq, width, n, next := ansi.DecodeSequence(frame, state, nil)
		if n <= 0 {
			seq, width, n = frame[:1], 0, 1
		}
		state, frame = next, frame[n:]
		switch {
		case seq == "\n":
			cf.width = max(cf.width, col)
			out.WriteByte('\n')
			col = 0
			if len(frame) > 0 {
				lines++
			}
		case seq == "\t":
			spaces := tabWidth - col%tabWidth
			out.WriteString(strings.Repeat(" ", spaces))
			col += spaces
		case isSGR(seq):
			if keepSGR {
				out.WriteString(seq)
				cf.hasSGR = true
			}
		case seq[0] < 0x20 || seq[0] == 0x7f:
			// C0 controls, DEL and every 7-bit escape sequence.
		case width > 0:
			if text := printable(seq); text != "" {
				out.WriteString(text)
				col += width
			}
		case seq[0] >= 0xc0 && col > 0:
			out.WriteString(printable(seq))
		}
	}
	cf.width = max(cf.width, col)
	cf.height = lines
	cf.text = out.String()
	return cf
}

// sgrPrefix returns the length of the SGR sequence at the start of s, or 0
// if s does not start with one that [isSGR] accepts.
func sgrPrefix(s string) int {
	if len(s) < 3 || s[0] != ansi.ESC || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			if c == 'm' && isSGR(s[:i+1]) {
				return i + 1
			}
			return 0
		}
	}
	return 0
}

// isSGR reports whether seq is a 7-bit SGR sequence with plain numeric
// parameters and at most [maxSGRParams] of them.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[0] != ansi.ESC || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	params := 1
	for i := 2; i < len(seq)-1; i++ {
		switch c := seq[i]; {
		case c == ';' || c == ':':
			params++
		case c < '0' || c > '9':
			return false
		}
	}
	return params <= maxSGRParams
}

// printable returns s without control, C1 and bidirectional-control code
// points.
func printable(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return -1
		}
		return r
	}, s)
}

// unsafeRune reports whether r must not reach a terminal or a document:
// btviz's one rule ([escape.Unsafe]). A frame has been escaped before it
// gets here; what still slips through is dropped, not escaped, since a
// screenshot cannot say where the text came from.
func unsafeRune(r rune) bool { return escape.Unsafe(r) }
