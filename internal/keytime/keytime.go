// Package keytime reads the times row keys hold: a key segment of epoch
// seconds, milliseconds, microseconds or nanoseconds, a reversed
// timestamp (Long.MAX_VALUE minus one of those) or a date (yyyymmdd,
// yyyy-mm-dd and their longer date-time forms). diagnose classifies
// segments by these rules; the TUI shows what a time segment means next
// to its digits.
//
// Everything here is a pure function of its input: no clock.
package keytime

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Kind says what sort of time a segment holds.
type Kind uint8

const (
	// None is a segment that is not a time.
	None Kind = iota
	// Epoch is epoch seconds, milliseconds, microseconds or nanoseconds.
	Epoch
	// Reversed is Long.MAX_VALUE minus an epoch time, so that the newest
	// rows sort first.
	Reversed
	// Date is a calendar date or date-time written as digits.
	Date
)

// The plausible span of times in keys: 2000-01-01 to 2100-01-01 UTC. A
// number of the right width outside it is an ID, not a time.
var (
	minPlausible = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxPlausible = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// Time is a time read from a key segment.
type Time struct {
	Kind Kind
	// PerSecond is the epoch unit of an Epoch or Reversed time: 1, 1e3,
	// 1e6 or 1e9 ticks per second.
	PerSecond int64
	// At is the time, in UTC.
	At time.Time
	// DayOnly is set for a date without a time of day.
	DayOnly bool
}

// String writes the time as btviz shows it next to a key's bytes:
// "2026-10-31 00:00:32Z", or "2026-10-31" for a date without a time.
func (t Time) String() string {
	if t.DayOnly {
		return t.At.Format(time.DateOnly)
	}
	return t.At.Format("2006-01-02 15:04:05Z")
}

// Forms returns a time written by [Time.String], after any words of its
// own ("rev ", "reversed: "), in the forms a narrow column falls back to,
// longest first: as written; without its year and zone mark
// ("rev 10-31 00:00:32"); and without its seconds too ("rev 10-31
// 00:00"). A date has only the first; "" has none.
func Forms(written string) []string {
	if written == "" {
		return nil
	}
	at := strings.IndexFunc(written, func(r rune) bool { return r >= '0' && r <= '9' })
	if at < 0 || len(written)-at < len("2006-01-02 15:04:05Z") {
		return []string{written}
	}
	words, rest := written[:at], written[at:]
	short := words + strings.TrimSuffix(rest[len("2006-"):], "Z")
	return []string{written, short, short[:len(short)-len(":05")]}
}

// Decode reads one delimiter-free key segment as a time, and reports
// whether it is one (see the package doc for the forms).
func Decode(field string) (Time, bool) {
	if Digits(field) {
		return decodeDigits(field)
	}
	if IsFormattedDate(field) {
		if at, err := time.Parse(time.RFC3339Nano, field); err == nil {
			return Time{Kind: Date, At: at.UTC()}, true
		}
		at, _ := time.Parse(time.DateOnly, field[:10])
		return Time{Kind: Date, At: at, DayOnly: len(field) == 10}, true
	}
	return Time{}, false
}

// decodeDigits reads a segment of decimal digits: a compact date, an
// epoch time of a plausible width and span, or a reversed one.
func decodeDigits(field string) (Time, bool) {
	if IsCompactDate(field) {
		at, _ := time.Parse(compactDateLayout[:len(field)], field)
		return Time{Kind: Date, At: at, DayOnly: len(field) == 8}, true
	}
	if len(field) > 19 {
		return Time{}, false
	}
	v, err := strconv.ParseUint(field, 10, 64)
	if err != nil {
		return Time{}, false
	}
	if perSecond, ok := epochUnit(len(field)); ok && plausible(v, perSecond) {
		return Time{Kind: Epoch, PerSecond: int64(perSecond), At: epochTime(v, perSecond)}, true
	}
	if len(field) == 19 && v <= math.MaxInt64 {
		reversed := uint64(math.MaxInt64) - v
		for _, perSecond := range []uint64{1, 1e3, 1e6, 1e9} {
			if plausible(reversed, perSecond) {
				return Time{Kind: Reversed, PerSecond: int64(perSecond), At: epochTime(reversed, perSecond)}, true
			}
		}
	}
	return Time{}, false
}

// epochUnit returns the ticks per second of an epoch time written with
// width digits: seconds (10), milliseconds (13), microseconds (16) or
// nanoseconds (19).
func epochUnit(width int) (uint64, bool) {
	switch width {
	case 10:
		return 1, true
	case 13:
		return 1e3, true
	case 16:
		return 1e6, true
	case 19:
		return 1e9, true
	}
	return 0, false
}

// plausible reports whether v ticks of 1/perSecond s since the epoch
// fall in the plausible span.
func plausible(v, perSecond uint64) bool {
	seconds := int64(v / perSecond)
	return seconds >= minPlausible && seconds < maxPlausible
}

func epochTime(v, perSecond uint64) time.Time {
	return time.Unix(int64(v/perSecond), int64(v%perSecond*(1e9/perSecond))).UTC()
}

// compactDateLayout is the layout of the longest compact date-time.
const compactDateLayout = "20060102150405"

// IsCompactDate matches yyyymmdd, yyyymmddhh, yyyymmddhhmm and
// yyyymmddhhmmss with a year from 2000 to 2099.
func IsCompactDate(field string) bool {
	switch len(field) {
	case 8, 10, 12, 14:
	default:
		return false
	}
	if field[:2] != "20" {
		return false
	}
	_, err := time.Parse(compactDateLayout[:len(field)], field)
	return err == nil
}

// IsFormattedDate matches a field starting yyyy-mm-dd (ISO 8601 and RFC
// 3339 dates and date-times).
func IsFormattedDate(field string) bool {
	if len(field) < 10 || field[4] != '-' || field[7] != '-' {
		return false
	}
	_, err := time.Parse(time.DateOnly, field[:10])
	return err == nil && (len(field) == 10 || field[10] == 'T' || field[10] == ' ' || field[10] == '_')
}

// Digits reports whether s is a non-empty run of decimal digits: the
// form of every time here but a formatted date.
func Digits(s string) bool {
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

// InKey returns the first segment of key (split at delimiters) that
// holds a time, without its delimiter, where it ends in key, the time, and
// whether there is one.
func InKey(key string, delimiters string) (field string, end int, t Time, ok bool) {
	split := keyspace.NewSplitter(delimiters)
	for from := 0; from < len(key); {
		n := split.Next(key, from)
		field := key[from : from+n]
		if strings.IndexByte(delimiters, field[n-1]) >= 0 {
			field = field[:n-1]
		}
		if t, ok := Decode(field); ok {
			return field, from + len(field), t, true
		}
		from += n
	}
	return "", 0, Time{}, false
}
