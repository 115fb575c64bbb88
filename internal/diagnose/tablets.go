package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Thresholds of tablet-skew. The guide gives none.
const (
	// tabletSkewFactor is how many times the mean of its neighbours a
	// tablet must hold. Bigtable splits tablets as they grow, so
	// neighbours stay within a few times of each other; ten times means
	// data it cannot split (one huge row) or a burst not yet rebalanced.
	tabletSkewFactor = 10.0
	// minTablets is the fewest tablets a comparison with neighbours makes
	// sense for.
	minTablets = 3
)

const tabletSkewAdvice = "Bigtable splits tablets as they grow, so a tablet far larger than its neighbours " +
	"usually holds data it cannot split: a very large row, or many writes to a narrow range that has not been " +
	"rebalanced yet. Look at its largest rows: split large rows over several keys, and spread a narrow hot " +
	"range (see hot-key-range)."

// checkTablets raises tablet-skew for tablets holding at least
// [tabletSkewFactor] times their neighbours' mean bytes; only on real
// Bigtable, where the ranges are tablets.
func checkTablets(d *diagnosis) []Finding {
	ranges := d.snap.Ranges
	if !d.snap.RangesAreTablets || len(ranges) < minTablets {
		return nil
	}
	bytesOf := func(r *keyspace.Range) float64 {
		if r.SampledBytes > 0 {
			return float64(r.SampledBytes)
		}
		return r.Bytes
	}
	var total float64
	for i := range ranges {
		total += bytesOf(&ranges[i])
	}
	var findings []Finding
	for i := range ranges {
		var neighbours []float64
		if i > 0 {
			neighbours = append(neighbours, bytesOf(&ranges[i-1]))
		}
		if i+1 < len(ranges) {
			neighbours = append(neighbours, bytesOf(&ranges[i+1]))
		}
		var mean float64
		for _, b := range neighbours {
			mean += b
		}
		mean /= float64(len(neighbours))
		size := bytesOf(&ranges[i])
		if size == 0 || size < tabletSkewFactor*max(mean, 1) {
			continue
		}
		r := &ranges[i]
		end := printable(string(r.End))
		if r.End == "" {
			end = "end of table"
		}
		summary := fmt.Sprintf("tablet [%s, %s) holds %s, %.0f times its neighbours' mean of %s (%s of the table)",
			quoteKey(string(r.Start)), end, units.Bytes(size), share(size, max(mean, 1)), units.Bytes(mean), units.Percent(share(size, total)))
		if r.MaxRowBytes > 0 {
			summary += "; its largest row read holds " + units.Bytes(float64(r.MaxRowBytes))
		}
		evidence := Evidence{}
		evidence.set("tablet_bytes", size)
		evidence.set("neighbour_mean_bytes", mean)
		evidence.set("skew_factor", share(size, max(mean, 1)))
		evidence.set("min_skew_factor", tabletSkewFactor)
		evidence.set("table_share", share(size, total))
		evidence.set("max_row_bytes", float64(r.MaxRowBytes))
		findings = append(findings, Finding{
			Kind: KindTabletSkew, Severity: SeverityWarning, Start: r.Start, End: r.End,
			Summary: summary, Advice: tabletSkewAdvice, Evidence: evidence,
		})
	}
	return findings
}
