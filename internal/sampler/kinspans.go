package sampler

import (
	"math/rand/v2"
	"slices"
)

// kinSeedStream is the random stream of the places the names pieces of
// a tablet on their kin's line share (see [plan.kinPositions]).
const kinSeedStream = 0x6b696e // "kin"

// kinShare is the least share of its prefix's line a piece of names
// covers to take the places its tablet's kin share; kinSpread how many
// times its own spans the most among them a piece may take.
const (
	kinShare  = 0.5
	kinSpread = 4
)

// kinParts are the spans of the names pieces of a tablet that lie on
// their kin's line, by piece; a piece without is placed on its own.
type kinParts map[int][]part

// parts returns piece h's spans, nil when it places its own.
func (k kinParts) parts(h int) []part { return k[h] }

// kinPositions places the spans of the names pieces of tablet i that lie
// on their kin's line (see [keyMaps.judgeKin]) and cover most of their
// prefix's at the same places of that line: a span then reads the same
// stretch of names after each prefix, and where the line gives those
// names too little room or too much, it does so for every piece alike,
// so that the tablet's bytes, shared among them by their own counts
// (see [pieceEstimate.share]), cancel it. Placed apart, three whole
// prefixes of one tablet came out at 0.08, 0.25 and 3.4 times their
// bytes by their spans, and a fourth's spans read no row (the 1% sample
// of seed 64110878, docs/MEASUREMENTS.md's "Names: a kin's line without its
// prefixes' ends"). Every piece keeps its coverage of its own line, each
// point of it in a span with the same chance. The places are as many as
// the spans of the piece of most, and every piece's budget is fitted to
// them (a piece swept later sweeps in as many parts); a piece over part
// of its prefix's line reads only the places on it, each its share of
// its line the wider, and a piece of fewer than a kinSpread-th of those
// spans places its own rather than read in many more than it needs. Nil
// when fewer than two pieces share.
func (p *plan) kinPositions(i int, pieces tabletPieces, found []pieceRead, budgets []pieceBudget) kinParts {
	type member struct {
		h        int
		from, to float64 // the piece's stretch of its prefix's whole line
	}
	var members []member
	var kin *keyMap
	spans, coverage := 0, 0.0
	for h, pc := range pieces {
		m := p.maps.maps[pc.prefix]
		if found[h].exact || pc.prefix == "" || m == nil || m.kin == nil || (kin != nil && (m.kin != kin || budgets[h].coverage != coverage)) {
			continue
		}
		from, to := m.stretch(pc.from, pc.to)
		if !(to-from >= kinShare) {
			continue
		}
		kin, coverage = m.kin, budgets[h].coverage
		spans = max(spans, budgets[h].spans)
		members = append(members, member{h, from, to})
	}
	members = slices.DeleteFunc(members, func(mb member) bool { return kinSpread*budgets[mb.h].spans < spans })
	if len(members) < 2 {
		return nil
	}
	rng := rand.New(rand.NewPCG(p.seed+uint64(i), kinSeedStream))
	shared := stratified(spans, coverage/float64(spans), rng)
	byPiece := kinParts{}
	for _, mb := range members {
		budgets[mb.h].fitSpans(spans)
		// The shared places on the prefix's whole line, cut to the
		// piece's stretch of it and read on the piece's own line.
		var parts []part
		for _, pt := range shared {
			lo, hi := max(pt.from, mb.from), min(pt.to, mb.to)
			if hi > lo {
				parts = append(parts, part{from: (lo - mb.from) / (mb.to - mb.from), to: (hi - mb.from) / (mb.to - mb.from), unit: pt.unit})
			}
		}
		byPiece[mb.h] = parts
	}
	return byPiece
}

// unitsPlaced returns the values of the units (spans) that parts place:
// a piece on its kin's places over part of its prefix's line holds only
// the units that reach it, and a unit outside it would count as a span
// that read nothing in the spread between its spans (see
// [pieceRead.estimate]).
func unitsPlaced(values []float64, parts []part) []float64 {
	placed := make([]bool, len(values))
	for _, pt := range parts {
		placed[pt.unit] = true
	}
	var out []float64
	for j, v := range values {
		if placed[j] {
			out = append(out, v)
		}
	}
	return out
}
