package heatmap

import (
	"strings"

	"github.com/btviz/btviz/escape"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/keytime"
)

// tableStartLabel names a range that starts at the very first key.
const tableStartLabel = "(table start)"

// labelTail is the most cells (escaped) a label shows from the first
// byte that sets its bucket apart from the one above: enough for a whole
// 19-digit timestamp or a user name, short enough that a binary key
// without delimiters shows its leading field (five escaped bytes) rather
// than its whole length cut in the middle.
const labelTail = 20

// labelBuckets names every bucket of m (group k is made of units
// us[starts[k]:…]) by the start of its range, as a key: [Bucket.Label]
// is a prefix of [Bucket.LabelKey], and [Bucket.ShortLabel] is the same
// with the view's shared prefix ([Matrix.SharedPrefix]) written as a
// leading "…".
//
// Labels increase strictly from the top down, by construction: each
// label is a prefix of its key that is at least one byte longer than
// that key's common prefix with the key above, so it sorts after the
// whole key above, and so after that key's label, which is a prefix of
// it. Past that byte a label runs to the end of the key segment it falls
// in (at most [labelTail] cells, see [labelEnd]), so that it
// reads as a key: a user name, a whole timestamp. A bucket that is exactly one prefix is
// labelled with that prefix, which is always long enough.
func labelBuckets(m *Matrix, us []unit, starts []int, delimiters string) {
	split := keyspace.NewSplitter(delimiters)
	view := string(m.SharedPrefix)
	previous := ""
	for k := range m.Buckets {
		b := &m.Buckets[k]
		group := us[starts[k]:groupEnd(starts, k, len(us))]
		key := string(b.Start)
		var from int // the first byte the label must show
		if k == 0 {
			// The view's start is often a prefix every key shares: name
			// the first bucket by the first key it holds instead.
			if first, _, ok := groupBounds(group); ok && first > key {
				key = first
			}
			from = len(keyspace.CommonPrefix(view, key))
		} else {
			from = len(keyspace.CommonPrefix(previous, key))
		}
		b.LabelKey = keyspace.Key(key)
		raw := key[:labelEnd(split, key, from)]
		if b.Node != nil && b.Node.Kind != keyspace.KindRange {
			raw = string(b.Node.Prefix) // a prefix, or a row's whole key
		}
		b.Label, b.ShortLabel = labelTexts(raw, view)
		b.labelKeep = len(keyspace.Printable(raw[min(from, len(raw)):]))
		b.LabelTime = labelTime(raw, key, delimiters)
		previous = key
	}
}

// labelEnd returns where a label of key that must show byte from ends:
// at the end of the segment holding that byte, before its delimiter, at
// most [labelTail] cells from it, and never before from+1. Only a bucket
// that is exactly one prefix ends its label with a delimiter, unless the
// delimiter is what sets it apart.
func labelEnd(split keyspace.Splitter, key string, from int) int {
	if from >= len(key) {
		return len(key)
	}
	segment := 0
	for segment+split.Next(key, segment) <= from {
		segment += split.Next(key, segment)
	}
	end := segment + split.Next(key, segment)
	if end-1 > from && strings.IndexByte(split.Delimiters(), key[end-1]) >= 0 {
		end-- // a trailing delimiter would read as "exactly this prefix"
	}
	cells := 0
	for i := from; i < end; i++ {
		cells += len(keyspace.Printable(key[i : i+1]))
		if cells > labelTail && i > from {
			return i
		}
	}
	return end
}

// labelTime returns the time the first time segment of a label's raw
// bytes holds ([keytime.InKey]), "rev " before a reversed timestamp's, or
// "" when there is none. A segment the label cuts short (the key goes on
// past it without a delimiter) is not read: it would read as another
// time.
func labelTime(raw, key, delimiters string) string {
	_, end, t, ok := keytime.InKey(raw, delimiters)
	if !ok || (end == len(raw) && end < len(key) && strings.IndexByte(delimiters, key[end]) < 0) {
		return ""
	}
	if t.Kind == keytime.Reversed {
		return "rev " + t.String()
	}
	return t.String()
}

// labelTexts returns the printable label of raw key bytes and its short
// form: "…" and the rest when raw extends the view's shared prefix.
func labelTexts(raw, view string) (label, short string) {
	if raw == "" {
		return tableStartLabel, tableStartLabel
	}
	label = keyspace.Printable(raw)
	if rest, ok := strings.CutPrefix(raw, view); ok && view != "" && rest != "" {
		return label, ellipsis + keyspace.Printable(rest)
	}
	return label, label
}

// groupBounds returns the smallest and largest key a group of units is
// known to hold.
func groupBounds(units []unit) (first, last string, ok bool) {
	for i := range units {
		f, l, has := units[i].keyBounds()
		if !has {
			continue
		}
		if !ok || f < first {
			first = f
		}
		if !ok || l > last {
			last = l
		}
		ok = true
	}
	return first, last, ok
}

// FitLabel returns the bucket's short label cut to at most width cells
// the way btviz cuts every key ([escape.CutKey]: start and end kept, no
// \xNN escape split), keeping whole, as far as width allows, the part
// that sets it apart from the label above ([escape.CutKeyKeepingEnd]),
// so that cut labels still read in order. A leading "…" (the view's
// shared prefix) stays.
func (b *Bucket) FitLabel(width int) string { return cutLabel(b.ShortLabel, b.labelKeep, width) }

// FitFullLabel is [Bucket.FitLabel] for the label with nothing elided.
func (b *Bucket) FitFullLabel(width int) string { return cutLabel(b.Label, b.labelKeep, width) }

// cutLabel cuts a label to width cells keeping its last keep cells.
func cutLabel(label string, keep, width int) string {
	if rest, ok := strings.CutPrefix(label, ellipsis); ok && width > 1 {
		return ellipsis + escape.CutKeyKeepingEnd(rest, width-1, keep)
	}
	return escape.CutKeyKeepingEnd(label, width, keep)
}

// TimedLabel returns a bucket's short label with the time its key holds
// ([Bucket.LabelTime]) after it, in width cells: the label is cut to
// leave room for the time, written without its year when room is short,
// and without its seconds when it is shorter still (an 18-cell gutter:
// "…17… 10-31 00:00"). A label without a time, or a gutter too narrow
// for one, is only cut.
func TimedLabel(b *Bucket, width int) string {
	short := shortTime(b.LabelTime)
	for _, t := range []string{b.LabelTime, short, minuteTime(short)} {
		if t != "" && width >= len(t)+1+minTimedLabel {
			return b.FitLabel(width-len(t)-1) + " " + t
		}
	}
	return b.FitLabel(width)
}

// minTimedLabel is the fewest cells of the key a label keeps beside its
// time.
const minTimedLabel = 4

// minuteTime drops the seconds of a time shortTime wrote:
// "10-31 00:00:32" → "10-31 00:00".
func minuteTime(short string) string {
	if len(short) < len("01-02 15:04:05") {
		return ""
	}
	return short[:len(short)-len(":05")]
}

// shortTime drops the year and the zone mark of a time written as
// "2026-10-31 00:00:32Z" ("rev " kept): "10-31 00:00:32".
func shortTime(t string) string {
	rev, rest := "", t
	if r, ok := strings.CutPrefix(t, "rev "); ok {
		rev, rest = "rev ", r
	}
	if len(rest) < len("2006-01-02 15:04:05Z") {
		return ""
	}
	return rev + strings.TrimSuffix(rest[len("2006-"):], "Z")
}
