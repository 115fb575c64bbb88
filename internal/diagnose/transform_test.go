package diagnose

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTransform(t *testing.T) {
	valid := []struct {
		text string
		want Transform
	}{
		{"salt(8)", Transform{Kind: TransformSalt, Buckets: 8}},
		{" SALT( 16 , prefix=2 ) ", Transform{Kind: TransformSalt, Buckets: 16, PrefixSegments: 2}},
		{"salt(8, prefix = 1)", Transform{Kind: TransformSalt, Buckets: 8, PrefixSegments: 1}},
		{"reverse-ts(1)", Transform{Kind: TransformReverseTimestamp, Segment: 1}},
		{"reverse(-1)", Transform{Kind: TransformReverse, Segment: -1}},
		{"promote(2)", Transform{Kind: TransformPromote, Segment: 2}},
	}
	for _, c := range valid {
		got, err := ParseTransform(c.text)
		if err != nil || got != c.want {
			t.Errorf("ParseTransform(%q) = %+v, %v; want %+v", c.text, got, err, c.want)
			continue
		}
		again, err := ParseTransform(got.String())
		if err != nil || again != got {
			t.Errorf("%q does not round-trip through String: %q gives %+v, %v", c.text, got.String(), again, err)
		}
	}
	invalid := []struct{ text, says string }{
		{"", "want NAME(ARGUMENTS)"},
		{"salt", "want NAME(ARGUMENTS)"},
		{"salt(1)", "N must be a whole number from 2 to 4096"},
		{"salt(x)", `not "x"`},
		{"salt()", "salt takes N"},
		{"salt(8, 2)", "prefix=K"},
		{"salt(8, prefix=0)", "prefix=K"},
		{"salt(8, prefix=2, x)", "salt takes N"},
		{"reverse-ts()", "reverse-ts takes one SEGMENT"},
		{"promote(1, 2)", "promote takes one SEGMENT"},
		{"reverse(99)", "SEGMENT must be a whole number"},
		{"hash(3)", `unknown transform "hash"`},
	}
	for _, c := range invalid {
		_, err := ParseTransform(c.text)
		if err == nil {
			t.Errorf("ParseTransform(%q) succeeded", c.text)
			continue
		}
		if !errors.Is(err, ErrTransform) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "salt(N, prefix=K)") {
			t.Errorf("ParseTransform(%q) error %q: want ErrTransform, %q and the accepted forms", c.text, err, c.says)
		}
	}
}

func TestRekey(t *testing.T) {
	cases := []struct {
		transform, delimiters, key, want string
		changed                          bool
	}{
		{"reverse(0)", "", "10400123", "32100401", true},
		{"reverse(-1)", ":", "app:users:10400123", "app:users:32100401", true},
		{"reverse-ts(1)", "#", "machine_42#1425330757685", "machine_42#9223370611524018122", true},
		{"reverse-ts(-1)", "#", "phone#4c410523#20200501", "phone#4c410523#9223370448563575807", true},
		{"reverse-ts(0)", "#", "machine_42#1425330757685", "machine_42#1425330757685", false}, // not a time
		{"reverse(0)", "/", "maps.google.com/maps/place", "com.google.maps/maps/place", true},
		{"reverse(1)", "#", "a#ab\xffc", "a#c\xffba", true},
		{"promote(2)", "#", "a#b#c", "c#a#b", true},
		{"promote(1)", "|:", "a|b:c", "b|a:c", true},
		{"promote(-1)", "#", "tenant#user#42", "42#tenant#user", true},
		{"promote(0)", "#", "a#b", "a#b", false},
		{"promote(5)", "#", "a#b", "a#b", false},
		{"promote(1)", "#", "a#b#", "b#a#", true},
	}
	for _, c := range cases {
		tr, err := ParseTransform(c.transform)
		if err != nil {
			t.Fatal(err)
		}
		got, changed := newRekeyer(tr, c.delimiters).apply(c.key)
		if got != c.want || changed != c.changed {
			t.Errorf("%s on %q = %q, %v; want %q, %v", c.transform, c.key, got, changed, c.want, c.changed)
		}
	}
}

func TestSaltKeys(t *testing.T) {
	salt16 := newRekeyer(Transform{Kind: TransformSalt, Buckets: 16}, "#")
	buckets := map[string]bool{}
	for i := range 1000 {
		key, _ := salt16.apply("user#" + strings.Repeat("x", i%7) + "#" + string(rune('a'+i%26)))
		bucket, rest, ok := strings.Cut(key, "#")
		if !ok || len(bucket) != 2 || !strings.HasPrefix(rest, "user#") {
			t.Fatalf("salted key %q: want a two-digit bucket, # and the logical key", key)
		}
		buckets[bucket] = true
	}
	if len(buckets) != 16 {
		t.Errorf("keys landed in %d buckets, want 16", len(buckets))
	}
	// Hashing the first two segments keeps an entity's rows together.
	byEntity := newRekeyer(Transform{Kind: TransformSalt, Buckets: 8, PrefixSegments: 2}, "#")
	a, _ := byEntity.apply("user#alice#1793480112345")
	b, _ := byEntity.apply("user#alice#1793480999999")
	if a[:2] != b[:2] {
		t.Errorf("salt(8, prefix=2) split one entity: %q and %q", a, b)
	}
	// Keys without delimiters get the default one.
	plain, _ := newRekeyer(Transform{Kind: TransformSalt, Buckets: 4}, "").apply("10400123")
	if len(plain) != len("0#10400123") || plain[1] != '#' {
		t.Errorf("salted plain key %q", plain)
	}
}

func FuzzParseTransform(f *testing.F) {
	for _, seed := range []string{"salt(8)", "salt(8, prefix=2)", "reverse-ts(-1)", "promote(2)", "reverse(", "salt(8,prefix=)", ")("} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := ParseTransform(text)
		if err != nil {
			if !errors.Is(err, ErrTransform) {
				t.Fatalf("error %v does not wrap ErrTransform", err)
			}
			return
		}
		again, err := ParseTransform(tr.String())
		if err != nil || again != tr {
			t.Fatalf("%q parsed to %+v, which does not round-trip (%v)", text, tr, err)
		}
	})
}

func FuzzKeyAnalysis(f *testing.F) {
	for _, seed := range []string{"user#mila_rosewood#1793480112345", "\x1b[31m\x00", "a@b.com#+4477009001", "maps.google.com/x", "", "#", "|:|", "\xff"} {
		f.Add(seed, "#", 1)
	}
	f.Fuzz(func(t *testing.T, key, delimiters string, segment int) {
		if len(delimiters) > 4 {
			delimiters = delimiters[:4]
		}
		class := classifySegment(key)
		if class >= numClasses {
			t.Fatalf("class %d out of range", class)
		}
		findEmail(key)
		findPhone(key)
		masked := maskPII(key)
		if len(masked) != len(key) {
			t.Fatalf("maskPII changed the length of %q to %q", key, masked)
		}
		keyHosts(key)
		if p := printable(key); !utf8.ValidString(p) || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
			t.Fatalf("printable(%q) = %q holds unprintable characters", key, p)
		}
		for _, kind := range []TransformKind{TransformSalt, TransformReverseTimestamp, TransformReverse, TransformPromote} {
			tr := Transform{Kind: kind, Buckets: 8, Segment: segment % maxSegmentArg, PrefixSegments: (segment & 3)}
			newRekeyer(tr, delimiters).apply(key)
		}
	})
}
