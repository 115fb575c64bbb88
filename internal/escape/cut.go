package escape

// Ellipsis marks where [CutKey] left bytes out.
const Ellipsis = "…"

// minMiddleCut is the narrowest width at which [CutKey] keeps a key's end.
const minMiddleCut = 12

// CutKey shortens a key written by [Key] to at most width cells (one byte
// of [Key]'s output is one cell). A key too long keeps its start and its
// end around "…": keys in one list share their start and differ at the
// end (an ID, a timestamp), so cutting only the end would show the same
// text for all of them. Below a dozen cells only the start is kept. The
// cut never splits a \xNN escape. A width of 0 or less leaves the key
// whole.
func CutKey(printable string, width int) string {
	s := printable
	if width <= 0 || len(s) <= width {
		return s
	}
	if width < minMiddleCut {
		return s[:escapeBoundary(s, width-1, false)] + Ellipsis
	}
	tail := (width - 1) / 3
	head := width - 1 - tail
	return s[:escapeBoundary(s, head, false)] + Ellipsis + s[escapeBoundary(s, len(s)-tail, true):]
}

// escapeBoundary returns the position nearest to at, in text written by
// [Key], that does not fall inside a \xNN escape: at or before at, or at
// or after it when after is set. Every backslash in such text starts an
// escape.
func escapeBoundary(s string, at int, after bool) int {
	for i := 0; i < len(s); {
		next := i + 1
		if s[i] == '\\' {
			next = min(i+4, len(s))
		}
		if at < next {
			if at == i || !after {
				return i
			}
			return next
		}
		i = next
	}
	return len(s)
}

// WrapKey splits a key written by [Key] into lines of at most width
// cells, never inside a \xNN escape, using at most maxLines lines: when
// the key needs more, the last line holds the rest cut by [CutKey], so
// that the key's end still shows.
func WrapKey(printable string, width, maxLines int) []string {
	s := printable
	if width < minMiddleCut || maxLines < 1 {
		return []string{CutKey(s, width)}
	}
	var lines []string
	for len(s) > width && len(lines) < maxLines-1 {
		at := escapeBoundary(s, width, false)
		lines = append(lines, s[:at])
		s = s[at:]
	}
	return append(lines, CutKey(s, width))
}
