package diagnose

import (
	"fmt"
	"math"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// estimate is one number a finding kind is raised by that a sample only
// estimates: the [Evidence] names of the number and of the threshold it
// is compared with, how to say it, and its 95% interval. A finding kind
// whose trigger is a count, share, size or correlation read from a
// sample adds a line to [estimates]; one whose trigger is exact (a row's
// size, a tablet's bytes from SampleRowKeys, the schema) adds none.
type estimate struct {
	kind              Kind
	metric, threshold string
	// what names the number in a summary ("its share of rows").
	what string
	// format writes the number and its threshold.
	format func(float64) string
	// interval returns the number's 95% interval; value, value when it
	// is exact.
	interval func(d *diagnosis, f *Finding, value float64) (low, high float64)
}

// estimates returns every estimated trigger, by kind. The kinds left out
// rest on exact numbers: large-row, large-cell, wide-row,
// frequently-updated-row and long-row-key on rows measured whole (a
// sample can miss a row, which the scan note says, but not mis-measure
// it), tablet-skew on the tablet map's byte offsets, too-many-column-
// families on the schema, and the traffic kinds on every operation a
// recording saw.
func estimates() []estimate {
	return []estimate{
		{KindHotKeyRange, "recent_write_share", "min_share", "its share of recent writes", units.Percent, (*diagnosis).recentWriteShareInterval},
		{KindHotKeyRange, "write_share", "min_share", "its share of writes", units.Percent, (*diagnosis).writeShareInterval},
		{KindSequentialKeys, "rank_correlation", "min_rank_correlation", "the rank correlation", correlationText, (*diagnosis).correlationInterval},
		{KindKeyStartsWithTimestamp, "timestamp_share", "min_share", "the share of timestamps", units.Percent, (*diagnosis).keyShareInterval},
		{KindSequentialNumericID, "rank_correlation", "min_rank_correlation", "the rank correlation", correlationText, (*diagnosis).correlationInterval},
		{KindBinaryKey, "binary_key_share", "min_share", "the share of binary keys", units.Percent, (*diagnosis).keyShareInterval},
		{KindPIIInKey, "keys_with_pii_share", "min_share", "the share of keys with PII", units.Percent, (*diagnosis).keyShareInterval},
		{KindDomainNotReversed, "forward_host_share", "min_share", "the share of forward host names", units.Percent, (*diagnosis).keyShareInterval},
		{KindHeavyScan, "table_share_per_scan", "min_share", "the table share a scan reads", units.Percent, (*diagnosis).tableShareInterval},
	}
}

// markUncertain gives every estimated trigger of a finding (a number in
// [estimates] at or past its threshold) its 95% interval as
// <metric>_low and <metric>_high evidence, and marks the findings all of
// whose triggers have their threshold inside the interval: another
// sample may well not raise them, or raise them at another severity. The
// summary of such a finding says so and [Finding.Uncertain] is set; a
// finding one of whose triggers is clear of its threshold stands.
func markUncertain(d *diagnosis, findings []Finding) {
	table := estimates()
	for i := range findings {
		f := &findings[i]
		var said []string
		triggers := 0
		for _, e := range table {
			value, ok := f.Evidence[e.metric]
			threshold, hasThreshold := f.Evidence[e.threshold]
			if e.kind != f.Kind || !ok || !hasThreshold || math.Abs(value) < threshold {
				continue // not this kind's, or not what raised it
			}
			triggers++
			// A negative correlation is as strong as a positive one: the
			// interval is of its size, written in its sign.
			low, high := e.interval(d, f, math.Abs(value))
			if low == high {
				continue // exact
			}
			holds := low < threshold
			if value < 0 {
				low, high = -high, -low
			}
			f.Evidence.set(e.metric+"_low", low)
			f.Evidence.set(e.metric+"_high", high)
			if holds {
				said = append(said, fmt.Sprintf("the 95%% interval of %s, %s to %s, holds the %s threshold",
					e.what, e.format(low), e.format(high), e.format(threshold)))
			}
		}
		if triggers > 0 && len(said) == triggers {
			f.Uncertain = true
			f.Summary += " (uncertain: " + strings.Join(said, ", and ") + "; another sample may decide otherwise)"
		}
	}
}

// correlationText writes a rank correlation.
func correlationText(rho float64) string {
	return fmt.Sprintf("%.2f", rho)
}

// recentWriteShareInterval is the interval of a prefix's share of the
// recent writes (the sibling rule), which the tree counts from every row
// read: exact from a full scan, and from a sample no wider than that of
// the row sample's writes ([diagnosis.writeShareInterval]), which is
// drawn from those rows.
func (d *diagnosis) recentWriteShareInterval(f *Finding, value float64) (low, high float64) {
	if !d.snap.Scan.HasInterval() {
		return value, value
	}
	return d.writeShareInterval(f, value)
}

// writeShareInterval is the interval of a range's share of the writes
// (the range rule), by the relative error of its writes in the row
// sample: each sampled row that stands for w rows is kept with
// probability about 1/w, so the range's estimated writes Σ w·y (y the
// row's writes, [rowWrites]) have the Horvitz–Thompson variance
// Σ w(w−1)·y². The table's writes are taken as known.
func (d *diagnosis) writeShareInterval(f *Finding, value float64) (low, high float64) {
	var writes, variance float64
	for i := range d.profile.rows {
		row := &d.profile.rows[i]
		if !keyspace.InRange(string(row.Key), string(f.Start), string(f.End)) {
			continue
		}
		y := rowWrites(row)
		writes += row.Weight * y
		variance += row.Weight * max(row.Weight-1, 0) * y * y
	}
	if writes <= 0 || variance <= 0 {
		return value, value
	}
	spread := value * keyspace.Z95 * math.Sqrt(variance) / writes
	return max(0, value-spread), min(1, value+spread)
}

// keysSampled reports whether the row sample holds fewer rows than the
// table: shares of sampled keys are then estimates.
func (d *diagnosis) keysSampled() bool {
	return d.root.Rows > float64(len(d.profile.rows))
}

// keyShareInterval is the Wilson interval of a share of the
// sampled_keys sampled keys, when they are a sample.
func (d *diagnosis) keyShareInterval(f *Finding, value float64) (low, high float64) {
	n := f.Evidence["sampled_keys"]
	if !d.keysSampled() || n <= 0 {
		return value, value
	}
	z2 := keyspace.Z95 * keyspace.Z95
	centre := (value + z2/(2*n)) / (1 + z2/n)
	half := keyspace.Z95 / (1 + z2/n) * math.Sqrt(value*(1-value)/n+z2/(4*n*n))
	return max(0, centre-half), min(1, centre+half)
}

// correlationInterval is the interval of a rank correlation over the
// sampled_rows sampled rows, when they are a sample: Fisher's z with the
// standard error √(1.06/(n−3)) of Spearman's correlation.
func (d *diagnosis) correlationInterval(f *Finding, rho float64) (low, high float64) {
	n := f.Evidence["sampled_rows"]
	if !d.keysSampled() || n <= 3 || rho >= 1 {
		return rho, rho
	}
	z, se := math.Atanh(rho), math.Sqrt(1.06/(n-3))
	return math.Tanh(z - keyspace.Z95*se), math.Tanh(z + keyspace.Z95*se)
}

// tableShareInterval is the interval of a share of the table's rows
// whose numerator is counted (a scan a recording saw) and whose
// denominator, the table's rows, is the scan's estimate.
func (d *diagnosis) tableShareInterval(_ *Finding, value float64) (low, high float64) {
	if !d.snap.Scan.HasInterval() || d.root.Rows <= 0 {
		return value, value
	}
	low, high = d.snap.Scan.RowsInterval(d.root.Rows)
	return value * d.root.Rows / high, value * d.root.Rows / max(low, 1)
}
