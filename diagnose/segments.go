package diagnose

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
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
	// nanoseconds between [minPlausibleTime] and [maxPlausibleTime].
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

// The plausible span of timestamps in keys: 2000-01-01 to 2100-01-01 UTC.
// A number of the right width outside it is an ID, not a time.
var (
	minPlausibleTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxPlausibleTime = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

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
	if allDigits(field) {
		return classifyDigits(field)
	}
	switch {
	case isFormattedDate(field):
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
// other integers by width and plausible range.
func classifyDigits(field string) segmentClass {
	if isCompactDate(field) {
		return classDate
	}
	if len(field) > 19 {
		return classInteger
	}
	v, err := strconv.ParseUint(field, 10, 64)
	if err != nil {
		return classInteger
	}
	if plausibleEpoch(v, len(field)) {
		return classTimestamp
	}
	if len(field) == 19 && v <= math.MaxInt64 {
		reversed := uint64(math.MaxInt64) - v
		for _, perSecond := range []uint64{1, 1e3, 1e6, 1e9} {
			if seconds := int64(reversed / perSecond); seconds >= minPlausibleTime && seconds < maxPlausibleTime {
				return classReversedTimestamp
			}
		}
	}
	return classInteger
}

// plausibleEpoch reports whether v, written with width digits, is epoch
// seconds (10 digits), milliseconds (13), microseconds (16) or nanoseconds
// (19) in the plausible span.
func plausibleEpoch(v uint64, width int) bool {
	var perSecond uint64
	switch width {
	case 10:
		perSecond = 1
	case 13:
		perSecond = 1e3
	case 16:
		perSecond = 1e6
	case 19:
		perSecond = 1e9
	default:
		return false
	}
	seconds := int64(v / perSecond)
	return seconds >= minPlausibleTime && seconds < maxPlausibleTime
}

// isCompactDate matches yyyymmdd, yyyymmddhh, yyyymmddhhmm and
// yyyymmddhhmmss with a year from 2000 to 2099.
func isCompactDate(field string) bool {
	const layout = "20060102150405"
	switch len(field) {
	case 8, 10, 12, 14:
	default:
		return false
	}
	if field[:2] != "20" {
		return false
	}
	_, err := time.Parse(layout[:len(field)], field)
	return err == nil
}

// isFormattedDate matches a field starting yyyy-mm-dd (ISO 8601 and RFC
// 3339 dates and date-times).
func isFormattedDate(field string) bool {
	if len(field) < 10 || field[4] != '-' || field[7] != '-' {
		return false
	}
	_, err := time.Parse("2006-01-02", field[:10])
	return err == nil && (len(field) == 10 || field[10] == 'T' || field[10] == ' ' || field[10] == '_')
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isBinary reports control bytes (including DEL) or bytes that do not
// form UTF-8: data a terminal or log cannot show as text.
func isBinary(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return !utf8.ValidString(s)
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
