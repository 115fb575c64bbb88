package keyspace

import (
	"testing"
)

func TestPrintableEscapesEverythingUnsafe(t *testing.T) {
	cases := map[string]string{
		"user#42":         "user#42",
		"\x1b[31mred":     `\x1b[31mred`,
		"a\\b":            `a\x5cb`,
		"\x00\xff\x7f":    `\x00\xff\x7f`,
		"caf\xc3\xa9#1":   `caf\xc3\xa9#1`,
		"":                "",
		"tab\there\nline": `tab\x09here\x0aline`,
	}
	for raw, want := range cases {
		if got := Printable(raw); got != want {
			t.Errorf("Printable(%q) = %q, want %q", raw, got, want)
		}
		back, err := ParseKey(want)
		if err != nil || back != raw {
			t.Errorf("ParseKey(%q) = %q, %v; want %q", want, back, err, raw)
		}
	}
}

func TestParseKeyAcceptsUserForms(t *testing.T) {
	got, err := ParseKey(`user\\x#\x00`)
	if err != nil || got != "user\\x#\x00" {
		t.Fatalf(`ParseKey = %q, %v`, got, err)
	}
	for _, bad := range []string{`abc\`, `\x4`, `\xzz`, `\q`} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted a malformed escape", bad)
		}
	}
}

func FuzzPrintableRoundTrip(f *testing.F) {
	for _, seed := range []string{"", "user#1", "\x1b]0;title\x07", "\\x41", "\xff\xfe"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		printable := Printable(raw)
		for i := 0; i < len(printable); i++ {
			if printable[i] < 0x20 || printable[i] > 0x7e {
				t.Fatalf("Printable(%q) contains byte %#x", raw, printable[i])
			}
		}
		back, err := ParseKey(printable)
		if err != nil || back != raw {
			t.Fatalf("round trip of %q: %q, %v", raw, back, err)
		}
	})
}

func TestPrefixEnd(t *testing.T) {
	cases := map[string]string{"user#": "user$", "a\xff": "b", "\xff\xff": "", "": ""}
	for prefix, want := range cases {
		if got := PrefixEnd(prefix); got != want {
			t.Errorf("PrefixEnd(%q) = %q, want %q", prefix, got, want)
		}
	}
}

func TestKeyStringNeverLeaksRawBytes(t *testing.T) {
	k := Key("evil\x1b[2J")
	if s := k.String(); s != `evil\x1b[2J` {
		t.Fatalf("Key.String = %q", s)
	}
}
