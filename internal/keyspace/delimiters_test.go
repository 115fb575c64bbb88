package keyspace

import (
	"reflect"
	"testing"
)

func TestDetectDelimiters(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want string
	}{
		{"hash", []string{"user#1#2024", "user#2#2024", "user#3"}, "#"},
		{"pipe", []string{"t1|u1|100", "t1|u2|101", "t2|u1|102"}, "|"},
		{"colon", []string{"a:b:c", "a:b:d", "a:c:e"}, ":"},
		{"email under hash keeps dots", []string{"alice.smith@example.com#1", "bob.jones@example.org#2"}, "#"},
		{"domains reversed", []string{"com.google.maps/a", "com.google.www/b"}, "/"},
		{"domains only", []string{"com.google.maps", "org.example.www"}, "."},
		{"hex", []string{"9f86d081884c7d65", "3c9909afec25354d"}, ""},
		{"minority delimiter ignored", []string{"abc", "def", "g#h"}, ""},
		{"binary", []string{"\x00\x1b\x07", "\x9b\x01"}, ""},
	}
	for _, tc := range cases {
		if got := DetectDelimiters(tc.keys); got != tc.want {
			t.Errorf("%s: DetectDelimiters = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSplitterSegmentsAndFields(t *testing.T) {
	s := NewSplitter("#|")
	if got, want := s.Segments("tenant|user#42#"), []string{"tenant|", "user#", "42#"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Segments = %q, want %q", got, want)
	}
	if f, ok := s.Field("tenant|user#42", 2); !ok || f != "42" {
		t.Fatalf("Field(2) = %q, %v", f, ok)
	}
	if _, ok := s.Field("tenant|user#", 2); ok {
		t.Fatal("Field past the last segment reported ok")
	}
}
