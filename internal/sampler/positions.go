package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/btviz/btviz/internal/units"
)

// Position sampling reads a sample of a table whose SampleRowKeys answer
// is tablets (see mapShape): whole spans are then far too large to read
// one in k of, and a RowSampleFilter would have the server read every
// row. Each tablet is read at a few positions instead, none of which
// needs the tablet read:
//
//   - The line: a [keyMap] puts the tablet's keys on a line between its
//     boundary keys, by the bytes the tablet map's keys and the pilot's
//     rows use at each key position. A tablet that may hold more than
//     one top-level prefix (its boundary keys differ in their first
//     segment, or it is the first or last) is cut into pieces instead,
//     one per prefix, each the line from its first row to its last, as
//     long as its share of the rows (see [tabletLine]).
//   - Probes (first round, on a line not cut into pieces): probeCount
//     probes, one in each of as many
//     equal strata of the line, each reading up to probeRows rows from a
//     random place, in a window that doubles while it finds nothing, up
//     to the stratum's end. They tell where the line has no rows and how
//     dense the rows they found are.
//   - Spans (second round): the probes refine the line into a [warp], and
//     the tablet's share of the rows to read is split into spans placed
//     one in each of n equal strata of the warped line, at a random place
//     within the stratum (stratified; seeded); a tablet cut into pieces
//     gives each piece its own strata, in proportion to its warped length
//     and at least one. A span covers the warped
//     length that holds its budget of rows by the warp and is read with
//     a row limit of spanLimitFactor times that, so a span in denser keys
//     than expected costs no more than that limit.
//   - Estimate: every row a span read in tablet T stands for B/b rows, B
//     the tablet's bytes by SampleRowKeys' offsets and b the bytes of the
//     rows the spans returned, in the same units, each piece's spans'
//     bytes over the share of its warped length they cover (a ratio
//     estimator: the
//     tablet's bytes come out exact, its rows, cells and prefixes in
//     proportion to what the spans saw). Each point of the warped line
//     falls in a span with the same chance, so the spans are a uniform
//     sample of the tablet's rows whatever the warp; the probes' rows,
//     which are not, only refine the line. The variance comes from how
//     rows per byte vary between the spans: see [ratioSums].
//   - Oversized rows: the spans cover a known share c of the warped line,
//     so b/c is what the tablet would hold if it were like its spans. A
//     tablet whose bytes are far above that (see [unexplained]) holds
//     something no span saw, an oversized row most likely, and is read in
//     full (Range.Rescanned).
//
// A tablet that the scan's bounds cut is read at positions over the whole
// tablet, since its bytes are the whole tablet's; rows outside the bounds
// count towards b and are dropped. A tablet whose share to read is half
// of it or more is read in full.
const (
	// spanRows is how many rows a span aims to read: enough that a span's
	// rows per byte is a steady figure, few enough that a tablet gets
	// several spans at a 1% sample of a 40,000-row tablet.
	spanRows = 64
	// minTabletSpans is the fewest spans read in a tablet, so that each
	// tablet has a variance of its own.
	minTabletSpans = 4
	// minSpanRows is the smallest row budget of a span.
	minSpanRows = 4
	// spanLimitFactor is the row limit of a span over its budget.
	spanLimitFactor = 4
	// probeCount and probeRows are the first round: a few rows from each
	// of a few places, about a tenth of a 1% sample of a tablet.
	probeCount = 3
	probeRows  = 4
	// probeWindowRows is the first window of a probe, in rows by the
	// tablet's mean density.
	probeWindowRows = 16
	// wholeTabletShare is the share of a tablet from which on it is read
	// in full rather than at positions.
	wholeTabletShare = 0.5
)

// positionSeedStream separates the positions' random stream from the
// others the scan's seed seeds.
const positionSeedStream = 0x706f73 // "pos"

// tabletPlan is how one tablet is read under position sampling.
type tabletPlan struct {
	// whole reads the tablet in full.
	whole bool
	// rows is the rows the tablet holds by its bytes and the pilot's row
	// size; spans is how many spans the second round reads, budget the
	// rows each aims for, limit its row limit.
	rows          float64
	spans         int
	budget, limit int64
	// readRows is the rows the plan expects to read: the spans' budgets
	// and the probes' rows, or the whole tablet; readBytes the same in
	// offset units. Neither counts what the tablet's reads cannot know
	// in advance: a sweep of a tablet whose spans find no rows (up to
	// twice the spans' budgets) or a re-read in full (see [unexplained]).
	readRows  float64
	readBytes int64
}

// planTablet plans the reads of a tablet of the given bytes at fraction,
// with rows of rowBytes each (in the same units; 0 when unknown).
func planTablet(bytes int64, rowBytes, fraction float64) tabletPlan {
	rows := float64(spanRows * minTabletSpans)
	if rowBytes > 0 && bytes > 0 {
		rows = float64(bytes) / rowBytes
	}
	target := fraction * rows
	spans := max(minTabletSpans, int(math.Round(target/spanRows)))
	budget := max(minSpanRows, int64(math.Ceil(target/float64(spans))))
	read := float64(int64(spans)*budget + probeCount*probeRows)
	if read >= wholeTabletShare*rows {
		return tabletPlan{whole: true, rows: rows, readRows: rows, readBytes: bytes}
	}
	return tabletPlan{
		rows: rows, spans: spans, budget: budget, limit: spanLimitFactor * budget,
		readRows: read, readBytes: int64(read * rowBytes),
	}
}

// apportion splits n spans among strata of the given lengths in
// proportion to them, by largest remainders, at least one each.
func apportion(n int, lengths []float64) []int {
	var total float64
	for _, l := range lengths {
		total += l
	}
	counts := make([]int, len(lengths))
	rest := make([]float64, len(lengths))
	given := 0
	for h, l := range lengths {
		quota := 0.0
		if total > 0 {
			quota = float64(n) * l / total
		}
		counts[h] = max(1, int(quota))
		rest[h] = quota - float64(int(quota))
		given += counts[h]
	}
	for ; given < n; given++ {
		best := 0
		for h := range rest {
			if rest[h] > rest[best] {
				best = h
			}
		}
		counts[best]++
		rest[best] = -1
	}
	return counts
}

// stratified returns n span starts on [0, length), one at a random place
// in each of n equal strata, leaving room for a span of width after it.
func stratified(n int, length, width float64, rng *rand.Rand) []float64 {
	starts := make([]float64, n)
	stratum := length / float64(n)
	room := max(0, stratum-width)
	for j := range starts {
		starts[j] = float64(j)*stratum + rng.Float64()*room
	}
	return starts
}

// describePositions says what a position sample reads, for
// [Progress].Reason; why is what made it sample ([modeChoice].why).
func describePositions(fraction float64, tablets, spans, whole int, why string) string {
	text := fmt.Sprintf("a %s sample at positions inside tablets", units.Percent(fraction))
	if why == "--sample" {
		text += " (--sample)"
	} else {
		text += ": " + why
	}
	text += fmt.Sprintf("; %d short spans in %d tablets", spans, tablets)
	if whole > 0 {
		text += fmt.Sprintf(", %d small tablets in full", whole)
	}
	return text
}
