package view

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/keytime"
)

// detailKeyLines is the most lines the details pane gives one range
// bound; a longer key keeps its end on the last line.
const detailKeyLines = 4

// minKeyBesideTime is the narrowest key column that still gets the
// decoded time beside it.
const minKeyBesideTime = 16

// keyTime returns the first time segment of key with what it means,
// "1793404832385 (2026-10-31 00:00:32Z)", or "" when btviz reads no
// time in key ([keytime.InKey]).
func keyTime(key keyspace.Key, delimiters string) string {
	field, _, t, ok := keytime.InKey(string(key), delimiters)
	if !ok {
		return ""
	}
	return escape.Key(field) + " (" + timeMeaning(t) + ")"
}

// timeMeaning writes a decoded time, saying when it is reversed.
func timeMeaning(t keytime.Time) string {
	if t.Kind == keytime.Reversed {
		return "reversed: " + t.String()
	}
	return t.String()
}

// keyWithTime writes key in width cells, the whole key first: with the
// time its first time segment holds after it, " (2026-10-31 00:00:32Z)",
// or a shorter form of it ([keytime.Forms]), when there is room beside
// the whole key; else the whole key alone (the details pane writes the
// time). Only a key too long for the width is shortened ([cutKeySegments]:
// the segments that tell rows apart, the last two, stay whole), and then
// keeps a time form when one still fits. A time is never bought by
// cutting a key that would fit.
func keyWithTime(key keyspace.Key, delimiters string, width int) string {
	whole := key.String()
	_, _, t, hasTime := keytime.InKey(string(key), delimiters)
	var forms []string
	if hasTime {
		forms = keytime.Forms(timeMeaning(t))
	}
	for _, form := range forms {
		if meaning := " (" + form + ")"; len(whole)+len(meaning) <= width {
			return whole + meaning
		}
	}
	if len(whole) <= width {
		return whole
	}
	for _, form := range forms {
		meaning := " (" + form + ")"
		if short, ok := shortenSegments(key, delimiters, width-len(meaning), false); ok && width-len(meaning) >= minKeyBesideTime {
			return short + meaning
		}
	}
	return cutKeySegments(key, delimiters, width)
}

// cutKeySegments writes key in at most width cells. A key too long is
// shortened segment by segment rather than in its middle: the longest
// segment before the last two loses its end to "…" first ("user#
// valentina_a…#p001519#1793319034873"), then the one before the last, so
// that the parts that tell rows apart — an ID, a post, a timestamp,
// usually last — stay whole. A key with no delimiter, or one that still
// does not fit, is cut by [escape.CutKey].
func cutKeySegments(key keyspace.Key, delimiters string, width int) string {
	if short, ok := shortenSegments(key, delimiters, width, true); ok {
		return short
	}
	return KeyText(key, width)
}

// shortenSegments shortens key's segments to fit width cells, as
// [cutKeySegments] says; it reports false when that cannot make the key
// fit. Without all, the segments it may shorten are only those before the
// last two (before the last, of a key of two segments).
func shortenSegments(key keyspace.Key, delimiters string, width int, all bool) (string, bool) {
	whole := key.String()
	if len(whole) <= width {
		return whole, true
	}
	if width <= 0 || delimiters == "" {
		return "", false
	}
	// segments of the escaped text, each with its delimiter; escapes
	// never hold a delimiter (delimiters are printable, escapes are not).
	var segments []string
	start := 0
	for i := 0; i < len(whole); i++ {
		if whole[i] == '\\' {
			i += 3
			continue
		}
		if strings.IndexByte(delimiters, whole[i]) >= 0 {
			segments = append(segments, whole[start:i+1])
			start = i + 1
		}
	}
	segments = append(segments, whole[start:])
	spare := []int{min(2, len(segments)-1)}
	if all {
		spare = append(spare, 1)
	}
	length := len(whole)
	cut := make([]bool, len(segments)) // a segment is shortened once, as far as needed
	for length > width {
		// The longest segment but the spared last ones.
		longest := -1
		for _, spared := range spare {
			for i, seg := range segments[:max(len(segments)-spared, 0)] {
				if room := len(strings.TrimRight(seg, delimiters)); !cut[i] && room > minSegmentKept+1 && (longest < 0 || room > len(strings.TrimRight(segments[longest], delimiters))) {
					longest = i
				}
			}
			if longest >= 0 {
				break
			}
		}
		if longest < 0 {
			return "", false // nothing left to shorten
		}
		seg := segments[longest]
		body := strings.TrimRight(seg, delimiters)
		keep := max(len(body)-(length-width)-1, minSegmentKept)
		segments[longest] = escape.CutKey(body, keep+1) + seg[len(body):] // keep characters and "…"
		cut[longest] = true
		length = 0
		for _, s := range segments {
			length += ansi.StringWidth(s)
		}
	}
	return strings.Join(segments, ""), true
}

// minSegmentKept is the least a shortened key segment keeps of itself.
const minSegmentKept = 2

// keyLines writes a range bound, escaped (printable), whole, over as many
// lines of width cells as it needs (at most [detailKeyLines]), naming the
// table's ends.
func keyLines(printable string, width int, tableEnd string) []string {
	if printable == "" {
		return []string{tableEnd}
	}
	return escape.WrapKey(printable, width, detailKeyLines)
}

// delimiters returns the key-segment delimiters of the frame's snapshot.
func (f *Frame) delimiters() string {
	if f.Snap == nil {
		return ""
	}
	return f.Snap.Delimiters
}
