package diagnose

import (
	"math"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/keytime"
)

// segmentClass is what one key segment (a field between delimiters) looks
// like. Classes are tried in declaration order of [classifySegment]'s
// checks: binary first, then personal data, times, integers, hashes,
// domains, and plain text last.
type segmentClass uint8

const (
	classEmpty segmentClass = iota
	classText
	// classInteger is decimal digits that are not a plausible time.
	classInteger
	// classTimestamp is epoch seconds, milliseconds, microseconds or
	// nanoseconds in the plausible span of [keytime.Decode].
	classTimestamp
	// classReversedTimestamp is Long.MAX_VALUE minus such a timestamp.
	classReversedTimestamp
	// classDate is a calendar date or date-time: 20261015, 2026101512,
	// 2026-10-15, 2026-10-15T12:00:00Z.
	classDate
	// classHex is a hexadecimal string of at least [minHexDigits] digits
	// with at least one letter, or a UUID.
	classHex
	// classBase64 is a base64 or base64url string of at least
	// [minBase64Chars] characters mixing upper case, lower case and digits.
	classBase64
	classEmail
	classPhone
	// classDomain is a host name, forward or reversed (see
	// [hostOrientation]).
	classDomain
	// classBinary holds control bytes or bytes that are not UTF-8.
	classBinary
	numClasses
)

// classNames name the classes in evidence and tests.
var classNames = [numClasses]string{
	"empty", "text", "integer", "timestamp", "reversed-timestamp", "date",
	"hex", "base64", "email", "phone", "domain", "binary",
}

// String names the class, as tests and debugging print it.
func (c segmentClass) String() string {
	if c >= numClasses {
		return "unknown"
	}
	return classNames[c]
}

const (
	// minHexDigits is the shortest run of hex digits classed as hex.
	minHexDigits = 8
	// minBase64Chars is the shortest string classed as base64: 12 bytes
	// encoded, shorter than any hash or random ID worth the name.
	minBase64Chars = 16
)

// classifySegment says what one delimiter-free key segment looks like.
func classifySegment(field string) segmentClass {
	switch {
	case field == "":
		return classEmpty
	case isBinary(field):
		return classBinary
	case isEmail(field):
		return classEmail
	case isPhone(field):
		return classPhone
	}
	if keytime.Digits(field) {
		return classifyDigits(field)
	}
	switch {
	case keytime.IsFormattedDate(field):
		return classDate
	case isHex(field):
		return classHex
	case isBase64(field):
		return classBase64
	case hostOrientation(field) != hostNone:
		return classDomain
	}
	return classText
}

// classifyDigits tells timestamps, reversed timestamps and dates from
// other integers by width and plausible range ([keytime.Decode]).
func classifyDigits(field string) segmentClass {
	t, ok := keytime.Decode(field)
	switch {
	case !ok:
		return classInteger
	case t.Kind == keytime.Date:
		return classDate
	case t.Kind == keytime.Reversed:
		return classReversedTimestamp
	}
	return classTimestamp
}

// isBinary reports control bytes (including DEL) or bytes that do not
// form UTF-8: data a terminal or log cannot show as text.
func isBinary(s string) bool {
	var high byte // the bytes' high bits: set where one is not ASCII
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return true
		}
		high |= c
	}
	return high >= utf8.RuneSelf && !utf8.ValidString(s)
}

// isHex matches hex digits of one case with at least one letter (all
// digits is an integer), at least [minHexDigits] long, or a UUID.
func isHex(s string) bool {
	if isUUID(s) {
		return true
	}
	if len(s) < minHexDigits {
		return false
	}
	lower, upper, letters := true, true, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			upper = false
			letters++
		case c >= 'A' && c <= 'F':
			lower = false
			letters++
		default:
			return false
		}
	}
	return letters > 0 && (lower || upper)
}

// isUUID matches the 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isBase64 matches the base64 or base64url alphabet, optionally padded,
// at least [minBase64Chars] long, mixing upper case, lower case and
// digits: a word or a lower-case handle is not base64.
func isBase64(s string) bool {
	if len(s) < minBase64Chars {
		return false
	}
	var upper, lower, digit bool
	body := s
	for len(body) > 0 && body[len(body)-1] == '=' {
		body = body[:len(body)-1]
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		case c == '+' || c == '/' || c == '-' || c == '_':
		default:
			return false
		}
	}
	return upper && lower && digit
}

// charEntropy returns the Shannon entropy, in bits per character, of the
// characters of all values together: about 4 for random hex, about 6 for
// random base64, 3 or less for words and numbers.
func charEntropy(values []string) float64 {
	var counts [256]float64
	var total float64
	for _, v := range values {
		for i := 0; i < len(v); i++ {
			counts[v[i]]++
			total++
		}
	}
	if total == 0 {
		return 0
	}
	var bits float64
	for _, c := range counts {
		if c > 0 {
			p := c / total
			bits -= p * math.Log2(p)
		}
	}
	return bits
}
