package keyspace

import (
	"math"
	"testing"
)

// A part's bytes get an interval from a sample, at least the error of its
// rows being a random share of those read and wider for a part with fewer,
// larger rows; a full scan's bytes are exact.
func TestBytesInterval(t *testing.T) {
	sample := ScanInfo{Mode: ModeSample, Fraction: 0.1, RowsRead: 1000, RowsEstimated: 10_000, RowsEstimatedHigh: 10_600,
		BytesEstimated: 1_000_000, BytesEstimatedHigh: 1_050_000}
	low, high := sample.BytesInterval(250_000, 2500)
	if !(low < 250_000 && 250_000 < high) || high-250_000 != 250_000-low {
		t.Fatalf("sample: [%v, %v] around 250,000", low, high)
	}
	fewLow, _ := sample.BytesInterval(250_000, 25)
	if fewLow >= low {
		t.Errorf("25 rows of 10 kB: low %v, want below %v (2,500 rows of 100 B)", fewLow, low)
	}
	full := ScanInfo{Mode: ModeFull, Fraction: 1, RowsRead: 10_000, RowsEstimated: 10_000, BytesEstimated: 1_000_000}
	if low, high := full.BytesInterval(250_000, 2500); low != 250_000 || high != 250_000 {
		t.Errorf("full scan: [%v, %v]", low, high)
	}
}

// A sample that measured each top-level prefix's variance gives a
// top-level node its own interval (a range of merged prefixes the sum of
// theirs), a deeper node its ancestor's shared out by rows, and the root
// the scan's; without the variances every node gets the scan's shared
// out; a full scan's counts are exact.
func TestNodeRowsInterval(t *testing.T) {
	a := &Node{Kind: KindPrefix, Prefix: "a#", Start: "a#", End: "a$", Depth: 1, Stats: Stats{Rows: 9000}}
	deep := &Node{Kind: KindPrefix, Prefix: "a#x#", Start: "a#x#", End: "a#x$", Depth: 2, Stats: Stats{Rows: 900}}
	a.Children = []*Node{deep}
	merged := &Node{Kind: KindRange, Prefix: "b", Start: "b#", End: "c$", Depth: 1, Stats: Stats{Rows: 1000}}
	root := &Node{Kind: KindPrefix, Children: []*Node{a, merged}, Stats: Stats{Rows: 10_000}}
	snap := &Snapshot{Root: root, Scan: ScanInfo{Mode: ModeSample, Fraction: 0.1, RowsRead: 1000,
		RowsEstimated: 10_000, RowsEstimatedLow: 9500, RowsEstimatedHigh: 10_500,
		PrefixVariances: []PrefixVariance{{Prefix: "a#", Rows: 100 * 100}, {Prefix: "b#", Rows: 30 * 30}, {Prefix: "c#", Rows: 40 * 40}}}}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-6 }
	if low, high := snap.NodeRowsInterval(a); !near(high-a.Rows, Z95*100) || !near(a.Rows-low, Z95*100) {
		t.Errorf("a#: [%v, %v], want ± %v", low, high, Z95*100)
	}
	if low, high := snap.NodeRowsInterval(merged); !near(high-merged.Rows, Z95*50) || !near(merged.Rows-low, Z95*50) {
		t.Errorf("b#–c#: [%v, %v], want ± %v (30 and 40 in quadrature)", low, high, Z95*50)
	}
	// 900 rows of a#'s 9,000: a tenth of its variance, or the binomial
	// floor 900·0.9/0.1 = 8,100 if larger.
	if low, high := snap.NodeRowsInterval(deep); !near(high-deep.Rows, Z95*90) || !near(deep.Rows-low, Z95*90) {
		t.Errorf("a#x#: [%v, %v], want ± %v", low, high, Z95*90)
	}
	if low, high := snap.NodeRowsInterval(root); low != 9500 || high != 10_500 {
		t.Errorf("root: [%v, %v], want the scan's", low, high)
	}
	without := *snap
	without.Scan.PrefixVariances = nil
	low, high := without.NodeRowsInterval(a)
	if wantLow, wantHigh := without.Scan.RowsInterval(a.Rows); low != wantLow || high != wantHigh {
		t.Errorf("without prefix variances: [%v, %v], want the scan's shared out, [%v, %v]", low, high, wantLow, wantHigh)
	}
	full := Snapshot{Root: root, Scan: ScanInfo{Mode: ModeFull, Fraction: 1}}
	if low, high := full.NodeRowsInterval(a); low != a.Rows || high != a.Rows {
		t.Errorf("full scan: [%v, %v]", low, high)
	}
}
