package keyspace

import "testing"

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
