package benchproc

import "testing"

func TestPairTakesTheMedianOfEachRoundsRatio(t *testing.T) {
	// The machine runs at half speed for two rounds: each round's ratio
	// stays 0.9, but for the last.
	rate := []float64{90, 90, 45, 45, 60}
	base := []float64{100, 100, 50, 50, 50}
	p := Pair(rate, base)
	if p.Median != 0.9 || len(p.Ratios) != 5 || p.Ratios[4] != 1.2 {
		t.Errorf("Pair = %+v, want ratios 0.9 0.9 0.9 0.9 1.2 and median 0.9", p)
	}
	if got := p.String(); got != "0.90 0.90 0.90 0.90 1.20" {
		t.Errorf("String = %q", got)
	}
	if p := Pair(nil, nil); p.Median != 0 || len(p.Ratios) != 0 {
		t.Errorf("no rounds: %+v, want nothing", p)
	}
}
