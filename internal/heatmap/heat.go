package heatmap

// heatSearchSteps bounds each bisection for a heat threshold: 64
// halvings take any float range down to its last bit.
const heatSearchSteps = 64

// heatStarts cuts units, whose metric values are given, into at most
// wanted groups the way TiDB's Key Visualizer does: a unit whose value
// reaches the hot threshold is a group of its own, and cold units
// accumulate into a run that closes once its value (sum, or maximum for
// a metric that does not add up) reaches the run threshold.
//
// The hot threshold is the smallest (found by bisection) that yields no
// more than wanted groups with runs closing at the same value. Spare rows
// then go to cold runs: the run threshold is lowered, by a second
// bisection, as far as the wanted count allows. Hot units stay apart
// whatever the zoom, and cold runs come out of about equal weight even
// when unit sizes vary (TiDB caps units per run instead, which suits its
// even-sized regions but not a tree of ranges and single keys). It
// returns the index of each group's first unit.
func heatStarts(values []float64, additive bool, wanted int) []int {
	n := len(values)
	if n <= wanted {
		return identityStarts(n)
	}
	var high float64
	for _, v := range values {
		if additive {
			high += v
		} else {
			high = max(high, v)
		}
	}
	// Above every value (and every sum) there is one group.
	high = high*(1+1e-9) + 1e-300
	fits := func(hot, run float64) bool { return heatScan(values, additive, hot, run, nil) <= wanted }
	hot := bisect(0, high, func(t float64) bool { return fits(t, t) })
	run := bisect(0, hot, func(t float64) bool { return fits(hot, t) })
	starts := make([]int, 0, wanted)
	heatScan(values, additive, hot, run, func(i int) { starts = append(starts, i) })
	return starts
}

// bisect returns about the smallest t in (low, high] for which ok holds,
// given that ok(high) holds and ok mostly holds above any t where it does.
func bisect(low, high float64, ok func(float64) bool) float64 {
	for range heatSearchSteps {
		mid := low + (high-low)/2
		if mid <= low || mid >= high {
			break
		}
		if ok(mid) {
			high = mid
		} else {
			low = mid
		}
	}
	return high
}

// heatScan walks the units once with a hot and a run threshold, calls
// start (when not nil) with the first unit of each group and returns the
// number of groups.
func heatScan(values []float64, additive bool, hot, run float64, start func(int)) int {
	groups := 0
	open := false // a cold run is open
	var runValue float64
	for i, v := range values {
		if v >= hot && v > 0 {
			groups++
			if start != nil {
				start(i)
			}
			open = false
			continue
		}
		if !open {
			groups++
			if start != nil {
				start(i)
			}
			open, runValue = true, 0
		}
		if additive {
			runValue += v
		} else {
			runValue = max(runValue, v)
		}
		if runValue >= run && runValue > 0 {
			open = false
		}
	}
	return groups
}
