package keyspace

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/escape"
)

// KeyEscaping names the escaping [Printable] applies, as reports state it.
const KeyEscaping = escape.KeyRule

// Printable renders a row key (or any byte string) so that it is safe to
// print: printable ASCII (0x20–0x7e) is kept, every other byte and the
// backslash itself become \xNN ([escape.Key]). The result never contains
// control bytes and [ParseKey] reverses it exactly.
func Printable(key string) string { return escape.Key(key) }

// ParseKey turns a key written by a user or by [Printable] back into bytes:
// \xNN gives that byte and \\ a backslash; any other character stands for
// itself. It fails on a truncated or malformed escape.
func ParseKey(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			b.WriteByte('\\')
			i++
			continue
		}
		if i+3 < len(s) && s[i+1] == 'x' {
			hi, okHi := hexValue(s[i+2])
			lo, okLo := hexValue(s[i+3])
			if okHi && okLo {
				b.WriteByte(hi<<4 | lo)
				i += 3
				continue
			}
		}
		return "", fmt.Errorf(`key %s: bad escape at byte %d; write a byte as \xNN (two hex digits) and a backslash as \\`, badEscapeContext(s, i), i)
	}
	return b.String(), nil
}

// badEscapeContext quotes the key written s around its bad escape at i
// ([escape.Quote]): a long key (from a file, up to [maxFileKeyBytes]
// escaped) is cut to a few dozen bytes either side, at rune boundaries.
func badEscapeContext(s string, i int) string {
	const around = 24
	if len(s) <= 3*around {
		return escape.Quote(s)
	}
	from, to := max(0, i-around), min(len(s), i+around)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	quoted := escape.Text(s[from:to])
	if from > 0 {
		quoted = escape.Ellipsis + quoted
	}
	if to < len(s) {
		quoted += escape.Ellipsis
	}
	return `"` + quoted + `"`
}

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// PrefixEnd returns the smallest key greater than every key that starts
// with prefix: the exclusive end of the prefix's range. It returns "" (the
// end of the table) when no such key exists (empty prefix or all 0xff).
func PrefixEnd(prefix string) string {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return string(end[:i+1])
		}
	}
	return ""
}

// CommonPrefix returns the longest prefix shared by a and b.
func CommonPrefix(a, b string) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return a[:i]
		}
	}
	return a[:n]
}

// InRange reports whether key lies in [start, end), where an empty end means
// the end of the table.
func InRange(key, start, end string) bool {
	return key >= start && (end == "" || key < end)
}

// EndBefore reports whether the exclusive range end a comes before b, with ""
// meaning the end of the table (greater than every key).
func EndBefore(a, b string) bool {
	switch {
	case a == "":
		return false
	case b == "":
		return true
	}
	return a < b
}

// Key is a row key or key-range bound: raw bytes held in a string. Its
// String method and its JSON/text form are [Printable], so printing a Key
// can never write raw key bytes to a terminal or a report.
type Key string

// String returns the key escaped by [Printable].
func (k Key) String() string { return Printable(string(k)) }

// MarshalText writes the key escaped by [Printable].
func (k Key) MarshalText() ([]byte, error) { return []byte(Printable(string(k))), nil }

// UnmarshalText reads a key escaped by [Printable]; a key of a file is
// at most [maxFileKeyBytes] long.
func (k *Key) UnmarshalText(text []byte) error {
	if len(text) > 4*maxFileKeyBytes { // every byte escaped is 4 characters
		return fmt.Errorf("a key of more than %d bytes; row keys are at most 4 KiB on Cloud Bigtable, and a file holds none over %d KiB", maxFileKeyBytes, maxFileKeyBytes>>10)
	}
	raw, err := ParseKey(string(text))
	if err != nil {
		return err
	}
	if len(raw) > maxFileKeyBytes {
		return fmt.Errorf("a key of %d bytes; row keys are at most 4 KiB on Cloud Bigtable, and a file holds none over %d KiB", len(raw), maxFileKeyBytes>>10)
	}
	*k = Key(raw)
	return nil
}
