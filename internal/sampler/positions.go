package sampler

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/btviz/btviz/internal/units"
)

// Position sampling reads a sample of a table whose SampleRowKeys answer
// is tablets (see mapShape): whole spans are then far too large to read
// one in k of, and a RowSampleFilter would have the server read every
// row. Each tablet is read at a few positions instead, none of which
// needs the tablet read, in three steps (see [scanner.discover]):
//
//   - Pieces: a tablet that may hold more than one top-level prefix (its
//     boundary keys differ in their first segment, or it is the first or
//     last) is cut into pieces, one per prefix, by reads of one key each
//     that find where each prefix starts and ends in it (see
//     [tabletPieces]).
//   - Lines: every top-level prefix has a key map of its own (see
//     [keyMap]), learned from its keys: the tablet boundaries inside it,
//     the first and last rows of its pieces, and probes, a few keys read
//     from random places of each tablet (probeShare of what its spans
//     read); the tablets inside one prefix are read first and teach the
//     maps their spans' first rows before the boundary tablets, which hold
//     the prefixes' ends, are read (see [refinement]). A tablet's line, or
//     each piece's, is its keys' order on that map; a prefix of names
//     takes the map of its kin, the keys after every prefix that holds
//     the same names (see [keyMaps.judgeKin]), and is read once for
//     each of its first segments (the first names), so that none lies
//     where the line gives no room (see [scanner.markNames]).
//   - Spans: the tablet's share of the rows to read is split into spans
//     of equal width, one in every n-th of its line from a random place
//     of that n-th (see [stratified]), a piece's over its own line (at
//     least minPieceSpans; a prefix inside the tablet is first tried
//     whole).
//     Every point of a line falls in a span with the same chance, its
//     coverage, so every row does, whatever the line. A span is read with
//     a row limit of spanLimitFactor times its budget; one cut short
//     stands for its whole width (its factor).
//   - Estimate: a tablet of one piece is a ratio estimate: every row its
//     spans read stands for B/b rows, B the tablet's bytes by
//     SampleRowKeys' offsets and b the bytes of the rows the spans
//     returned, in the same units, over the coverage (the tablet's bytes
//     come out exact, its rows, cells and prefixes in proportion to what
//     the spans saw; the variance from how rows per byte vary between the
//     spans: see [ratioSums]). A tablet of several pieces shares its
//     bytes among them (see [splitPieces]) by each piece's spans
//     (Horvitz–Thompson) and, for the first and last piece of a prefix
//     that also fills tablets of its own, by the density of the nearest
//     such tablet (see [densityModel]); a piece whose spans cannot know
//     its rows (clustered, see [spanCounts.clustered], or its head where
//     its kin's line is blind, see [unplaceBlind]) takes what the others
//     leave. Each piece's rows then stand for its share, and its variance
//     goes to its prefix (keyspace.ScanInfo.PrefixVariances).
//   - Oversized rows: the spans cover a known share c of the line, so b/c
//     is what the tablet would hold if it were like its spans. A tablet
//     whose bytes are far above even the top of that figure's 95%
//     interval (see [unexplained]) holds something no span saw, an
//     oversized row most likely, and is read in full (Range.Rescanned),
//     unless a piece of it was swept (see [sweptCutShort]) or its spans
//     read too little to tell, or lie on a line of names, which does
//     not know where each name's users cluster, and miss less than
//     64 MB, below the 100 MB at which a row is flagged as large (it is
//     swept: see [judgeLine]).
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
	// minSpanRows is the smallest row budget of a span; thinSpanRows that
	// of a sample thinner than thinFraction, where a tablet's few spans of
	// minSpanRows rows would estimate its rows per byte from 16 rows (at
	// 0.1% of 600,000 rows, a prefix's share came out 2 to 3 points off
	// on shapes of random decimal ids, 1 to 1.3 with 32).
	minSpanRows  = 4
	thinSpanRows = 8
	thinFraction = 0.005
	// spanLimitFactor is the row limit of a span over its budget.
	spanLimitFactor = 4
	// A tablet's probes read probeRows keys each (see
	// [scanner.discover]): probeShare of the rows its spans read, in
	// minProbes to maxProbes probes.
	probeShare = 0.1
	probeRows  = 4
	minProbes  = 2
	maxProbes  = 64
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

// probeSeedStream is the probes' random stream.
const probeSeedStream = 0x70726f // "pro"

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
	// probes is how many keys the tablet's probes read.
	probes int
	// rowBytes is the mean row size the plan assumes (the pilot's, or the
	// tablet's own probes', see [scanner.discover]).
	rowBytes float64
	// readRows is the rows the plan expects to read: the spans' budgets
	// and the probes' rows, or the whole tablet; readBytes the same in
	// offset units. Neither counts what the tablet's reads cannot know
	// in advance: a sweep of a tablet whose spans find no rows (up to
	// twice the spans' budgets), a swept piece's parts read on (up to
	// readRows again for each such piece, at least minSpanRows a part,
	// see [worker.finishSweep]) or a re-read in full (see [unexplained]).
	readRows  float64
	readBytes int64
	// boosted is the share of the tablet's rows in pieces read at
	// pieceBoost times its coverage (see [plan.boostPieces]).
	boosted float64
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
	least := int64(minSpanRows)
	if fraction < thinFraction {
		least = thinSpanRows
	}
	budget := max(least, int64(math.Ceil(target/float64(spans))))
	probes := min(maxProbes, max(minProbes, int(math.Round(probeShare*float64(int64(spans)*budget)/probeRows))))
	read := float64(int64(spans)*budget + int64(probes*probeRows))
	if read >= wholeTabletShare*rows {
		return tabletPlan{whole: true, rows: rows, readRows: rows, readBytes: bytes, rowBytes: rowBytes}
	}
	return tabletPlan{
		rows: rows, spans: spans, budget: budget, limit: spanLimitFactor * budget, probes: probes,
		readRows: read, readBytes: int64(read * rowBytes), rowBytes: rowBytes,
	}
}

// part is one span's part [from, to) of a line; unit numbers the span it
// belongs to.
type part struct {
	from, to float64
	unit     int
}

// stratified returns the parts of n spans of width (at most 1/n), one in
// each n-th of the line [0, 1), each from a random place of its own n-th,
// in order; a span that runs past its n-th's end wraps around to its
// start. Every point of the line then lies in a span with the same
// chance, n·width, the strata's edges included, and the spans' places are
// independent: spans one every n-th from one random place (a systematic
// sample) all fall at the same phase of a line whose keys' density
// cycles with a period near 1/n, as epoch-millisecond keys of a day-and-
// night cycle do (198 spans over 200 days had read 6,351 rows where
// their width held 4,050: a piece 56% over, the prefix 0.66 points off at
// 10%).
func stratified(n int, width float64, rng *rand.Rand) []part {
	step := 1 / float64(n)
	width = min(width, step)
	var parts []part
	for j := range n {
		first := float64(j) * step
		from := first + rng.Float64()*step
		to := from + width
		if end := first + step; to > end {
			parts = append(parts, part{from: first, to: first + (to - end), unit: j})
			to = end
		}
		parts = append(parts, part{from: from, to: min(to, 1), unit: j})
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.from, b.from) })
	return parts
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
