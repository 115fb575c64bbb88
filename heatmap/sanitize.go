package heatmap

import (
	"strings"
	"unicode/utf8"
)

// sanitize makes caller-supplied text (titles, table names) safe to print:
// C0 and C1 control characters, DEL and invalid UTF-8 bytes (a lone 0x9b
// is a CSI to some terminals) become "?". Keys never need it: they are
// escaped by keyspace.Printable.
func sanitize(s string) string {
	clean := true
	for i, r := range s {
		if isControl(r) || (r == utf8.RuneError && invalidAt(s, i)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if isControl(r) || (r == utf8.RuneError && invalidAt(s, i)) {
			b.WriteByte('?')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }

// invalidAt reports whether the rune at byte i of s is an encoding error
// rather than a literal U+FFFD.
func invalidAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size <= 1
}
