package keyspace

import (
	"math"
	"slices"
)

// apportioner divides counts into parts in proportion to fixed shares,
// in whole units, so that the parts of every count add up to it exactly:
// traffic counts are whole operations, rows and bytes, and a view must
// show the same totals whichever way it cuts the key space.
type apportioner struct {
	shares []float64 // one per part, summing to 1
	// Scratch: each part's exact share of the amount being divided, and
	// the parts ordered by how far rounding left them behind it.
	ideal []float64
	order []int
}

// newApportioner divides in proportion to weights; at least one must be
// positive.
func newApportioner(weights []float64) *apportioner {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	a := &apportioner{shares: make([]float64, len(weights)), ideal: make([]float64, len(weights)), order: make([]int, len(weights))}
	for i, w := range weights {
		a.shares[i] = w / total
	}
	return a
}

// divide splits amount into parts (one per share, overwritten) by the
// largest-remainder rule: each part gets its exact share rounded down,
// and the units left go to the parts whose shares rounding cut most.
// carry (one per share) is what the parts of earlier amounts divided with
// it fell short of (positive) or went beyond (negative) their exact
// shares; it is added to this amount's shares and updated, so that a run
// of small amounts (a histogram's buckets of 1 operation each) goes to
// each part in turn rather than always to the largest. The parts are
// never negative and add up to amount exactly; a fraction of a unit in
// amount goes whole to one part.
func (a *apportioner) divide(amount float64, carry, parts []float64) {
	left := amount
	for i, share := range a.shares {
		a.ideal[i] = carry[i] + amount*share
		parts[i] = max(math.Floor(a.ideal[i]), 0)
		left -= parts[i]
	}
	for i := range a.order {
		a.order[i] = i
	}
	// Furthest behind its exact share first; ties to the earlier part.
	slices.SortStableFunc(a.order, func(i, j int) int {
		return -cmpFloat(a.ideal[i]-parts[i], a.ideal[j]-parts[j])
	})
	// A part whose carry ran ahead of its share was held at 0 rather than
	// made negative: take those units back from the parts furthest ahead.
	for k := len(a.order) - 1; left < 0; k-- {
		if k < 0 {
			k = len(a.order) - 1
		}
		if i := a.order[k]; parts[i] >= 1 {
			parts[i]--
			left++
		}
	}
	for k := 0; left >= 1; k = (k + 1) % len(a.order) {
		parts[a.order[k]]++
		left--
	}
	if left > 0 { // a fraction: to the part with a share that is most behind
		best := -1
		for i, share := range a.shares {
			if share > 0 && (best < 0 || a.ideal[i]-parts[i] > a.ideal[best]-parts[best]) {
				best = i
			}
		}
		parts[best] += left
	}
	for i := range parts {
		carry[i] = a.ideal[i] - parts[i]
	}
}

// cmpFloat compares two floats that are not NaN.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// splitTraffic divides traffic into one part per share of a, each a
// [NodeTraffic] of its own: every count, every method's calls and
// errors, and every histogram bucket divides in whole units and adds up
// over the parts to what it was. A histogram divides bucket by bucket,
// carrying each part's rounding from one bucket to the next, and the
// count it backs (operations, rows and bytes read and written) is the
// sum of the part's buckets, so that a part's totals and its heatmap
// row agree. The parts have no key bounds: which of the keys traffic
// touched lie in which part is not known.
func (a *apportioner) splitTraffic(traffic *NodeTraffic) []*NodeTraffic {
	n := len(a.shares)
	out := make([]*NodeTraffic, n)
	for i := range out {
		out[i] = &NodeTraffic{}
	}
	carry, parts := make([]float64, n), make([]float64, n)
	fresh := func() []float64 { clear(carry); return carry }

	totals := [5]float64{traffic.Ops, traffic.RowsRead, traffic.BytesRead, traffic.RowsWritten, traffic.BytesWritten}
	for h, hist := range traffic.hists() {
		fresh()
		sums := make([]float64, n)
		for j, count := range hist.Counts {
			if count == 0 {
				continue
			}
			a.divide(count, carry, parts)
			for i, part := range parts {
				if part != 0 {
					out[i].hists()[h].add(hist.First+int64(j), part)
					sums[i] += part
				}
			}
		}
		// A count its histogram does not add up to (a damaged file) is
		// divided on its own, still adding up exactly.
		if rest := totals[h] - hist.Total(); rest >= 0 {
			a.divide(rest, carry, parts)
		} else {
			a.divide(totals[h], fresh(), parts)
			clear(sums)
		}
		for i := range out {
			*out[i].counter(h) = sums[i] + parts[i]
		}
	}
	for _, counter := range []func(*OpCounts) *float64{
		func(c *OpCounts) *float64 { return &c.PointReads },
		func(c *OpCounts) *float64 { return &c.Scans },
	} {
		a.divide(*counter(&traffic.OpCounts), fresh(), parts)
		for i := range out {
			*counter(&out[i].OpCounts) = parts[i]
		}
	}
	if traffic.Latency != nil {
		// Which calls of a range fell in which part is not known: each
		// part gets the range's latencies in proportion to its share,
		// which keeps every quantile.
		for i := range out {
			if a.shares[i] > 0 {
				out[i].Latency = traffic.Latency.scaled(a.shares[i])
			}
		}
	}
	callParts := make([]float64, n)
	for _, m := range traffic.Methods {
		a.divide(m.Calls, fresh(), callParts)
		a.divide(m.Errors, fresh(), parts)
		for i := range out {
			if callParts[i] != 0 || parts[i] != 0 {
				out[i].Methods = addMethod(out[i].Methods, m.Method, callParts[i], parts[i])
			}
		}
	}
	return out
}

// counter returns the count histogram h of [NodeTraffic.hists] backs.
func (t *NodeTraffic) counter(h int) *float64 {
	return [5]*float64{&t.Ops, &t.RowsRead, &t.BytesRead, &t.RowsWritten, &t.BytesWritten}[h]
}
