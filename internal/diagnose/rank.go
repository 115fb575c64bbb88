package diagnose

import (
	"math"
	"slices"
)

// ranks returns the rank of each value (1 for the smallest), ties sharing
// their average rank, as Spearman's correlation needs.
func ranks(values []float64) []float64 {
	type indexed struct {
		value float64
		index int
	}
	order := make([]indexed, len(values))
	for i, v := range values {
		order[i] = indexed{v, i}
	}
	// Ties share one rank, so their order does not matter.
	slices.SortFunc(order, func(a, b indexed) int {
		switch {
		case a.value < b.value:
			return -1
		case a.value > b.value:
			return 1
		}
		return 0
	})
	out := make([]float64, len(values))
	for i := 0; i < len(order); {
		j := i
		for j+1 < len(order) && order[j+1].value == order[i].value {
			j++
		}
		average := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[order[k].index] = average
		}
		i = j + 1
	}
	return out
}

// ranksInOrder returns the ranks (from 1) of items already sorted by
// value, ties sharing their average rank: ranks[p] is items[p]'s.
func ranksInOrder(items []int, value func(int) int64) []float64 {
	out := make([]float64, len(items))
	for i := 0; i < len(items); {
		j := i
		for j+1 < len(items) && value(items[j+1]) == value(items[i]) {
			j++
		}
		average := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[k] = average
		}
		i = j + 1
	}
	return out
}

// spearman returns the rank correlation of x and y, from -1 (one falls as
// the other rises) to 1 (both rise together); 0 when either is constant or
// they are shorter than two.
func spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return 0
	}
	return pearson(ranks(x), ranks(y))
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var meanX, meanY float64
	for i := range x {
		meanX += x[i]
		meanY += y[i]
	}
	meanX /= n
	meanY /= n
	var cov, varX, varY float64
	for i := range x {
		dx, dy := x[i]-meanX, y[i]-meanY
		cov += dx * dy
		varX += dx * dx
		varY += dy * dy
	}
	if varX == 0 || varY == 0 {
		return 0
	}
	r := cov / math.Sqrt(varX*varY)
	return max(-1, min(1, r))
}
