package sampler

import (
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// Every estimate a sample makes carries a 95% interval, estimate ±
// [keyspace.Z95]·√V, from the variance V of the sampling units the
// method draws:
//
//   - Rows (RowSampleFilter): each row is kept with probability p
//     independently, and the Horvitz–Thompson variance of a total is
//     Σ y²(1−p)/p² over the rows read (y = 1 for rows, the row's bytes
//     for bytes); a range read again in full adds nothing.
//   - Spans: one span drawn from each group; a single draw has no
//     variance of its own, so pairs of neighbouring groups are collapsed
//     into one stratum (Σ (y₁−y₂)² over the pairs, y a group's
//     estimate), which overstates V a little when neighbours differ.
//   - Positions and row budgets: the ratio estimator of each tablet or
//     range (see [ratioSums]), its spans or rows the units; tablets are
//     independent strata, so their variances add.
//
// Spans and rows read with weight 1 (a full scan, certain spans, ranges
// read again) add nothing. The interval covers sampling error only: a
// tablet map that is off (Cloud Bigtable's offsets are approximate) moves
// the estimate and its interval together.
//
// variance is the variance of the scan's estimated rows and bytes.
type variance struct {
	rows, bytes float64
}

func (v *variance) add(o variance) {
	v.rows += o.rows
	v.bytes += o.bytes
}

// rowVariance is what one row read with weight w adds under a row
// sample (Bernoulli with p = 1/w): w(w−1) times its value squared.
func rowVariance(w float64, bytes int64) variance {
	f := w * (w - 1)
	return variance{rows: f, bytes: f * float64(bytes) * float64(bytes)}
}

// ratioSums accumulate the units (spans, or rows) of one ratio estimate:
// a stratum of known size B (bytes by the offsets) whose units each saw
// r rows and l logical bytes in b offset bytes. The estimate of its rows
// is B·Σr/Σb, and its variance, linearised, B²/(Σb)² · m/(m−1) ·
// Σ(r − ρb)² with ρ = Σr/Σb (and the same for l).
type ratioSums struct {
	m                           int
	r, l, b, rr, ll, bb, rb, lb float64
}

// add counts one unit.
func (s *ratioSums) add(rows, logical, bytes float64) {
	s.m++
	s.r += rows
	s.l += logical
	s.b += bytes
	s.rr += rows * rows
	s.ll += logical * logical
	s.bb += bytes * bytes
	s.rb += rows * bytes
	s.lb += logical * bytes
}

// variance returns the variance of the stratum's estimated rows and
// logical bytes when it holds total offset bytes; 0 with fewer than two
// units or no bytes.
func (s *ratioSums) variance(total float64) variance {
	if s.m < 2 || s.b <= 0 {
		return variance{}
	}
	scale := total * total / (s.b * s.b) * float64(s.m) / float64(s.m-1)
	residual := func(yy, yb, y float64) float64 {
		rho := y / s.b
		return max(0, yy-2*rho*yb+rho*rho*s.bb)
	}
	return variance{rows: scale * residual(s.rr, s.rb, s.r), bytes: scale * residual(s.ll, s.lb, s.l)}
}

// groupEstimate is one group's estimate in a span sample: the drawn
// span's rows and logical bytes times its weight.
type groupEstimate struct {
	index       int
	rows, bytes float64
}

// collapsedVariance returns the variance of a span sample from its group
// estimates: neighbouring groups paired (see above).
func collapsedVariance(groups []groupEstimate) variance {
	slices.SortFunc(groups, func(a, b groupEstimate) int { return a.index - b.index })
	var v variance
	for i := 0; i+1 < len(groups); i += 2 {
		dr, db := groups[i].rows-groups[i+1].rows, groups[i].bytes-groups[i+1].bytes
		v.rows += dr * dr
		v.bytes += db * db
	}
	if len(groups)%2 == 1 && len(groups) >= 3 {
		// The odd group out joins the last pair: its share of that
		// pair's variance.
		last := len(groups) - 1
		dr, db := groups[last].rows-groups[last-1].rows, groups[last].bytes-groups[last-1].bytes
		v.rows += dr * dr / 2
		v.bytes += db * db / 2
	}
	return v
}

// setInterval fills the scan's 95% intervals from v around its
// estimates; the low end never falls below what was read.
func setInterval(scan *keyspace.ScanInfo, v variance, readBytes int64) {
	spread := func(estimate int64, v float64, floor int64) (int64, int64) {
		half := keyspace.Z95 * math.Sqrt(max(v, 0))
		low := max(floor, int64(math.Floor(float64(estimate)-half)))
		return min(low, estimate), int64(math.Ceil(float64(estimate) + half))
	}
	scan.RowsEstimatedLow, scan.RowsEstimatedHigh = spread(scan.RowsEstimated, v.rows, scan.RowsRead)
	scan.BytesEstimatedLow, scan.BytesEstimatedHigh = spread(scan.BytesEstimated, v.bytes, min(readBytes, scan.BytesEstimated))
}

// prefixVarianceList returns each top-level prefix's variance of a
// position sample, sorted by prefix, for the snapshot; none for another
// scan, or one without delimiters (whose tree has no prefixes to give
// them to).
func (s *scanner) prefixVarianceList() []keyspace.PrefixVariance {
	if s.plan.method != keyspace.MethodPositions || s.delimiters == "" || s.plan.mode != keyspace.ModeSample {
		return nil
	}
	list := make([]keyspace.PrefixVariance, 0, len(s.prefixVariances))
	for prefix, v := range s.prefixVariances {
		list = append(list, keyspace.PrefixVariance{Prefix: keyspace.Key(prefix), Rows: v.rows, Bytes: v.bytes})
	}
	slices.SortFunc(list, func(a, b keyspace.PrefixVariance) int { return strings.Compare(string(a.Prefix), string(b.Prefix)) })
	return list
}
