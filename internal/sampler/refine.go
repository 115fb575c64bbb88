package sampler

import (
	"context"
	"maps"
	"math"
	"slices"
	"sync"
)

// A position sample reads the tablets inside one top-level prefix before
// the tablets that hold several (see [tabletPieces]): the first row of
// each of their spans is a key of their prefix drawn in proportion to its
// rows, and the key maps learn those before the spans of the boundary
// tablets, whose pieces are the ends of the same prefixes, are placed.
// The tablets' tasks are ordered so (the builder appends them in that
// order, which changes no total), and the first boundary tablet to be
// read waits for the others to finish and refines the maps and the model
// once for all.
// The spans of those tablets also measure how unevenly each prefix's
// keys lie along its line (see [dispersion]), which sets how many rows
// the spans of its pieces read. A table none of whose tablets lies
// inside one prefix (many small prefixes, each tablet holding several)
// would measure nothing: a few of its boundary tablets, spread over the
// table (see [soundingTablets]), are read first, their pieces' spans
// measure it, and the other boundary tablets wait for them.
type refinement struct {
	mu       sync.Mutex
	runs     [][]string             // keys its spans read together, first keys first
	measured map[int][]tabletCounts // per tablet measured, its lines' spans' counts
	pending  int                    // tablets of one prefix not yet read
	done     chan struct{}          // closed once none are left
	once     sync.Once
	// sound holds the boundary tablets read before the others for their
	// measures; soundPending how many of them are not yet read,
	// soundDone is closed once none are left.
	// soundingNeeded is set, once refined, when the other boundary
	// tablets wait for them.
	sound          map[int]bool
	soundPending   int
	soundDone      chan struct{}
	soundOnce      sync.Once
	soundingNeeded bool
}

// minSounding is the fewest boundary tablets a scan reads first for their
// measures, and soundingShare the share of them it reads so, when that
// is more (see [soundingTablets]).
const (
	minSounding   = 4
	soundingShare = 1.0 / 8
)

// soundingTablets returns the boundary tablets (then, in key order) read
// first for their pieces' measures of how unevenly each prefix's keys
// lie: soundingShare of them, at least minSounding, spread evenly over
// the table; none when there are fewer than twice minSounding, where
// waiting for them would gain the rest little. A measure needs about
// eight degrees of freedom (see [minDispersionDF]); a piece has at least
// minPieceSpans spans, four (three degrees of freedom), and a boundary
// tablet two or more pieces.
func soundingTablets(then []unit) map[int]bool {
	n := len(then)
	if n < 2*minSounding {
		return nil
	}
	k := max(minSounding, int(math.Ceil(soundingShare*float64(n))))
	sound := map[int]bool{}
	for j := range k {
		sound[then[int((float64(j)+0.5)*float64(n)/float64(k))].first] = true
	}
	return sound
}

// orderUnits returns the plan's read units, for a position sample the
// tablets of one prefix (and those read in full) first, then the
// boundary tablets that sound the prefixes' spread (see
// [soundingTablets]), then the others, each in key order.
func (s *scanner) orderUnits() []unit {
	p := s.plan
	s.refine.done = make(chan struct{})
	s.refine.soundDone = make(chan struct{})
	if len(p.pieces) == 0 {
		close(s.refine.done)
		close(s.refine.soundDone)
		return p.units
	}
	var first, then []unit
	for _, u := range p.units {
		if len(p.pieces[u.first]) > 1 && !p.tablets[u.first].whole {
			then = append(then, u)
		} else {
			first = append(first, u)
		}
	}
	s.refine.pending = len(first)
	if s.refine.pending == 0 {
		close(s.refine.done)
	}
	s.refine.sound = soundingTablets(then)
	s.refine.soundPending = len(s.refine.sound)
	if s.refine.soundPending == 0 {
		close(s.refine.soundDone)
	}
	var sound, rest []unit
	for _, u := range then {
		if s.refine.sound[u.first] {
			sound = append(sound, u)
		} else {
			rest = append(rest, u)
		}
	}
	return slices.Concat(first, sound, rest)
}

// learned records keys a tablet of one prefix read, and that it is done.
func (s *scanner) learned(runs [][]string) {
	r := &s.refine
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, runs...)
	if r.pending--; r.pending == 0 {
		close(r.done)
	}
}

// tabletCounts is the row counts of the spans of one line of a tablet:
// the tablet inside prefix, or a sounding tablet's piece of prefix.
type tabletCounts struct {
	prefix string
	counts []float64
	piece  bool
}

// measuredSpans records the row counts of the spans of a line of tablet
// i, of prefix (all of one width, each read over its whole width), a
// piece of it when piece is set; a tablet's pieces are recorded in key
// order.
func (s *scanner) measuredSpans(i int, prefix string, counts []float64, piece bool) {
	r := &s.refine
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.measured == nil {
		r.measured = map[int][]tabletCounts{}
	}
	r.measured[i] = append(r.measured[i], tabletCounts{prefix: prefix, counts: counts, piece: piece})
}

// dispersions sums the measures per prefix in tablet order, so that a
// scan's figures do not depend on which tablet finished first: those of
// the tablets inside prefixes, and those of the sounding tablets' pieces.
func (r *refinement) dispersions() (inside, pieces map[string]dispersion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	inside, pieces = map[string]dispersion{}, map[string]dispersion{}
	for _, i := range slices.Sorted(maps.Keys(r.measured)) {
		for _, m := range r.measured[i] {
			to, least := inside, 0.0
			if m.piece {
				to, least = pieces, minDispersionMean
			}
			d := to[m.prefix]
			d.add(m.counts, least)
			to[m.prefix] = d
		}
	}
	return inside, pieces
}

// refined waits until the tablets of one prefix are read and the maps
// have learned their keys; the first caller refines them, and judges
// whether the boundary tablets must wait for the sounding ones: only
// when the tablets inside prefixes measured too little for a pooled
// measure (see [spanRowsByPrefix]).
func (s *scanner) refined(ctx context.Context) error {
	select {
	case <-s.refine.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.refine.once.Do(func() {
		p := s.plan
		for _, run := range s.refine.runs {
			p.maps.learnRun(run...)
		}
		p.maps.judge()
		p.fitModel()
		s.measureInside()
	})
	return nil
}

// measureInside measures the prefixes' spread from the tablets inside
// them, and judges whether the other boundary tablets wait for the
// sounding ones.
func (s *scanner) measureInside() {
	s.refine.soundingNeeded = !s.measureSpread() && len(s.refine.sound) > 0
}

// measureSpread sets the rows the spans of each prefix's pieces read from
// the measures so far (see [spanRowsByPrefix]), and reports whether the
// tablets inside prefixes gave the table a pooled measure.
func (s *scanner) measureSpread() bool {
	p := s.plan
	inside, pieces := s.refine.dispersions()
	var pooled bool
	p.spanRows, p.spanRowsElse, pooled = spanRowsByPrefix(inside, pieces, p.namesPrefix)
	return pooled
}

// sounding reports whether boundary tablet i is one read first for its
// pieces' measures (see [soundingTablets]).
func (s *scanner) sounding(i int) bool {
	return s.refine.sound[i]
}

// sounded records that a sounding tablet is read. One that fails is not
// recorded: the failure stops the scan, and the tablets waiting for it
// leave with the scan's context.
func (s *scanner) sounded() {
	r := &s.refine
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.soundPending--; r.soundPending == 0 {
		close(r.soundDone)
	}
}

// soundingDone waits, when the table needs them (see [scanner.refined],
// which its callers have returned from), until the sounding tablets are
// read; the first caller then measures the prefixes' spread again with
// their pieces'.
func (s *scanner) soundingDone(ctx context.Context) error {
	if !s.refine.soundingNeeded {
		return nil
	}
	select {
	case <-s.refine.soundDone:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.refine.soundOnce.Do(func() { s.measureSpread() })
	return nil
}
