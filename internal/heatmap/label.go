package heatmap

import (
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/keytime"
)

// ellipsis stands for the part of a label left out.
const ellipsis = "…"

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
	raws := make([]string, len(m.Buckets))
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
		raws[k] = raw
		b.LabelTime = labelTime(raw, key, delimiters)
		previous = key
	}
	hexFrom := branchEscapes(raws)
	for k := range m.Buckets {
		m.Buckets[k].Label, m.Buckets[k].ShortLabel = labelTexts(raws[k], view, hexFrom[k])
		m.Buckets[k].HexFrom = hexFrom[k]
		if hexFrom[k] >= len(raws[k]) {
			m.Buckets[k].HexFrom = -1 // no byte of the label: its keys escape as escape.Key does
		}
	}
}

// BoundTexts returns bucket b's start and end keys escaped as its labels
// are: from the byte where the labels write every byte as \xNN
// ([Bucket.HexFrom]; the next bucket's for the end, which is its start),
// so that a key reads the same in a label and in the details beside it.
// An empty key stays empty (the table's start or end).
func (m *Matrix) BoundTexts(b int) (start, end string) {
	if b < 0 || b >= len(m.Buckets) {
		return "", ""
	}
	escaped := func(key keyspace.Key, from int) string {
		if from < 0 {
			return key.String()
		}
		return escape.KeyHexFrom(string(key), from)
	}
	bucket := &m.Buckets[b]
	start = escaped(bucket.Start, bucket.HexFrom)
	endFrom := -1
	if b+1 < len(m.Buckets) {
		endFrom = m.Buckets[b+1].HexFrom
	}
	end = escaped(bucket.End, endFrom)
	if bucket.Start == "" {
		start = ""
	}
	if bucket.End == "" {
		end = ""
	}
	return start, end
}

// branchEscapes returns, for each of raws (strictly increasing), the byte
// from which its label writes every byte as \xNN (past its end when
// none). [escape.Key] alone does not always keep labels in order: an
// escape starts with a backslash, which sorts among the printable bytes,
// so "\x1f" sorts after " " and "\x80" before "a" as text, though not
// as bytes. Wherever labels branch (share their first i bytes and differ
// at byte i) on such a mix, every branch writes its bytes from i on as
// \xNN, which sort as the bytes do. Labels that share a later byte
// shared byte i too, so they decided alike.
func branchEscapes(raws []string) []int {
	n := len(raws)
	from := make([]int, n)
	longest := 0
	for k, raw := range raws {
		from[k] = len(raw)
		longest = max(longest, len(raw))
	}
	shared := make([]int, n) // shared[k]: bytes raws[k-1] and raws[k] share
	for k := 1; k < n; k++ {
		shared[k] = len(keyspace.CommonPrefix(raws[k-1], raws[k]))
	}
	for i := range longest {
		for a := 0; a < n; {
			b := a // labels a…b share their first i bytes
			for b+1 < n && shared[b+1] >= i {
				b++
			}
			var mix branchMix
			for k := a; k <= b; k++ {
				if i < len(raws[k]) {
					mix.add(raws[k][i])
				}
			}
			if mix.misorders() {
				for k := a; k <= b; k++ {
					from[k] = min(from[k], i)
				}
			}
			a = b + 1
		}
	}
	return from
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

// branchMix is what bytes labels take where they branch.
type branchMix struct {
	lowEscape, highEscape, lowPrintable, highPrintable bool
}

func (m *branchMix) add(c byte) {
	switch {
	case c == '\\': // its escape sorts where the byte does
	case escape.KeyByteNeedsEscape(c) && c < ' ':
		m.lowEscape = true
	case escape.KeyByteNeedsEscape(c):
		m.highEscape = true
	case c < '\\':
		m.lowPrintable = true
	default:
		m.highPrintable = true
	}
}

// misorders reports whether escaped and printable branches would sort
// apart from their bytes: a byte below the printable ones written as
// "\x…" sorts after the printable bytes below the backslash, one above
// them before those above it.
func (m branchMix) misorders() bool {
	return m.lowEscape && m.lowPrintable || m.highEscape && m.highPrintable
}

// labelTexts returns the printable label of raw key bytes, every byte
// from hexFrom on written as \xNN (see [branchEscapes]), and its short
// form: "…" and the rest when raw extends the view's shared prefix.
func labelTexts(raw, view string, hexFrom int) (label, short string) {
	if raw == "" {
		return tableStartLabel, tableStartLabel
	}
	label = escape.KeyHexFrom(raw, hexFrom)
	if rest, ok := strings.CutPrefix(raw, view); ok && view != "" && rest != "" {
		return label, ellipsis + escape.KeyHexFrom(rest, max(hexFrom-len(view), 0))
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

// TimedLabels returns the matrix's labels ([Matrix.FitLabels]) with
// the time each one's key holds ([Bucket.LabelTime]) after it, in width
// cells: the label is cut to leave room for the time, written without
// its year when the key would keep less than a third of the gutter, and
// without its seconds when room is shorter still (an 18-cell gutter:
// "…1793… 10-31 00:00", keytime.Forms). A label without a time, or a
// gutter too narrow for one, is only cut.
func (m *Matrix) TimedLabels(width int) []string {
	fitted := map[int][]string{}
	fit := func(k, width int) string {
		if fitted[width] == nil {
			fitted[width] = m.FitLabels(width)
		}
		return fitted[width][k]
	}
	out := make([]string, len(m.Buckets))
	for k := range m.Buckets {
		b := &m.Buckets[k]
		out[k] = ""
		for _, t := range keytime.Forms(b.LabelTime) {
			if width-len(t)-1 >= max(minTimedLabel, width/timedLabelShare) {
				out[k] = fit(k, width-len(t)-1) + " " + t
				break
			}
		}
		if out[k] == "" {
			out[k] = fit(k, width)
		}
	}
	return out
}

// minTimedLabel is the fewest cells of the key a label keeps beside its
// time, and 1/timedLabelShare of the gutter: a shorter form of the time
// is taken before the key is cut to a stub that every label shares.
const (
	minTimedLabel   = 4
	timedLabelShare = 3
)
