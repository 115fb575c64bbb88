package heatmap

import (
	"strings"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/escape"
)

// FitLabels returns the short labels of the matrix's buckets
// ([Bucket.ShortLabel]) cut to at most width cells each, so that they
// still read top to bottom in key order as strings, and each is a prefix
// of its label or the label with parts left out around "…":
//
//   - A label that fits is whole.
//   - A label too long keeps its start, through the byte that sets it
//     apart from the label above and the one that sets the label below
//     apart from it, and ends in "…".
//   - Labels that share more than a gutter's width (the rows of one user
//     under a view of many) cannot all show their differing bytes that
//     way: such a run of labels leaves out the part every one of them
//     shares, the same part in each ("…carmen_h…p000473"), and keeps the
//     start to where the label below the run sets itself apart.
//   - A run that cannot stay apart that way (its shared part ends before
//     the label below it sets itself apart: the pages of many hosts) is
//     cut in parts where its labels share least, one host each
//     ("dev…apple.com/faq", "dev…mozilla.org/a…").
//
// A cut never splits a \xNN escape. Width 0 or less leaves labels whole.
func (m *Matrix) FitLabels(width int) []string {
	labels := make([]string, len(m.Buckets))
	for k := range m.Buckets {
		labels[k] = m.Buckets[k].ShortLabel
	}
	return fitLabels(labels, width)
}

// FitFullLabels is [Matrix.FitLabels] for the labels with nothing elided
// ([Bucket.Label]).
func (m *Matrix) FitFullLabels(width int) []string {
	labels := make([]string, len(m.Buckets))
	for k := range m.Buckets {
		labels[k] = m.Buckets[k].Label
	}
	return fitLabels(labels, width)
}

// fitLabels cuts labels, strictly increasing strings of printable ASCII
// and "…" (one cell each), to width cells as [Matrix.FitLabels] says.
//
// Why they stay in order: two labels compare at the first byte where they
// differ, d. A label cut at its end keeps every byte up to the
// differences with both its neighbours, so each pair still compares at d.
// A run of labels that differ only past the width keeps the same start
// S[:h] and leaves out the same bytes [h, L) — all of the run shares them
// — so two labels of the run compare at d in what follows. The label
// below the run differs from the run's last within its first h bytes, and
// the label above either does too or shows a plain byte where the run
// shows "…", which sorts after every printable byte.
func fitLabels(labels []string, width int) []string {
	out := make([]string, len(labels))
	if width <= 0 {
		copy(out, labels)
		return out
	}
	n := len(labels)
	// d[k] is where labels k-1 and k first differ (bytes), for k ≥ 1.
	d := make([]int, n)
	for k := 1; k < n; k++ {
		d[k] = commonPrefixLen(labels[k-1], labels[k])
	}
	// A label is cut at its end when it can show the bytes that set it
	// apart from both neighbours; one that cannot starts a run, which
	// goes on while the next cannot either.
	plain := func(k int) bool {
		return showsWithin(labels[k], d[k], width) && (k+1 == n || showsWithin(labels[k], d[k+1], width))
	}
	for a := 0; a < n; {
		if plain(a) {
			out[a] = cutEnd(labels[a], decisiveEnd(labels, d, a), width)
			a++
			continue
		}
		b := a
		for b+1 < n && !plain(b+1) {
			b++
		}
		a = fitRun(labels, d, a, b, width, out) + 1
	}
	return out
}

// decisiveEnd returns the end (bytes) of what label k must show to stay
// apart from its neighbours: through the first byte where each differs,
// never splitting an escape.
func decisiveEnd(labels []string, d []int, k int) int {
	end := 0
	if k > 0 {
		end = max(end, byteEnd(labels[k], d[k]))
	}
	if k+1 < len(labels) {
		end = max(end, byteEnd(labels[k], d[k+1]))
	}
	return end
}

// cutEnd returns s whole when it fits width, else its start, at least
// through byte need, cut to width-1 cells and closed by "…".
func cutEnd(s string, need, width int) string {
	if cells(s) <= width {
		return s
	}
	cut := cellsPrefix(s, width-1)
	if cut < need { // no room for the mark: keep what sets it apart
		return s[:cellsPrefix(s, width)]
	}
	return s[:cut] + escape.Ellipsis
}

// fitRun cuts the labels a…b, which cannot show what sets them apart
// within the width, as one: the same start S[:h], "…", and each label
// from L on, where all of them share S[:L]. The label below the run must
// differ within S[:h]; when that leaves too little room for the run's
// labels to stay apart, the run takes in the labels below it, one by one,
// until they do. When none of that keeps every label apart, the run is
// cut in parts ([fitParts]) if they do better. It returns the run's last
// label.
func fitRun(labels []string, d []int, a, b, width int, out []string) int {
	var best []string
	bestEnd, bestTies := b, -1
	for end := b; end < len(labels) && end <= b+maxRunGrowth && bestTies != 0; end++ {
		if fitted, ties := fitRunOnce(labels, d, a, end, width); fitted != nil && (bestTies < 0 || ties < bestTies) {
			best, bestEnd, bestTies = fitted, end, ties
		}
	}
	if parts := fitPartsIfBetter(labels, d, a, b, width, bestTies); parts != nil {
		best, bestEnd = parts, b
	}
	copy(out[a:], best)
	return bestEnd
}

// fitRunOnce returns the labels a…b cut as one run and how many of them
// read the same as the one above, or nil when they cannot be cut as one.
// The start shows where the run differs from the label above when that
// leaves room for the rest; else it is kept short.
func fitRunOnce(labels []string, d []int, a, b, width int) (best []string, bestTies int) {
	bestTies = -1
	for _, informative := range []bool{true, false} {
		if fitted := fitRunAs(labels, d, a, b, width, informative); fitted != nil {
			if ties := ties(fitted); bestTies < 0 || ties < bestTies {
				best, bestTies = fitted, ties
			}
		}
	}
	return best, bestTies
}

// fitPartsIfBetter returns the run a…b cut in parts ([fitParts]) when
// that leaves fewer labels reading the same than tied, the count of the
// best cut as one (−1: none), or nil.
func fitPartsIfBetter(labels []string, d []int, a, b, width, tied int) []string {
	if tied == 0 {
		return nil
	}
	parts := make([]string, b-a+1)
	fitParts(labels, d, a, b, width, parts)
	if tied >= 0 && ties(parts) >= tied {
		return nil
	}
	return parts
}

// fitParts cuts the run a…b into out (its labels only) in parts that
// split where its labels share least, each part cut as a run of its own
// that takes in no label below it. Parts stay in order for the reason
// runs do: each keeps its start through the byte where the label below
// it differs, and the label above shows a plain byte where the part
// shows its "…" or a byte that sorts before the part's. A part that is
// the whole run (all of it shares as much) or one label is cut at its
// end.
func fitParts(labels []string, d []int, a, b, width int, out []string) {
	least := 0
	for k := a + 1; k <= b; k++ {
		if k == a+1 || d[k] < least {
			least = d[k]
		}
	}
	for start := a; start <= b; {
		end := start
		for end < b && d[end+1] > least {
			end++
		}
		var part []string
		if end > start && end-start < b-a {
			var tied int
			part, tied = fitRunOnce(labels, d, start, end, width)
			if parts := fitPartsIfBetter(labels, d, start, end, width, tied); parts != nil {
				part = parts
			}
		}
		for k := start; k <= end; k++ {
			if part != nil {
				out[k-a] = part[k-start]
			} else {
				out[k-a] = cutEnd(labels[k], decisiveEnd(labels, d, k), width)
			}
		}
		start = end + 1
	}
}

// maxRunGrowth bounds how many labels below a run it takes in.
const maxRunGrowth = 64

// fitRunAs returns the labels a…b cut as one run, or nil when the run
// has nothing to leave out or no room after it.
func fitRunAs(labels []string, d []int, a, b, width int, informative bool) []string {
	shared, head := runBounds(labels, d, a, b, width, informative)
	room := width - cells(labels[a][:head]) - 1
	if head >= shared || room < minFitWidth {
		return nil
	}
	// What follows the left-out part is fitted the same way, in the room
	// left: the run's labels less what they all share are increasing
	// strings too, and may hold runs of their own (the rows of one post
	// under the rows of one user).
	tails := make([]string, b-a+1)
	for k := a; k <= b; k++ {
		tails[k-a] = labels[k][shared:]
	}
	fitted := fitLabels(tails, room)
	for k := range fitted {
		fitted[k] = labels[a+k][:head] + escape.Ellipsis + fitted[k]
	}
	return fitted
}

// ties counts the labels that do not sort after the one above.
func ties(labels []string) int {
	n := 0
	for k := 1; k < len(labels); k++ {
		if labels[k] <= labels[k-1] {
			n++
		}
	}
	return n
}

// runBounds returns where the run a…b's left-out part starts (head) and
// ends (shared): it ends where the run's labels stop sharing bytes (for a
// run of one, where it differs from the label above, which it then
// shows); it starts past the byte where the label below the run differs,
// so that that label sorts after the run, and when informative past the
// one where the run differs from the label above, if there is room.
func runBounds(labels []string, d []int, a, b, width int, informative bool) (shared, head int) {
	shared = d[a]
	if b > a {
		shared = d[a+1]
		for k := a + 2; k <= b; k++ {
			shared = min(shared, d[k])
		}
	}
	shared = escapeStart(labels[a], shared)
	head = byteEnd(labels[a], 0)
	if strings.HasPrefix(labels[a], escape.Ellipsis) {
		head = byteEnd(labels[a], len(escape.Ellipsis))
	}
	if b+1 < len(labels) {
		head = max(head, byteEnd(labels[b], d[b+1]))
	}
	if a > 0 && informative {
		if informative := byteEnd(labels[a], d[a]); informative <= shared && cells(labels[a][:informative])+1+minTail <= width {
			head = max(head, informative)
		}
	}
	return shared, min(head, shared)
}

// minFitWidth is the narrowest room a run's labels are fitted into
// after the part they leave out: one cell that tells two labels apart
// ("planet-express#c…0", "…7") reads better than two alike.
const minFitWidth = 1

// minTail is the fewest cells a run's labels keep after the part they
// leave out, when the start could show more.
const minTail = 8

// showsWithin reports whether s shows its byte at (or all of s when at is
// past its end) within width cells, leaving one for a closing "…" when s
// must be cut.
func showsWithin(s string, at, width int) bool {
	if cells(s) <= width {
		return true
	}
	return cells(s[:byteEnd(s, at)]) <= width-1
}

// nextCell returns where the cell that starts at byte i of s ends: a
// \xNN escape is one unit of four cells, "…" one of three bytes.
func nextCell(s string, i int) int {
	switch {
	case s[i] == '\\':
		return min(i+4, len(s))
	case s[i] >= utf8.RuneSelf:
		_, size := utf8.DecodeRuneInString(s[i:])
		return i + size
	}
	return i + 1
}

// byteEnd returns the end of the unit holding byte at of s (past a whole
// escape), or the end of s when at is past it.
func byteEnd(s string, at int) int {
	_, end := unitAt(s, at)
	return end
}

// escapeStart returns the start of the unit holding byte at of s.
func escapeStart(s string, at int) int {
	start, _ := unitAt(s, at)
	return start
}

// unitAt returns where the unit holding byte at of s starts and ends, or
// the end of s twice when at is past it.
func unitAt(s string, at int) (start, end int) {
	for i := 0; i < len(s); {
		next := nextCell(s, i)
		if at < next {
			return i, next
		}
		i = next
	}
	return len(s), len(s)
}

// cellsPrefix returns the end (bytes) of the longest prefix of s of at
// most width cells that splits no unit.
func cellsPrefix(s string, width int) int {
	end, used := 0, 0
	for end < len(s) {
		next := nextCell(s, end)
		w := cells(s[end:next])
		if used+w > width {
			break
		}
		end, used = next, used+w
	}
	return end
}

// cells returns the width of s: one cell per byte of ASCII, one per rune
// ("…").
func cells(s string) int { return utf8.RuneCountInString(s) }

func commonPrefixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
