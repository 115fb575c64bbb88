package sampler

import "math"

// A piece's spans estimate its bytes as their line places them: where
// the line says its keys spread evenly, a span reads about as many rows
// as the next. A prefix of names whose map knows too few keys to be
// judged names (a dozen, drawn from 20,000 users) lays them on a line
// that runs through every string of letters: its rows sit at a few
// points of it, most spans read nothing, and the few that meet a user
// are cut short by their limit there, and carried to their ends along a
// line that says nothing of how many rows follow. Such a piece of 97,814
// rows, 2.4 MB, whose 144 spans read a row in 7 of them (1,936 rows) at
// 10%, came out at 0.52 MB (sd 0.19 MB): too far below for the others'
// estimates to be trusted, the split scaled every piece of its tablet up
// by half (issue 26's generated shape seed 107056138767, 7.94 pp).
//
// Spans that read rows where the line puts them leave a span empty as
// a Poisson count of mean m is zero, e^(−m), or, where the density of
// keys varies along the line as well, as a count of a density drawn
// from a gamma distribution of relative variance c² (see [dispersion])
// is, (1 + c²·m)^(−1/c²): more often. The test allows c² = 1
// (clusterDispersion), five times what generated timestamps measure, and
// takes a piece's rows to lie in clusters its line does not know when so
// many of its spans, or more, are empty with a chance under
// clusterAlpha: beside pieces whose lines know theirs, it then takes
// what they leave where their reads fall short of the tablet, and gives
// up what they overshoot only where its spans' standard deviation is
// half their estimate or more (see [unplaceClustered]). Spans cut short count
// the rows they read, fewer than they would have, which lowers the mean
// and makes the test expect more empty spans: it errs towards not
// judging the piece clustered.
const (
	clusterDispersion = 1.0
	clusterAlpha      = 1e-4
	minClusterSpans   = 4
)

// clustered reports whether the spans read found their rows in fewer of
// them than rows spread as their line says would have (see above).
func (c spanCounts) clustered() bool {
	var n, hits int
	var rows float64
	for j, count := range c.counts {
		if !c.reached[j] {
			continue
		}
		n++
		rows += count
		if count > 0 {
			hits++
		}
	}
	if n < minClusterSpans || hits == 0 || hits == n {
		return false
	}
	mean := rows / float64(n)
	empty := math.Pow(1+clusterDispersion*mean, -1.0/clusterDispersion)
	return binomialTail(n, n-hits, empty) < clusterAlpha
}

// binomialTail returns the chance that k or more of n trials succeed,
// each with the chance p.
func binomialTail(n, k int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	lgN, _ := math.Lgamma(float64(n + 1))
	var tail float64
	for j := k; j <= n; j++ {
		lgJ, _ := math.Lgamma(float64(j + 1))
		lgRest, _ := math.Lgamma(float64(n - j + 1))
		tail += math.Exp(lgN - lgJ - lgRest + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
	}
	return tail
}
