package keyspace

import "math"

// Z95 is the normal quantile of a two-sided 95% interval, the one every
// interval of btviz is drawn at.
const Z95 = 1.96

// HasInterval reports whether the scan carries a 95% interval for its
// estimates: a sample that finished (a full scan's counts are exact).
func (s ScanInfo) HasInterval() bool {
	return s.Mode.IsSample() && s.RowsEstimatedHigh > 0
}

// RowsInterval returns a 95% interval for an estimate of rows that a
// part of the scanned range holds (a prefix, a bucket), by the scan's own
// uncertainty: its variance shared out in proportion to the part's rows,
// and at least that of the part's rows being a random share of the rows
// read (rows × (1−f)/f, f the scan's fraction). It is an approximation:
// the scan measures its variance for the whole range only. Without an
// interval (see [ScanInfo.HasInterval]) it returns rows, rows.
func (s ScanInfo) RowsInterval(rows float64) (low, high float64) {
	if !s.HasInterval() || rows <= 0 || s.RowsEstimated <= 0 {
		return rows, rows
	}
	var floor float64
	if f := float64(s.RowsRead) / float64(s.RowsEstimated); f > 0 && f < 1 {
		floor = rows * (1 - f) / f
	}
	return partInterval(rows, float64(s.RowsEstimated), float64(s.RowsEstimatedHigh), floor)
}

// BytesInterval returns a 95% interval for an estimate of bytes that a
// part of the scanned range holds in rows rows, as [ScanInfo.RowsInterval]
// does for rows: the scan's bytes variance shared out in proportion to
// the part's bytes, and at least that of its rows, each of the part's
// mean size, being a random share of the rows read (bytes²/rows ×
// (1−f)/f). Without an interval it returns bytes, bytes.
func (s ScanInfo) BytesInterval(bytes, rows float64) (low, high float64) {
	if !s.HasInterval() || bytes <= 0 || s.BytesEstimated <= 0 || s.BytesEstimatedHigh <= 0 {
		return bytes, bytes
	}
	var floor float64
	if f := float64(s.RowsRead) / float64(max(s.RowsEstimated, 1)); rows > 0 && f > 0 && f < 1 {
		floor = bytes * bytes / rows * (1 - f) / f
	}
	return partInterval(bytes, float64(s.BytesEstimated), float64(s.BytesEstimatedHigh), floor)
}

// partInterval returns the 95% interval of part, a share of an estimated
// total whose interval ends at high: the total's variance shared out in
// proportion to part, and at least floor.
func partInterval(part, total, high, floor float64) (low, up float64) {
	half := high - total
	variance := max(half*half/(Z95*Z95)*part/total, floor)
	spread := Z95 * math.Sqrt(variance)
	return max(0, part-spread), part + spread
}
