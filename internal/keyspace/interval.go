package keyspace

import (
	"math"
	"sort"
)

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
// interval (see [ScanInfo.HasInterval]) it returns rows, rows. A node of
// the prefix tree has a closer one, [Snapshot.NodeRowsInterval].
func (s ScanInfo) RowsInterval(rows float64) (low, high float64) {
	total := float64(s.RowsEstimated)
	if !s.HasInterval() || rows <= 0 || total <= 0 {
		return rows, rows
	}
	half := float64(s.RowsEstimatedHigh) - total
	return partInterval(rows, total, half*half/(Z95*Z95), s.rowsFloor(rows))
}

// rowsFloor is the least variance of an estimate of rows of a part: that
// of its rows being a random share of the rows read, rows × (1−f)/f.
func (s ScanInfo) rowsFloor(rows float64) float64 {
	if f := float64(s.RowsRead) / float64(max(s.RowsEstimated, 1)); f > 0 && f < 1 {
		return rows * (1 - f) / f
	}
	return 0
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
	half := float64(s.BytesEstimatedHigh - s.BytesEstimated)
	return partInterval(bytes, float64(s.BytesEstimated), half*half/(Z95*Z95), floor)
}

// NodeRowsInterval returns a 95% interval for the rows of node n of the
// snapshot's tree. A sample that measured each top-level prefix's
// variance (Scan.PrefixVariances: a sample inside tablets) gives a
// top-level node its own, summed over the prefixes it holds, and a
// deeper node its top-level ancestor's shared out in proportion to its
// rows (at least the binomial error of its rows, as [ScanInfo.RowsInterval]);
// any other sample gives the approximation of [ScanInfo.RowsInterval], and
// a full scan rows, rows.
func (s *Snapshot) NodeRowsInterval(n *Node) (low, high float64) {
	scan := s.Scan
	switch {
	case !scan.HasInterval() || n == nil || n.Rows <= 0:
		if n == nil {
			return 0, 0
		}
		return n.Rows, n.Rows
	case n == s.Root:
		return float64(scan.RowsEstimatedLow), float64(scan.RowsEstimatedHigh)
	case len(scan.PrefixVariances) == 0 || s.Root == nil:
		return scan.RowsInterval(n.Rows)
	}
	top := n
	if n.Depth != 1 {
		top = nil
		for _, child := range s.Root.Children {
			if child.Contains(string(n.Start)) {
				top = child
				break
			}
		}
		if top == nil || top.Rows <= 0 {
			return scan.RowsInterval(n.Rows)
		}
	}
	variance := prefixVariance(scan.PrefixVariances, string(top.Start), string(top.End))
	if top == n {
		spread := Z95 * math.Sqrt(variance)
		return max(0, n.Rows-spread), n.Rows + spread
	}
	return partInterval(n.Rows, top.Rows, variance, scan.rowsFloor(n.Rows))
}

// prefixVariance sums the rows variances of the prefixes in [start, end)
// (an empty end is the end of the table); a value that is not a variance
// (negative, NaN, infinite: a damaged file) counts as none.
func prefixVariance(variances []PrefixVariance, start, end string) float64 {
	i := sort.Search(len(variances), func(i int) bool { return string(variances[i].Prefix) >= start })
	var sum float64
	for ; i < len(variances) && (end == "" || string(variances[i].Prefix) < end); i++ {
		if v := variances[i].Rows; v > 0 && !math.IsInf(v, 1) {
			sum += v
		}
	}
	return sum
}

// partInterval returns the 95% interval of part, a share of an estimated
// total whose estimate has the given variance: that variance shared out
// in proportion to part, and at least floor.
func partInterval(part, total, variance, floor float64) (low, up float64) {
	spread := Z95 * math.Sqrt(max(variance*part/total, floor))
	return max(0, part-spread), part + spread
}
