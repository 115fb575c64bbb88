package heatmap

import (
	"sort"

	"github.com/btviz/btviz/internal/keyspace"
)

// evenUnits lists the units for even bucketing: the finest the tree has
// where the cuts fall, coarser elsewhere. A unit that holds more rows
// than one bucket should (more operations, in a traffic recording without
// stored rows) is split into its children, and so, level by level, is
// every unit that an ideal cut (k/wanted of the rows) falls inside, so
// that the cuts land on the boundaries nearest to equal row counts the
// tree knows: on the exact band of rows a full scan counted, not on a
// boundary a coarse unit happened to have (a whole band away, which
// splits one band and merges the next two). With byOps the units are
// weighed by their recorded operations ([evenWeight]).
func evenUnits(sc scope, wanted int, byOps bool) []unit {
	var total float64
	for _, u := range collectUnits(sc, func(*unit, int) bool { return false }) {
		total += evenWeight(&u, byOps)
	}
	target := total / float64(wanted)
	refine := map[*keyspace.Node]bool{}
	split := func(u *unit, _ int) bool { return evenWeight(u, byOps) > target || refine[u.node] }
	units := collectUnits(sc, split)
	for range maxRefineLevels {
		grew := false
		for _, u := range straddling(units, total, wanted, byOps) {
			if u.kind == unitNode && !u.node.IsLeaf() && !refine[u.node] {
				refine[u.node], grew = true, true
			}
		}
		if !grew {
			break
		}
		units = collectUnits(sc, split)
	}
	return units
}

// maxRefineLevels bounds how many tree levels [evenUnits] descends
// towards the cuts: deeper than any tree a scan builds.
const maxRefineLevels = 64

// straddling returns the units an ideal even cut falls inside: the k-th
// cut (0 < k < wanted) lies at k/wanted of total, and a unit holds it when
// the rows before the unit are below it and the rows up to its end are
// above it by more than half a row.
func straddling(units []unit, total float64, wanted int, byOps bool) []*unit {
	var out []*unit
	before, k := 0.0, 1
	for i := range units {
		after := before + evenWeight(&units[i], byOps)
		for ; k < wanted && total*float64(k)/float64(wanted) <= before+0.5; k++ {
		}
		if k < wanted {
			cut := total * float64(k) / float64(wanted)
			if cut > before+0.5 && cut < after-0.5 {
				out = append(out, &units[i])
			}
		}
		before = after
	}
	return out
}

// evenWeight is what even bucketing shares out equally: a unit's rows,
// or its recorded operations when byOps (a view of a traffic metric,
// whether the recording is alone or joined with a scan: a hotspot then
// gets rows of its own, however few rows it stores) or when it holds no
// stored rows; hot tablets' CPU when it holds neither (hot tablets
// alone).
func evenWeight(u *unit, byOps bool) float64 {
	switch {
	case byOps && u.traffic == nil:
		return 0
	case byOps || (u.stats.Rows == 0 && u.traffic != nil):
		return u.traffic.Ops
	case u.stats.Rows == 0:
		return u.cpuTotal()
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
