package sampler

import (
	"context"
	"maps"
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
// the spans of its pieces read.
type refinement struct {
	mu       sync.Mutex
	runs     [][]string           // keys its spans read together, first keys first
	measured map[int]tabletCounts // per tablet inside a prefix, its spans' counts
	pending  int                  // tablets of one prefix not yet read
	done     chan struct{}        // closed once none are left
	once     sync.Once
}

// orderUnits returns the plan's read units, for a position sample the
// tablets of one prefix (and those read in full) first, then the others,
// each in key order.
func (s *scanner) orderUnits() []unit {
	p := s.plan
	s.refine.done = make(chan struct{})
	if len(p.pieces) == 0 {
		close(s.refine.done)
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
	return append(first, then...)
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

// tabletCounts is the row counts of the spans of tablet inside prefix.
type tabletCounts struct {
	prefix string
	counts []float64
}

// measuredSpans records the row counts of the spans of tablet i inside
// prefix (all of one width, each read over its whole width).
func (s *scanner) measuredSpans(i int, prefix string, counts []float64) {
	r := &s.refine
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.measured == nil {
		r.measured = map[int]tabletCounts{}
	}
	r.measured[i] = tabletCounts{prefix: prefix, counts: counts}
}

// dispersions sums the tablets' measures per prefix in tablet order, so
// that a scan's figures do not depend on which tablet finished first.
func (r *refinement) dispersions() map[string]dispersion {
	byPrefix := map[string]dispersion{}
	for _, i := range slices.Sorted(maps.Keys(r.measured)) {
		m := r.measured[i]
		d := byPrefix[m.prefix]
		d.add(m.counts)
		byPrefix[m.prefix] = d
	}
	return byPrefix
}

// refined waits until the tablets of one prefix are read and the maps
// have learned their keys; the first caller refines them.
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
		p.spanRows, p.spanRowsElse = spanRowsByPrefix(s.refine.dispersions(), func(prefix string) bool {
			m := p.maps.maps[prefix]
			return m != nil && m.namesLike()
		})
	})
	return nil
}
