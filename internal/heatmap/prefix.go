package heatmap

import (
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
)

// fewUnits is how many prefixes at a view's asked depth count as few:
// a view of fewer (two or three top-level prefixes, a tenant with a
// handful of children) draws a heatmap of a handful of rows that shows
// nothing of its keys' shape, so prefix and heat bucketing go deeper
// into its largest prefixes until the rows are used.
const fewUnits = 8

// maxSplitsPerRow bounds the splits prefixUnits makes, per row wanted.
// Each split goes one level down the tree, and only units above a
// bucket's share (at most rows of them on a level) or, while there are
// fewer units than rows, the largest are split, so a tree of
// [keyspace.Options.MaxDepth] levels (and a level of ranges below them)
// needs fewer.
const maxSplitsPerRow = 16

// prefixUnits lists the units for prefix bucketing: the nodes depth levels
// below the scope's anchor (leaves above that depth stand for
// themselves). When those are fewer than [fewUnits], the largest of them
// are split into their children, largest first, while there are fewer
// units than rows or a unit holds more than a bucket's share (the view's
// rows and operations over the rows wanted), as far as the tree goes (a
// row or a leaf does not split); the levels then mix, each bucket still
// one prefix or a run of them, of comparable sizes.
//
// A unit left larger would stand as one row holding several rows' worth
// of keys beside buckets of one share each, and under an additive metric
// (writes, rows) draw the brightest row for its size alone: in a table of
// an 85% and a 15% dataset, the smaller dataset kept whole while the
// larger one was split looked like a hotspot.
func prefixUnits(sc scope, depth, rows int) []unit {
	us := collectUnits(sc, func(_ *unit, level int) bool { return level < depth })
	if len(us) >= fewUnits {
		return us
	}
	var total float64
	for i := range us {
		total += unitSize(&us[i])
	}
	share := total / float64(rows)
	for splits := 0; splits < maxSplitsPerRow*rows; splits++ {
		i := largestSplittable(us)
		if i < 0 || (len(us) >= rows && unitSize(&us[i]) <= share) {
			break
		}
		us = slices.Replace(us, i, i+1, childUnits(us[i].node, nil)...)
	}
	return us
}

// unitSize is what prefixUnits weighs a unit by: its rows, and in a
// recording also its operations.
func unitSize(u *unit) float64 {
	size := u.stats.Rows
	if u.traffic != nil {
		size += u.traffic.Ops
	}
	return size
}

// largestSplittable returns the index of the unit with the largest
// [unitSize] that splits into more than itself, or -1 when none does.
func largestSplittable(us []unit) int {
	best, bestSize := -1, -1.0
	for i := range us {
		u := &us[i]
		if u.kind != unitNode || !splits(u.node) {
			continue
		}
		if size := unitSize(u); size > bestSize {
			best, bestSize = i, size
		}
	}
	return best
}

// splits reports whether a node's children show more than the node: it
// has some, and they are not one leaf that holds all its rows (which
// would only rename the bucket).
func splits(n *keyspace.Node) bool {
	if n.IsLeaf() {
		return false
	}
	return len(n.Children) > 1 || n.HasRemainder() || !n.Children[0].IsLeaf()
}
