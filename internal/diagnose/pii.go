package diagnose

import (
	"strings"

	"github.com/btviz/btviz/internal/units"
)

// piiMinShare is the share of sampled keys holding an e-mail address or a
// phone number above which pii-in-key is a warning. The guide gives no
// number: any personal data in a key is a problem, but a handful of odd
// keys in a large sample can be a false match, so below 1% it is an info
// note that names the count.
const piiMinShare = 0.01

const piiAdvice = "Row keys (and column family names) are metadata: they show up in logs, " +
	"monitoring, Key Visualizer and support tools, and cannot be encrypted or access-controlled " +
	"like values. Key by an opaque internal ID (the account number, not the e-mail or phone number) " +
	"and keep the address in a cell; if you must look rows up by address, keep a separate index " +
	"table keyed by a keyed hash of it."

// checkPII raises pii-in-key when sampled keys hold e-mail addresses or
// phone numbers anywhere in the key (not only in one segment, since dots
// and dashes may be delimiters).
func checkPII(d *diagnosis) []Finding {
	rows := d.profile.rows
	if len(rows) == 0 {
		return nil
	}
	var emails, phones, withPII int
	var example string
	for _, row := range rows {
		key := string(row.Key)
		hasEmail, hasPhone := findEmail(key) >= 0, findPhone(key) >= 0
		if hasEmail {
			emails++
		}
		if hasPhone {
			phones++
		}
		if hasEmail || hasPhone {
			withPII++
			if example == "" {
				example = maskPII(key)
			}
		}
	}
	if withPII == 0 {
		return nil
	}
	share := float64(withPII) / float64(len(rows))
	severity := SeverityWarning
	if share < piiMinShare {
		severity = SeverityInfo
	}
	var what []string
	if emails > 0 {
		what = append(what, "e-mail addresses")
	}
	if phones > 0 {
		what = append(what, "phone numbers")
	}
	evidence := Evidence{}
	evidence.set("keys_with_pii_share", share)
	evidence.set("keys_with_email", float64(emails))
	evidence.set("keys_with_phone", float64(phones))
	evidence.set("sampled_keys", float64(len(rows)))
	evidence.set("min_share", piiMinShare)
	start, end := d.tableWide()
	return []Finding{{
		Kind:     KindPIIInKey,
		Severity: severity,
		Start:    start,
		End:      end,
		Summary: units.Percent(share) + " of sampled keys (" + units.Thousands(int64(withPII)) + " of " +
			units.Thousands(int64(len(rows))) + ") hold " + strings.Join(what, " and ") + ", e.g. " + printable(example) + " (masked)",
		Advice:   piiAdvice,
		Evidence: evidence,
	}}
}

// emailLocalChar and hostChar are the characters of the two halves of an
// address.
func emailLocalChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._%+-", c) >= 0
}

func hostChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// findEmail returns the offset of the first e-mail address in s (a local
// part, "@", and a host with a dot and an alphabetic top-level label of two
// or more letters), or -1.
func findEmail(s string) int {
	for at := strings.IndexByte(s, '@'); at >= 0; {
		start := at
		for start > 0 && emailLocalChar(s[start-1]) {
			start--
		}
		end := at + 1
		for end < len(s) && hostChar(s[end]) {
			end++
		}
		host := strings.TrimRight(s[at+1:end], ".-")
		if start < at && validMailHost(host) {
			return start
		}
		next := strings.IndexByte(s[at+1:], '@')
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return -1
}

func validMailHost(host string) bool {
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 {
		return false
	}
	top := host[dot+1:]
	if len(top) < 2 {
		return false
	}
	for i := 0; i < len(top); i++ {
		if c := top[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isEmail reports whether a whole segment is an e-mail address.
func isEmail(s string) bool {
	return findEmail(s) == 0 && strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " #|/:")
}

// isPhone reports whether a whole segment is a phone number (see
// [findPhone]).
func isPhone(s string) bool {
	i, n := phoneAt(s, 0)
	return i == 0 && n == len(s)
}

// findPhone returns the offset of the first phone number in s, or -1. It
// matches the E.164 form (+ and 8 to 15 digits) and the North American
// forms 415-555-0123 and (415) 555-0123, standing alone (no digit or
// letter right before or after), so that timestamps and IDs, which are
// bare digit runs, never match.
func findPhone(s string) int {
	for i := 0; i < len(s); i++ {
		if at, _ := phoneAt(s, i); at >= 0 {
			return at
		}
	}
	return -1
}

// phoneAt matches a phone number starting exactly at i and returns i and
// its length, or -1.
func phoneAt(s string, i int) (int, int) {
	if i > 0 && isAlnum(s[i-1]) {
		return -1, 0
	}
	end := -1
	switch {
	case s[i] == '+':
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if digits := j - i - 1; digits >= 8 && digits <= 15 && s[i+1] != '0' {
			end = j
		}
	case s[i] == '(':
		end = matchDigitGroups(s, i, "(ddd) ddd-dddd")
	default:
		end = matchDigitGroups(s, i, "ddd-ddd-dddd")
	}
	if end < 0 || end < len(s) && isAlnum(s[end]) {
		return -1, 0
	}
	return i, end - i
}

// matchDigitGroups matches pattern at s[i:], where d stands for a digit
// and every other byte for itself; it returns the end offset or -1.
func matchDigitGroups(s string, i int, pattern string) int {
	if len(s)-i < len(pattern) {
		return -1
	}
	for k := 0; k < len(pattern); k++ {
		c := s[i+k]
		if pattern[k] == 'd' {
			if c < '0' || c > '9' {
				return -1
			}
		} else if c != pattern[k] {
			return -1
		}
	}
	return i + len(pattern)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// maskPII hides the personal part of a raw key for a summary: the local part
// of an e-mail address but its first character, the digits of a phone
// number but its first three and last two. A report must not spread the
// data it warns about.
func maskPII(key string) string {
	b := []byte(key)
	if i := findEmail(key); i >= 0 {
		at := i + strings.IndexByte(key[i:], '@')
		for k := i + 1; k < at; k++ {
			b[k] = '*'
		}
	}
	if i := findPhone(key); i >= 0 {
		_, n := phoneAt(key, i)
		for k := i + 3; k < i+n-2; k++ {
			if b[k] >= '0' && b[k] <= '9' {
				b[k] = '*'
			}
		}
	}
	return string(b)
}
