package tui

import (
	"slices"

	"github.com/btviz/btviz/escape"
	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/keytime"
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

// keyWithTime writes key cut to width cells with the time its first time
// segment holds after it, " (2026-10-31 00:00:32Z)", or shorter forms of
// it ([keytime.Forms]) when the width leaves room for no more; otherwise
// the key alone.
func keyWithTime(key keyspace.Key, delimiters string, width int) string {
	_, _, t, ok := keytime.InKey(string(key), delimiters)
	if !ok {
		return keyText(key, width)
	}
	// The time without its year, then without its seconds, when the
	// whole one leaves the key too little room.
	for _, form := range keytime.Forms(timeMeaning(t)) {
		meaning := " (" + form + ")"
		if width-len(meaning) >= minKeyBesideTime {
			return keyText(key, width-len(meaning)) + meaning
		}
	}
	return keyText(key, width)
}

// keyLines writes a range bound whole, over as many lines of width cells
// as it needs (at most [detailKeyLines]), naming the table's ends.
func keyLines(k keyspace.Key, width int, tableEnd string) []string {
	if k == "" {
		return []string{tableEnd}
	}
	return escape.WrapKey(k.String(), width, detailKeyLines)
}

// delimiters returns the key-segment delimiters of the frame's snapshot.
func (f *frame) delimiters() string {
	if f.snap == nil {
		return ""
	}
	return f.snap.Delimiters
}

// toggleLabelTimes shows or hides the times key labels hold, and says
// what it did.
func (m *Model) toggleLabelTimes() {
	cur := m.current()
	cur.state.LabelTimes = !cur.state.LabelTimes
	switch {
	case !cur.state.LabelTimes:
		m.setMessage("labels show keys only (t shows the times they hold)", false)
	case m.matrix != nil && slices.ContainsFunc(m.matrix.Buckets, func(b heatmap.Bucket) bool { return b.LabelTime != "" }):
		m.setMessage("labels show the UTC time their key holds (t hides it)", false)
	default:
		m.setMessage("no label of this view holds a time btviz reads (epoch, reversed timestamp, date); t hides times again", false)
	}
}
