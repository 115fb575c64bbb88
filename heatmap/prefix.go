package heatmap

import "slices"

// fewUnits is how many prefixes at a view's asked depth count as few:
// a view of fewer (two or three top-level prefixes, a tenant with a
// handful of children) draws a heatmap of a handful of rows that shows
// nothing of its keys' shape, so prefix and heat bucketing go deeper
// into its largest prefixes until the rows are used.
const fewUnits = 8

// prefixUnits lists the units for prefix bucketing: the nodes depth levels
// below the scope's anchor (leaves above that depth stand for
// themselves). When those are fewer than [fewUnits] and rows wants more,
// the largest of them are split into their children, largest first,
// until there are at least rows units or nothing is left to split; the
// levels then mix, each bucket still one prefix or a run of them.
func prefixUnits(sc scope, depth, rows int) []unit {
	us := collectUnits(sc, func(_ *unit, level int) bool { return level < depth })
	if len(us) >= fewUnits {
		return us
	}
	// Each split replaces a unit by its children; a chain of single
	// children takes one split per level, so the work is bounded by the
	// rows wanted and the depth of the tree, not by the table.
	for splits := 0; len(us) < rows && splits < 4*rows; splits++ {
		i := largestSplittable(us)
		if i < 0 {
			break
		}
		us = slices.Replace(us, i, i+1, childUnits(us[i].node, nil)...)
	}
	return us
}

// largestSplittable returns the index of the unit with the most rows (or,
// in a recording, operations) that has children, or -1 when none has.
func largestSplittable(us []unit) int {
	best, bestSize := -1, -1.0
	for i := range us {
		u := &us[i]
		if u.kind != unitNode || u.node.IsLeaf() {
			continue
		}
		size := float64(u.stats.Rows)
		if u.traffic != nil {
			size += u.traffic.Ops
		}
		if size > bestSize {
			best, bestSize = i, size
		}
	}
	return best
}
