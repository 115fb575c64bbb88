package sampler

import (
	"context"
	"iter"
	"slices"
	"sort"
	"strings"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// A tablet that holds the end of one top-level prefix and the start of
// the next (or several prefixes, or the first or last rows of the table)
// is a poor line between its boundary keys: the key map gives the keys
// between the prefixes ("acct#0556…" to "cart#") and after the last one
// room where no row exists, and the probes cannot tell where the rows
// are. Such a tablet is cut into pieces first, one per top-level prefix
// it holds, each the line from the piece's first row to its last:
//
//   - a forward read of a few rows from the tablet's start finds the
//     first piece's first rows; a forward read from the end of its prefix
//     finds the next piece's; and so on, up to maxPieces pieces; a
//     tablet that holds one prefix after all keeps its plain line;
//   - a reverse read of a few rows back from the end of each piece's
//     prefix (or of the tablet) finds its last rows;
//   - each piece's line is the key map's with every position free (see
//     [keyMap.allFree]), and it gets a share of the tablet's line by the
//     rows it holds, estimated from how dense its first and last rows are
//     on that line (a piece whose first and last rows meet is known
//     exactly);
//   - the rows those reads found are the warp's observations, in place
//     of the probes';
//   - the spans are drawn piece by piece (see [worker.readTablet]).
//
// Every point of the warped line still falls in a span with the same
// chance, so every row is read with the same chance whatever the pieces'
// shares; the pieces make the spans' rows even, a piece of a small
// prefix never goes unread, and a span cut short by its row limit no
// longer stands for rows of the next prefix.

// maxPieces is the most pieces a tablet is cut into; past it, the rest of
// the tablet is one piece.
const maxPieces = 16

// piece is one top-level prefix's rows in a tablet.
type piece struct {
	line       segment
	first      string
	last       string
	stop       string   // the end of its prefix, or of the tablet
	head, tail []string // rows read at its start, and at its end (in order)
	rows       float64  // the rows it holds, estimated
}

// tabletLine is the line a tablet's positions are spread on: its
// segment between the boundary keys, or its pieces one after another,
// each as long as its share of the rows.
type tabletLine struct {
	whole  segment
	pieces []piece
	// cum[h] is where piece h starts on the line; cum[len(pieces)] is 1.
	cum []float64
}

// at returns the key at share u (0 ≤ u ≤ 1) of the line.
func (l tabletLine) at(u float64) string {
	if len(l.pieces) == 0 {
		return l.whole.at(u)
	}
	h := l.pieceAt(u)
	room := l.cum[h+1] - l.cum[h]
	if u <= l.cum[h] || room <= 0 {
		return l.pieces[h].first
	}
	return l.pieces[h].line.at(min(1, (u-l.cum[h])/room))
}

// pieceAt returns the piece whose part of the line holds u.
func (l tabletLine) pieceAt(u float64) int {
	h := sort.Search(len(l.pieces), func(h int) bool { return l.cum[h+1] > u })
	return min(h, len(l.pieces)-1)
}

// share returns where key lies on the line, from 0 to 1.
func (l tabletLine) share(key string) float64 {
	if len(l.pieces) == 0 {
		return l.whole.share(key)
	}
	// The last piece whose first key is not above key.
	h := sort.Search(len(l.pieces), func(h int) bool { return l.pieces[h].first > key }) - 1
	if h < 0 {
		return 0
	}
	p := l.pieces[h]
	if key > p.last {
		return l.cum[h+1]
	}
	return l.cum[h] + (l.cum[h+1]-l.cum[h])*p.line.share(key)
}

// observed returns what the pieces' reads saw of the line, for the warp:
// the density of the rows at each piece's start and end.
func (l tabletLine) observed() []observed {
	var seen []observed
	for _, p := range l.pieces {
		for _, keys := range [][]string{p.head, p.tail} {
			if len(keys) < 2 {
				continue
			}
			from, to := l.share(keys[0]), l.share(keys[len(keys)-1])
			if to > from {
				seen = append(seen, observed{from: from, to: to, rows: float64(len(keys) - 1)})
			}
		}
	}
	return seen
}

// stratum is a part [from, to) of a tablet's warped line whose spans
// are drawn apart; coverage is the share of it they cover.
type stratum struct {
	from, to, coverage float64
}

// strata returns the line's pieces on the warped line, or the whole line
// as one stratum.
func (l tabletLine) strata(warped warp) []stratum {
	if len(l.pieces) == 0 {
		return []stratum{{from: 0, to: warped.length()}}
	}
	strata := make([]stratum, len(l.pieces))
	for h := range strata {
		strata[h] = stratum{from: warped.at(l.cum[h]), to: warped.at(l.cum[h+1])}
	}
	strata[len(strata)-1].to = warped.length()
	return strata
}

// lineOf returns the line of the tablet [start, end), which holds about
// rows rows: its pieces when it may hold more than one top-level prefix
// (see above), else its segment.
//
// An emulator reads every row of a range asked for, whatever the row
// limit, so the reads that find the pieces' ends ask for small ranges
// where they can: windows of the line near the end sought (see
// [worker.peekNear]), the keys between one prefix and the tablet's last
// (most often none), and for the first piece's last row a window where
// the tablet's rows less the other pieces' put it.
func (w *worker) lineOf(ctx context.Context, start, end string, rows float64) (tabletLine, error) {
	s := w.s
	line := tabletLine{whole: s.plan.keys.segmentOf(s.plan.lineStart(start, end), end)}
	if s.delimiters == "" {
		return line, nil
	}
	split := keyspace.NewSplitter(s.delimiters)
	top := func(key string) string { return key[:split.Next(key, 0)] }
	if start != "" && end != "" && top(start) == top(end) {
		return line, nil
	}
	free := s.plan.keys.allFree()
	// stopOf returns where the piece that starts at first ends at the
	// latest: the end of its prefix, or of the tablet.
	stopOf := func(first string) string {
		prefix := top(first)
		if next := keyspace.PrefixEnd(prefix); len(line.pieces) < maxPieces-1 && isDelimiterEnd(prefix, s.delimiters) && next != "" && (end == "" || next < end) {
			return next
		}
		return end
	}
	var head []string
	var err error
	if start == "" && end != "" {
		// The first tablet: rows before its last prefix, if any.
		head, err = w.peek(ctx, start, top(end), false)
	} else {
		head, err = w.peekNear(ctx, line.whole, start, end, false)
	}
	for err == nil && len(head) > 0 {
		p := piece{first: head[0], stop: stopOf(head[0])}
		for _, key := range head {
			if p.stop == "" || key < p.stop {
				p.head = append(p.head, key)
			}
		}
		if len(p.head) < len(head) || len(head) < probeRows {
			p.tail = p.head // every row of the piece was read
		}
		line.pieces = append(line.pieces, p)
		if p.stop == end {
			break
		}
		head, err = w.nextPiece(ctx, free, p.stop, end, top)
	}
	if err != nil || len(line.pieces) < 2 {
		// One prefix: the tablet's line and its probes serve.
		return tabletLine{whole: line.whole}, err
	}
	// The last rows of every piece but the first, then of the first.
	n := len(line.pieces)
	others := 0.0
	for h := n - 1; h >= 0; h-- {
		p := &line.pieces[h]
		if p.tail == nil {
			switch {
			case h == n-1:
				lineEnd := p.stop
				if lineEnd == "" {
					lineEnd = keyspace.PrefixEnd(top(p.first))
				}
				p.tail, err = w.peekNear(ctx, free.segmentOf(p.first, lineEnd), p.first, p.stop, true)
			case h > 0:
				p.tail, err = w.peek(ctx, p.first, p.stop, true)
			default:
				p.tail, err = w.peekLast(ctx, free, p, rows-others)
			}
			if err != nil {
				return line, err
			}
		}
		p.last = p.tail[len(p.tail)-1]
		p.line = free.segmentOf(p.first, p.last+"\x00")
		p.rows = p.estimateRows()
		others += p.rows
	}
	line.place()
	return line, nil
}

// nextPiece returns the first rows of the piece after stop in the tablet
// ending at end: of a prefix between stop and the tablet's last one,
// when there is one, else of the tablet's last prefix.
func (w *worker) nextPiece(ctx context.Context, free *keyMap, stop, end string, top func(string) string) ([]string, error) {
	if end == "" {
		return w.peek(ctx, stop, end, false)
	}
	last := top(end)
	if last > stop {
		keys, err := w.peek(ctx, stop, last, false)
		if err != nil || len(keys) > 0 {
			return keys, err
		}
	}
	// The last prefix's first row: at or after the least key shaped like
	// the tablet's end key (fixed-width ids start at "…#0000000"), read
	// in windows of the line from there; before it, when the guess is
	// wrong.
	from := max(stop, last)
	line := free.segmentOf(from, end)
	if least := leastLike(end, len(last)); least > from && least < end {
		keys, err := w.peek(ctx, from, least, false)
		switch {
		case err != nil || len(keys) >= probeRows:
			return keys, err
		case len(keys) > 0: // rows before the guess: they go on after it
			return w.peekNear(ctx, line, from, end, false)
		}
		from, line = least, free.segmentOf(least, end)
	}
	return w.peekNear(ctx, line, from, end, false)
}

// leastLike returns the least key shaped like key after its first n
// bytes: each digit, lower-case or upper-case letter the least of its
// class, every other byte kept.
func leastLike(key string, n int) string {
	b := []byte(key)
	for i := n; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			b[i] = '0'
		case c >= 'a' && c <= 'z':
			b[i] = 'a'
		case c >= 'A' && c <= 'Z':
			b[i] = 'A'
		}
	}
	return string(b)
}

// peekLast returns the last rows of the first piece p of a tablet, which
// holds about rows rows: it reads back from where that many rows at the
// density of its first rows end, and from further back if none are
// there.
func (w *worker) peekLast(ctx context.Context, free *keyMap, p *piece, rows float64) ([]string, error) {
	line := free.segmentOf(p.first, p.stop)
	if p.stop == "" {
		line = free.segmentOf(p.first, keyspace.PrefixEnd(p.first))
	}
	span := line.share(p.head[len(p.head)-1]) - line.share(p.first)
	if span <= 0 || rows <= 0 {
		return w.peek(ctx, p.first, p.stop, true)
	}
	density := float64(len(p.head)-1) / span // rows per unit of the line
	margin := max(lastRowMargin*rows, probeWindowRows*16)
	for from, to := range backWindows(line.at, p.first, p.stop, rows/density, margin/density) {
		keys, err := w.peek(ctx, from, to, true)
		if err != nil || len(keys) > 0 || from == p.first {
			return keys, err
		}
	}
	return nil, nil // not reached: the last window starts at p.first
}

// backWindows yields the windows [from, to) of a piece's line that
// [worker.peekLast] reads back, each just before the last: the first
// ends at stop and starts margin before end (shares of the line, at
// line), each next one starts twice as far back; the first that holds
// rows holds the piece's last ones. The last window starts at first: once
// the windows reach the line's start, or would start at or before first,
// or stop moving back. The line's keys are cut to the key map's
// precision, and with long keys (e-mail addresses) its start can lie
// above first, where the windows would shrink to one empty one for ever.
func backWindows(at func(float64) string, first, stop string, end, margin float64) iter.Seq2[string, string] {
	return func(yield func(from, to string) bool) {
		to := stop
		for back := margin; ; back *= 2 {
			from := first
			if u := end - back; u > 0 { // not for NaN
				from = at(u)
			}
			if from <= first || to != "" && from >= to {
				yield(first, to)
				return
			}
			if !yield(from, to) {
				return
			}
			to = from
		}
	}
}

// lastRowMargin is how far before its estimated end, as a share of its
// estimated rows, the first piece of a tablet is read back from.
const lastRowMargin = 0.05

// peekNear returns up to probeRows row keys of [start, end) nearest start
// (or, reverse, nearest end), reading windows of line first, from a
// 256th of it up, then the whole range.
func (w *worker) peekNear(ctx context.Context, line segment, start, end string, reverse bool) ([]string, error) {
	for frac := 1.0 / 256; frac < 1; frac *= 8 {
		lo, hi := start, end
		if k := line.at(1 - frac); reverse && k > lo {
			lo = k
		}
		if k := line.at(frac); !reverse && k != "" && (hi == "" || k < hi) {
			hi = k
		}
		if hi != "" && hi <= lo || lo == start && hi == end {
			continue
		}
		keys, err := w.peek(ctx, lo, hi, reverse)
		if err != nil || len(keys) >= probeRows {
			return keys, err
		}
	}
	return w.peek(ctx, start, end, reverse)
}

// place gives the pieces their shares of the tablet's line.
func (l *tabletLine) place() {
	var total float64
	for _, p := range l.pieces {
		total += p.rows
	}
	l.cum = make([]float64, len(l.pieces)+1)
	for h, p := range l.pieces {
		l.cum[h+1] = l.cum[h] + p.rows/total
	}
	l.cum[len(l.pieces)] = 1
}

// allFree returns the key map with every position free, for the line of
// a piece: inside one top-level prefix, between two rows read, the tablet
// boundaries do not say which bytes the keys take (one boundary key
// "msg#0030989" would leave "msg#0000000" to "msg#0029999" no room), and
// the bytes of each class seen at a position anywhere are the best guess.
func (m *keyMap) allFree() *keyMap {
	free := *m
	free.free = make([]bool, keyMapDepth)
	for i := range free.free {
		free.free[i] = true
	}
	return &free
}

// estimateRows returns the rows of a piece: those read when its first and
// last rows meet, else its line's length at the density of the rows read
// at its ends.
func (p *piece) estimateRows() float64 {
	known := len(p.head)
	if n := len(p.tail); n > 0 && len(p.head) > 0 && p.tail[0] <= p.head[len(p.head)-1] {
		// The reads overlap: every row of the piece was read.
		keys := append(slices.Clone(p.head), p.tail...)
		slices.Sort(keys)
		return float64(len(slices.Compact(keys)))
	}
	known += len(p.tail)
	gaps, length := 0.0, 0.0
	for _, keys := range [][]string{p.head, p.tail} {
		if len(keys) >= 2 {
			gaps += float64(len(keys) - 1)
			length += p.line.share(keys[len(keys)-1]) - p.line.share(keys[0])
		}
	}
	if gaps == 0 || length <= 0 {
		return float64(known)
	}
	return max(float64(known), gaps/length)
}

// peek reads up to probeRows row keys of [start, end), from the start or,
// reverse, from the end back; the keys come in key order. The rows only
// count as read.
func (w *worker) peek(ctx context.Context, start, end string, reverse bool) ([]string, error) {
	s := w.s
	var keys []string
	opts := s.readOptions(false, probeRows)
	if reverse {
		opts = append(opts, bigtable.ReverseScan())
	}
	err := s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
		keys = append(keys, row.Key())
		s.rowsRead.Add(1)
		w.watch.touch(w.id)
		return true
	}, opts...)
	if reverse {
		slices.Reverse(keys)
	}
	return keys, err
}

// isDelimiterEnd reports whether prefix ends with one of delimiters: a
// key's first segment that is a top-level prefix, not the whole key.
func isDelimiterEnd(prefix, delimiters string) bool {
	return prefix != "" && strings.IndexByte(delimiters, prefix[len(prefix)-1]) >= 0
}
