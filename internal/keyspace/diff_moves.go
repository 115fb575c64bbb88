package keyspace

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// MoveDirection says which way a [PrefixMove] went.
type MoveDirection string

// The directions of a [PrefixMove].
const (
	// MovedBehind: the prefix led keys before and sits behind a new
	// leading segment after (salting: hash mod N in front; a tenant or
	// region put in front).
	MovedBehind MoveDirection = "behind-new-leading-segment"
	// MovedToFront: the prefix sat behind a leading segment before and
	// leads keys after (a salt or a leading field taken out).
	MovedToFront MoveDirection = "to-front"
)

// PrefixMove is a key prefix that one snapshot holds at the start of its
// keys and the other behind a leading key segment, in one or more pieces,
// one per leading segment. A diff by key range sees only a prefix removed
// and others added; the move says where its rows went, and how the
// largest piece compares with the whole (a salted hot range should be
// about 1/N of what it was).
type PrefixMove struct {
	// Prefix is the moved prefix as it stands where it leads the key.
	Prefix    Key
	Direction MoveDirection
	// Whole measures Prefix on the side where it leads the key (before for
	// [MovedBehind], after for [MovedToFront]).
	Whole PrefixMeasure
	// Pieces are the prefixes, leading segment included, that hold it on
	// the other side, in key order, measured there.
	Pieces []MovePiece
	// Sum adds up the pieces; its Exact is false when any piece's is.
	Sum PrefixMeasure
}

// MovePiece is one piece of a [PrefixMove]: the moved prefix behind one
// leading segment.
type MovePiece struct {
	Prefix  Key
	Measure PrefixMeasure
}

// Largest returns the piece with the largest share of rows (the first in
// key order on a tie).
func (m *PrefixMove) Largest() MovePiece {
	largest := m.Pieces[0]
	for _, p := range m.Pieces[1:] {
		if p.Measure.RowShare > largest.Measure.RowShare {
			largest = p
		}
	}
	return largest
}

// Limits of [findMoves]' work.
const (
	// MaxMoves is how many moved prefixes a diff keeps, those that spread
	// most.
	MaxMoves = 100
	// maxLeadingSegments is how many leading segments findMoves measures
	// every moved prefix behind; with more, a move has only the pieces the
	// trees compared, and its sum is a lower bound.
	maxLeadingSegments = 4096
)

// findMoves finds the prefixes of d that one side holds at the start of
// its keys and the other only behind a leading segment: a compared
// prefix P present on one side alone, and compared prefixes S+P present
// on the other side alone, where S is the prefix of a node above S+P in
// that side's tree. Once found, each moved prefix is measured behind
// every leading segment S seen, so pieces the tree merged into ranges
// count too. It keeps the [MaxMoves] that spread most: whose largest
// piece holds the least of what the whole held.
func findMoves(d *SnapshotDiff, before, after *Snapshot) []PrefixMove {
	moves := map[string]*PrefixMove{}
	leading := map[MoveDirection]map[string]bool{MovedBehind: {}, MovedToFront: {}}
	for _, c := range d.Prefixes {
		var side *Snapshot
		var lead PrefixStatus // the status P must have for c to be S+P
		var direction MoveDirection
		switch c.Status {
		case PrefixAdded:
			side, lead, direction = after, PrefixRemoved, MovedBehind
		case PrefixRemoved:
			side, lead, direction = before, PrefixAdded, MovedToFront
		default:
			continue
		}
		path := side.Root.Lookup(string(c.Prefix))
		for _, above := range path[:max(len(path)-1, 0)] {
			if above.Depth < 1 {
				continue
			}
			rest := strings.TrimPrefix(string(c.Prefix), string(above.Prefix))
			whole, ok := d.Lookup(rest)
			if !ok || whole.Status != lead {
				continue
			}
			m := moves[rest]
			if m == nil {
				m = &PrefixMove{Prefix: Key(rest), Direction: direction, Whole: whole.Before}
				if direction == MovedToFront {
					m.Whole = whole.After
				}
				moves[rest] = m
			}
			piece := c.After
			if direction == MovedToFront {
				piece = c.Before
			}
			m.Pieces = append(m.Pieces, MovePiece{Prefix: c.Prefix, Measure: piece})
			leading[direction][string(above.Prefix)] = true
			break // the shallowest leading segment that fits names the move
		}
	}
	out := make([]PrefixMove, 0, len(moves))
	for _, m := range moves {
		out = append(out, *m)
	}
	sortMoves(out)
	out = out[:min(len(out), MaxMoves)]
	for i := range out {
		m := &out[i]
		segments := leading[m.Direction]
		m.Sum = PrefixMeasure{Exact: len(segments) <= maxLeadingSegments}
		if m.Sum.Exact {
			side := after
			if m.Direction == MovedToFront {
				side = before
			}
			m.Pieces = m.Pieces[:0]
			for _, s := range slices.Sorted(maps.Keys(segments)) {
				piece := s + string(m.Prefix)
				measured := measure(side, piece, PrefixEnd(piece))
				if measured.Rows > 0 {
					m.Pieces = append(m.Pieces, MovePiece{Prefix: Key(piece), Measure: measured})
				}
				// A piece wholly inside a merged range measures nothing.
				m.Sum.Exact = m.Sum.Exact && measured.Exact
			}
		}
		for _, p := range m.Pieces {
			m.Sum.add(p.Measure)
		}
	}
	sortMoves(out)
	return out
}

// sortMoves puts the moves that spread most first: by how much of the
// table's rows the largest piece holds less than the whole did, then by
// the whole's share of rows, then in key order.
func sortMoves(moves []PrefixMove) {
	spread := func(m *PrefixMove) float64 { return m.Whole.RowShare - m.Largest().Measure.RowShare }
	slices.SortFunc(moves, func(a, b PrefixMove) int {
		return cmp.Or(cmp.Compare(spread(&b), spread(&a)), cmp.Compare(b.Whole.RowShare, a.Whole.RowShare), cmp.Compare(a.Prefix, b.Prefix))
	})
}

// add adds a piece's counts and shares to m.
func (m *PrefixMeasure) add(p PrefixMeasure) {
	m.Rows += p.Rows
	m.Cells += p.Cells
	m.Bytes += p.Bytes
	m.RowShare += p.RowShare
	m.WriteShare += p.WriteShare
	m.ByteShare += p.ByteShare
	m.Exact = m.Exact && p.Exact
}
