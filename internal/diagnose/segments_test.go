package diagnose

import (
	"math"
	"testing"
)

func TestClassifySegment(t *testing.T) {
	cases := []struct {
		field string
		want  segmentClass
	}{
		{"", classEmpty},
		{"user", classText},
		{"mila_rosewood", classText},
		{"machine_4223421", classText},
		{"10400001", classInteger},
		{"3", classInteger},
		{"1425330757", classTimestamp},          // epoch seconds
		{"1793487412345", classTimestamp},       // epoch milliseconds
		{"1793487412345678", classTimestamp},    // microseconds
		{"1793487412345678901", classTimestamp}, // nanoseconds
		{"9223370243364407807", classReversedTimestamp},
		{"20261015", classDate},
		{"2026-10-15", classDate},
		{"2026-10-15T12:00:00Z", classDate},
		{"19991231", classInteger}, // before the plausible span
		{"4c410523", classHex},
		{"3f2a9c0b7d41e855", classHex},
		{"123e4567-e89b-12d3-a456-426614174000", classHex},
		{"deadBEEF", classText}, // mixed case is no hex
		{"dGhpcyBpcyBhIHRlc3Qx", classBase64},
		{"valentina_johansson99", classText},
		{"alice.smith@example.com", classEmail},
		{"+447700900123", classPhone},
		{"415-555-0123", classPhone},
		{"maps.google.com", classDomain},
		{"com.google.maps", classDomain},
		{"index.html", classText},
		{"\x1b[31m", classBinary},
		{"a\x00b", classBinary},
		{"\xff\xfe", classBinary},
		{"münchen", classText},
	}
	for _, c := range cases {
		if got := classifySegment(c.field); got != c.want {
			t.Errorf("classifySegment(%q) = %s, want %s", c.field, got, c.want)
		}
	}
}

func TestHostOrientation(t *testing.T) {
	cases := []struct {
		token string
		want  hostDirection
	}{
		{"maps.google.com", hostForward},
		{"bbc.co.uk", hostForward},
		{"github.com", hostForward},
		{"com.google.maps", hostReversed},
		{"uk.co.bbc.www", hostReversed},
		{"go.dev", hostForward},
		{"co.uk", hostNone},            // a top-level label at both ends
		{"de.wikipedia.org", hostNone}, // likewise
		{"index.html", hostNone},       // no top-level label
		{"1.2.3", hostNone},            // no letters
		{"maps..google.com", hostNone}, // an empty label
		{"-maps.google.com", hostNone}, // a label starting with a hyphen
		{"alice", hostNone},            // one label
		{"release-notes.docs", hostNone},
	}
	for _, c := range cases {
		if got := hostOrientation(c.token); got != c.want {
			t.Errorf("hostOrientation(%q) = %d, want %d", c.token, got, c.want)
		}
	}
	forward, reversed, example := keyHosts("alice.smith@example.com#maps.google.com/x")
	if !forward || reversed || example != "maps.google.com" {
		t.Errorf("keyHosts found forward %v reversed %v example %q; the e-mail's halves must not count", forward, reversed, example)
	}
}

func TestPersonalData(t *testing.T) {
	cases := []struct {
		key          string
		email, phone bool
		masked       string
	}{
		{"alice.smith@example.com#1793480112345", true, false, "a**********@example.com#1793480112345"},
		{"+447700900123#1793480112345", false, true, "+44********23#1793480112345"},
		{"user#415-555-0123#x", false, true, "user#415-***-**23#x"},
		{"user#(415) 555-0123", false, true, "user#(41*) ***-**23"},
		{"1793480112345#machine_42", false, false, ""},
		{"order#2026-10-15#42", false, false, ""},
		{"a@b", false, false, ""},
		{"x+12345678901234567#", false, false, ""}, // + after a letter, too long
	}
	for _, c := range cases {
		if got := findEmail(c.key) >= 0; got != c.email {
			t.Errorf("findEmail(%q) found %v, want %v", c.key, got, c.email)
		}
		if got := findPhone(c.key) >= 0; got != c.phone {
			t.Errorf("findPhone(%q) found %v, want %v", c.key, got, c.phone)
		}
		if c.masked != "" {
			if got := maskPII(c.key); got != c.masked {
				t.Errorf("maskPII(%q) = %q, want %q", c.key, got, c.masked)
			}
		}
	}
}

func TestSpearman(t *testing.T) {
	cases := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"rising", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{"falling", []float64{1, 2, 3, 4}, []float64{9, 5, 2, 1}, -1},
		{"monotone not linear", []float64{1, 2, 3, 4}, []float64{1, 10, 100, 1000}, 1},
		{"constant", []float64{1, 2, 3}, []float64{5, 5, 5}, 0},
		{"too short", []float64{1}, []float64{1}, 0},
		{"ties", []float64{1, 2, 3, 4}, []float64{1, 1, 2, 2}, 0.8944},
	}
	for _, c := range cases {
		if got := spearman(c.x, c.y); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("%s: spearman = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestSeverity(t *testing.T) {
	for _, s := range Severities() {
		got, err := ParseSeverity(" " + s.String() + " ")
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseSeverity("warn"); err == nil || err.Error() != `unknown severity "warn": use info, warning or error` {
		t.Errorf("ParseSeverity(warn) error = %v", err)
	}
	if _, err := Severity(7).MarshalText(); err == nil {
		t.Error("an invalid severity marshals")
	}
}

func TestSuggestedSalt(t *testing.T) {
	for worst, want := range map[float64]int{0.25: 4, 0.38: 4, 0.66: 8, 1: 16, 0.1: 2, 10: maxSuggestedSalt} {
		if got := suggestedSalt(worst); got != want {
			t.Errorf("suggestedSalt(%v) = %d, want %d", worst, got, want)
		}
	}
}
