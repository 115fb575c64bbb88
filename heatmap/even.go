package heatmap

import "sort"

// evenUnits lists the units for even bucketing: the finest the tree has,
// splitting any unit that holds more rows than one bucket should (more
// operations, when byOps).
func evenUnits(sc scope, wanted int, byOps bool) []unit {
	var total float64
	for _, u := range collectUnits(sc, func(*unit, int) bool { return false }) {
		total += evenWeight(&u, byOps)
	}
	target := total / float64(wanted)
	return collectUnits(sc, func(u *unit, _ int) bool { return evenWeight(u, byOps) > target })
}

// evenWeight is what even bucketing shares out equally: a unit's rows,
// or its recorded operations when byOps (a view of a traffic metric,
// whether the recording is alone or joined with a scan: a hotspot then
// gets rows of its own, however few rows it stores) or when it holds no
// stored rows.
func evenWeight(u *unit, byOps bool) float64 {
	switch {
	case byOps && u.traffic == nil:
		return 0
	case byOps || (u.stats.Rows == 0 && u.traffic != nil):
		return u.traffic.Ops
	}
	return u.stats.Rows
}

// evenStarts cuts units into at most wanted groups of about equal rows:
// the k-th cut falls at the unit boundary whose cumulative row count is
// closest to k/wanted of the total. A unit larger than a bucket stays a
// bucket of its own. It returns the index of each group's first unit.
func evenStarts(units []unit, wanted int, byOps bool) []int {
	n := len(units)
	if n <= wanted {
		return identityStarts(n)
	}
	cumulative := make([]float64, n)
	var total float64
	for i := range units {
		total += evenWeight(&units[i], byOps)
		cumulative[i] = total
	}
	if total <= 0 {
		for i := range cumulative {
			cumulative[i] = float64(i + 1)
		}
		total = float64(n)
	}
	starts := []int{0}
	for k := 1; k < wanted; k++ {
		target := total * float64(k) / float64(wanted)
		// A cut after unit i leaves cumulative[i] rows before it.
		i := min(sort.SearchFloat64s(cumulative[:n-1], target), n-2)
		if i > 0 && target-cumulative[i-1] < cumulative[i]-target {
			i--
		}
		if cut := i + 1; cut > starts[len(starts)-1] {
			starts = append(starts, cut)
		}
	}
	return starts
}
