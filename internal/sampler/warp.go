package sampler

import (
	"cmp"
	"slices"
	"sort"
)

// A warp is the refined line of a tablet: the positions' first round
// tells where its rows are (a probe that found nothing, the density of
// the rows a probe found), and the warp stretches the line where rows are
// dense and shrinks it where there are none, so that the second round's
// spans, placed evenly on the warp, fall evenly among the rows. Where no
// probe looked, the tablet's mean density stands; no part of the line
// weighs less than warpFloor of it, so every row keeps a chance to be
// read: whatever the warp, a row's chance is that of a point of the
// warped line to fall in a span, the same for all rows (the warp only
// makes the spans' row counts more even).
type warp struct {
	// cuts are the places on the line [0, 1] where the density changes,
	// cum the warped length before each, density the density after each.
	cuts, cum, density []float64
}

// warpFloor is the least density of any part of the line, as a share of
// the tablet's mean.
const warpFloor = 0.05

// observed is a part of the line [from, to) a probe saw, with the rows in
// it.
type observed struct {
	from, to, rows float64
}

// newWarp builds the warp of a line whose mean density is mean rows per
// unit, from what the probes observed. A part no probe saw takes the
// tablet's mean.
func newWarp(mean float64, seen []observed) warp {
	slices.SortFunc(seen, func(a, b observed) int { return cmp.Compare(a.from, b.from) })
	var parts []observed // disjoint, in order, the gaps filled in later
	at := 0.0
	for _, o := range seen {
		from, to := max(o.from, at), min(o.to, 1)
		if to <= from {
			continue
		}
		if from > at {
			parts = append(parts, observed{from: at, to: from, rows: -1}) // not seen
		}
		parts = append(parts, observed{from: from, to: to, rows: o.rows / (o.to - o.from)})
		at = to
	}
	if at < 1 {
		parts = append(parts, observed{from: at, to: 1, rows: -1})
	}
	floor := warpFloor * mean
	var w warp
	for _, p := range parts {
		density := p.rows
		if density < 0 {
			density = mean
		}
		w.cuts = append(w.cuts, p.from)
		w.density = append(w.density, max(density, floor))
	}
	w.cum = make([]float64, len(w.cuts)+1)
	for i := range w.cuts {
		end := 1.0
		if i+1 < len(w.cuts) {
			end = w.cuts[i+1]
		}
		w.cum[i+1] = w.cum[i] + (end-w.cuts[i])*w.density[i]
	}
	return w
}

// length is the warped length of the whole line: the rows the warp
// expects in the tablet.
func (w warp) length() float64 { return w.cum[len(w.cum)-1] }

// place returns the point of the line at warped length x.
func (w warp) place(x float64) float64 {
	i := sort.Search(len(w.cuts), func(i int) bool { return w.cum[i+1] > x })
	if i >= len(w.cuts) {
		return 1
	}
	return min(1, w.cuts[i]+(x-w.cum[i])/w.density[i])
}

// at returns the warped length up to point u of the line: the inverse
// of place.
func (w warp) at(u float64) float64 {
	i := sort.Search(len(w.cuts), func(i int) bool { return w.cuts[i] > u }) - 1
	if i < 0 {
		return 0
	}
	return w.cum[i] + (u-w.cuts[i])*w.density[i]
}
