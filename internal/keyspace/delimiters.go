package keyspace

import "strings"

// CandidateDelimiters are the bytes btviz considers as key-segment
// delimiters, strongest first. The first four almost only appear in keys as
// separators; the last three also occur inside values (dates, e-mail
// addresses, domain names), so they are used only when none of the strong
// ones is.
const CandidateDelimiters = "#:/|-_."

const strongDelimiters = "#:/|"

// minDelimiterShare is the share of keys that must contain a candidate
// delimiter for [DetectDelimiters] to pick it.
const minDelimiterShare = 0.5

// DetectDelimiters picks the delimiters a set of row keys uses. A candidate
// is chosen when at least half of the keys contain it; when any strong
// delimiter (# : / |) qualifies, only strong ones are returned, so that a
// dash in a date or a dot in an e-mail address does not split a segment.
// It returns "" when the keys show no delimiter (hashed or binary keys).
func DetectDelimiters(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	var withByte [256]int
	for _, key := range keys {
		var seen [256]bool
		for i := 0; i < len(key); i++ {
			seen[key[i]] = true
		}
		for _, c := range []byte(CandidateDelimiters) {
			if seen[c] {
				withByte[c]++
			}
		}
	}
	qualifies := func(c byte) bool {
		return float64(withByte[c]) >= minDelimiterShare*float64(len(keys))
	}
	var strong, weak strings.Builder
	for _, c := range []byte(CandidateDelimiters) {
		if !qualifies(c) {
			continue
		}
		if strings.IndexByte(strongDelimiters, c) >= 0 {
			strong.WriteByte(c)
		} else {
			weak.WriteByte(c)
		}
	}
	if strong.Len() > 0 {
		return strong.String()
	}
	return weak.String()
}

// Splitter cuts keys into segments at a fixed set of delimiter bytes. Each
// segment but the last keeps its trailing delimiter, so that the segments
// concatenate back to the key and every prefix of segments is a key prefix
// in its own right ("user#", "user#42#").
type Splitter struct {
	isDelimiter [256]bool
	delimiters  string
}

// NewSplitter returns a [Splitter] for the given delimiter bytes.
func NewSplitter(delimiters string) Splitter {
	s := Splitter{delimiters: delimiters}
	for i := 0; i < len(delimiters); i++ {
		s.isDelimiter[delimiters[i]] = true
	}
	return s
}

// Delimiters returns the delimiter bytes this splitter cuts at.
func (s Splitter) Delimiters() string { return s.delimiters }

// Next returns the length of the segment of key that starts at offset from:
// up to and including the next delimiter, or to the end of the key.
func (s Splitter) Next(key string, from int) int {
	for i := from; i < len(key); i++ {
		if s.isDelimiter[key[i]] {
			return i + 1 - from
		}
	}
	return len(key) - from
}

// Segments splits key into its segments (see [Splitter]).
func (s Splitter) Segments(key string) []string {
	var segments []string
	for from := 0; from < len(key); {
		n := s.Next(key, from)
		segments = append(segments, key[from:from+n])
		from += n
	}
	return segments
}

// Field returns segment i of key with its trailing delimiter removed, and
// whether the key has that many segments.
func (s Splitter) Field(key string, i int) (string, bool) {
	from := 0
	for ; i > 0 && from < len(key); i-- {
		from += s.Next(key, from)
	}
	if from >= len(key) {
		return "", false
	}
	n := s.Next(key, from)
	field := key[from : from+n]
	if s.isDelimiter[field[len(field)-1]] {
		field = field[:len(field)-1]
	}
	return field, true
}
