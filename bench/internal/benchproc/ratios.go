package benchproc

import (
	"fmt"
	"slices"
	"strings"
)

// Paired compares two kinds of run measured in interleaved rounds (one
// of each per round, back to back): Ratios holds each round's ratio of
// the two rates, and Median their median. A machine that slows down or
// speeds up between rounds (other work on it) changes both runs of a
// round alike and leaves their ratio alone, which comparing the median
// of one kind with the median of the other does not.
type Paired struct {
	Ratios []float64
	Median float64 // the upper median of an even count
}

// Pair returns each round's ratio of rate to base, rates in rounds.
func Pair(rate, base []float64) Paired {
	var p Paired
	for i := range min(len(rate), len(base)) {
		p.Ratios = append(p.Ratios, rate[i]/base[i])
	}
	if len(p.Ratios) > 0 {
		sorted := slices.Clone(p.Ratios)
		slices.Sort(sorted)
		p.Median = sorted[len(sorted)/2]
	}
	return p
}

// String lists the rounds' ratios, as a check line shows them.
func (p Paired) String() string {
	parts := make([]string, len(p.Ratios))
	for i, r := range p.Ratios {
		parts[i] = fmt.Sprintf("%.2f", r)
	}
	return strings.Join(parts, " ")
}
