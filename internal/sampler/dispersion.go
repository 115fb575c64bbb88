package sampler

import (
	"maps"
	"math"
	"slices"
)

// A piece's spans (see [worker.readPieces]) estimate its rows from the
// rows they count where they fall, and the spread of those counts is the
// estimate's error. Where keys fall at random along their line (random
// ids, counters), a span's count varies as a Poisson count does, and
// the spans' length does not matter: they cover the same share of the
// line however many they are. Where the density of keys itself varies
// along the line, each span's count varies more, by the density where it
// fell: epoch-millisecond keys follow the day's cycle, four times as
// dense at its peak as at its trough. (The spread measured between a
// tablet's spans also holds what varies over stretches wider than the
// spans' strata, which stratifying takes out of the estimate: such keys
// get shorter spans than they need, which costs reads, not accuracy.) Then the estimate's relative variance is (1 + c²·r)/R for R
// rows read in spans of r rows each, c² the extra relative variance of
// the density a span meets: shorter spans sample more places of the
// cycle for the same rows read.
//
// The tablets inside one prefix are read before the pieces (see
// [refinement]), and their spans measure c² for the prefix: for
// generated timestamps it is about 0.18, so spans of 16 rows have 3.9
// times a Poisson count's variance and spans of 6 rows 2.1 times.

// minPieceSpanRows is the fewest rows a span of a piece aims to read,
// however uneven its prefix's density: a shorter one's limit (see
// [pieceBudget.fit]) cuts it more often, and a call reads little.
const minPieceSpanRows = 4

// minDispersionDF is the fewest degrees of freedom (spans less one, over
// the tablets that measured it) a measure of c² needs to be used.
const minDispersionDF = 8

// minDispersionMean is the fewest rows the spans of a sounding tablet's
// piece must average for their spread to be measured (see
// [refinement]): below it a measure is mostly Poisson noise (its
// variance, 2/((n−1)·m²), is an eighth per degree of freedom at 4 rows,
// a half at 2), and the pieces whose spans read a row or two drowned the
// measure of timestamps in it. The tablets inside prefixes, whose spans
// read more, are all measured.
const minDispersionMean = 4

// dispersion sums what the spans of a prefix's lines (its tablets inside
// it, and the pieces of the tablets that sound it, see [refinement]) say
// of c²: each line's estimate, (s² − m)/m² for spans of mean count m and
// variance s² (the Poisson part taken out), weighed by its degrees of
// freedom; and noise, the variance of that sum were the counts Poisson's
// (2/((n−1)·m²) for each line's, times (n−1)²).
type dispersion struct {
	extra, df, noise float64
}

// add records the row counts of one line's spans, all of one width
// (spans cut short by their limit are left out by the caller); a line
// whose spans average fewer than least rows is left out.
func (d *dispersion) add(counts []float64, least float64) {
	n := float64(len(counts))
	if n < 2 {
		return
	}
	var sum float64
	for _, c := range counts {
		sum += c
	}
	mean := sum / n
	if mean <= 0 || mean < least {
		return
	}
	var squares float64
	for _, c := range counts {
		squares += (c - mean) * (c - mean)
	}
	s2 := squares / (n - 1)
	d.extra += (n - 1) * (s2 - mean) / (mean * mean)
	d.df += n - 1
	d.noise += 2 * (n - 1) / (mean * mean)
}

// merge adds o's measures to d's.
func (d *dispersion) merge(o dispersion) {
	d.extra, d.df, d.noise = d.extra+o.extra, d.df+o.df, d.noise+o.noise
}

// c2 returns the extra relative variance measured, and whether there are
// degrees of freedom enough to use it: 0 unless it is more than twice
// what Poisson counts would give by chance, so that a prefix of random
// ids, whose measure is 0 give or take that, keeps its spans (at 0.1% a
// tablet has four spans of about eight rows, and the measure of three
// such tablets is 0 give or take 0.06, about the 1/16 at which spans
// would get shorter).
func (d dispersion) c2() (float64, bool) {
	if d.df < minDispersionDF {
		return 0, false
	}
	c2 := d.extra / d.df
	if c2 <= 2*math.Sqrt(d.noise)/d.df {
		return 0, true
	}
	return c2, true
}

// spanRowsFor returns the rows a span of a piece aims to read for an
// extra relative variance c2: pieceSpanRows while the density's part of
// a span's variance is no more than the Poisson count's at that length,
// else 1/c2 rows (where the two parts are equal, the most rows a span can
// read before the density's part takes over), at least minPieceSpanRows.
func spanRowsFor(c2 float64) float64 {
	if c2*pieceSpanRows <= 1 {
		return pieceSpanRows
	}
	return max(minPieceSpanRows, math.Round(1/c2))
}

// spanRowsByPrefix returns, for each prefix whose tablets inside it
// measured c² well enough, the rows its pieces' spans aim to read, and
// the rows of a prefix that has no measure of its own: that of the
// table's other prefixes pooled (a table's prefixes are most often keyed
// alike), and where those measured too little (pooled is then false),
// that of the sounding tablets' pieces pooled with them (see
// [refinement]), else pieceSpanRows. A piece's measure is not its
// prefix's own: a few short spans of one piece say too little of one
// prefix. names says which prefixes are names, whose pieces keep
// pieceSpanRows and whose measures (their rows cluster by user) are left
// out of the pools.
func spanRowsByPrefix(inside, pieces map[string]dispersion, names func(string) bool) (rows map[string]float64, fallback float64, pooled bool) {
	rows = map[string]float64{}
	var pool dispersion
	for _, prefix := range slices.Sorted(maps.Keys(inside)) {
		d := inside[prefix]
		if names(prefix) {
			continue
		}
		pool.merge(d)
		if c2, ok := d.c2(); ok {
			rows[prefix] = spanRowsFor(c2)
		}
	}
	if c2, ok := pool.c2(); ok {
		return rows, spanRowsFor(c2), true
	}
	for _, prefix := range slices.Sorted(maps.Keys(pieces)) {
		if !names(prefix) {
			pool.merge(pieces[prefix])
		}
	}
	fallback = pieceSpanRows
	if c2, ok := pool.c2(); ok {
		fallback = spanRowsFor(c2)
	}
	return rows, fallback, false
}
