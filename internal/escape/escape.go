// Package escape is btviz's one rule for writing text that btviz did not
// write itself: row keys, table, family, project and instance names, and
// every string field of a snapshot or recording file. Every output — the
// terminal, text, Markdown and JSON reports, SVG and PNG screenshots —
// passes such text through [Key] or [Text] first, so that no byte of it
// can move a cursor, change a window title, write the clipboard or reverse
// the order in which a reader sees the text around it.
//
// The rule: a rune is unsafe when [Unsafe] says so (C0 and C1 controls,
// DEL, bidirectional controls, and the invisible formatting, line and
// paragraph separators of Unicode categories Cf, Zl and Zp). An unsafe
// rune, and every byte that is not valid UTF-8, is written as the \xNN
// escapes of its bytes, the same visible way in every output. [Key]
// applies the stricter rule of the snapshot file format on top: every
// byte outside printable ASCII, and the backslash, is escaped, so the
// result is ASCII and reverses exactly (keyspace.ParseKey).
package escape

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// KeyRule names the escaping [Key] applies, as reports state it.
const KeyRule = `printable ASCII kept; backslash and every other byte written as \xNN`

const hexDigits = "0123456789abcdef"

// Key renders a row key (or any byte string that must survive a round
// trip) printably: printable ASCII (0x20–0x7e) is kept, every other byte
// and the backslash itself become \xNN. The result is ASCII, holds no
// control byte, and keyspace.ParseKey reverses it exactly.
func Key(key string) string {
	i := 0
	for i < len(key) && !keyByteNeedsEscape(key[i]) {
		i++
	}
	if i == len(key) {
		return key
	}
	var b strings.Builder
	b.Grow(len(key) + 8)
	b.WriteString(key[:i])
	for ; i < len(key); i++ {
		if c := key[i]; keyByteNeedsEscape(c) {
			writeByteEscape(&b, c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func keyByteNeedsEscape(c byte) bool { return c < 0x20 || c > 0x7e || c == '\\' }

// KeyByteNeedsEscape reports whether [Key] writes byte c as \xNN.
func KeyByteNeedsEscape(c byte) bool { return keyByteNeedsEscape(c) }

// KeyHexFrom is [Key] with every byte from byte from on written as \xNN,
// printable or not: where keys branch on bytes some of which need an
// escape, writing them all alike keeps the escaped keys in the order of
// their bytes (a backslash sorts among the printable bytes).
func KeyHexFrom(key string, from int) string {
	if from >= len(key) {
		return Key(key)
	}
	var b strings.Builder
	b.WriteString(Key(key[:from]))
	for i := from; i < len(key); i++ {
		writeByteEscape(&b, key[i])
	}
	return b.String()
}

// Text renders free text from elsewhere (a name, an error from a server,
// a field of a file) for display: valid UTF-8 that is not [Unsafe] is
// kept as it is, so names in any script read naturally; each unsafe rune
// and each byte that is not UTF-8 becomes the \xNN escapes of its bytes.
// A backslash is kept, so Text is for reading, not for round trips: use
// [Key] for keys.
func Text(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || Unsafe(r) {
			for j := i; j < i+size; j++ {
				writeByteEscape(&b, s[j])
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Quote renders free text as [Text] does, between double quotes: how an
// error names a value it did not write (a table name, a field of a file),
// where Go's %q would write the same text another way (\u202e for what
// [Text] writes \xe2\x80\xae).
func Quote(s string) string { return `"` + Text(s) + `"` }

// Clean reports whether s is already safe: [Text] would return it
// unchanged.
func Clean(s string) bool { return firstUnsafe(s) < 0 }

// firstUnsafe returns the byte offset of the first unsafe rune or invalid
// byte of s, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || Unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}

// Unsafe reports whether r must never reach a terminal or a document as
// itself: a C0 or C1 control or DEL (which terminals act on), a
// bidirectional control (U+061C, U+200E/F, U+202A–E, U+2066–9, which
// reorder the text around them), or any other invisible formatting
// character or line or paragraph separator (Unicode Cf, Zl, Zp: U+200B,
// U+FEFF, U+2028, tag characters, …), which hide or split what a reader
// sees.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r < 0xa0:
		return true // C1 controls: U+009B is CSI to many terminals
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Cc)
}

func writeByteEscape(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0x0f])
}
