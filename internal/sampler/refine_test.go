package sampler

import (
	"context"
	"slices"
	"testing"
	"time"
)

// A position sample reads the tablets inside one prefix first, then a
// few boundary tablets spread over the table whose pieces sound how
// unevenly the prefixes' keys lie, then the other boundary tablets; a
// table of fewer than twice minSounding boundary tablets sounds none.
func TestOrderUnitsSoundsSomeBoundaryTablets(t *testing.T) {
	// order builds a plan of n tablets, those of inside (one prefix each)
	// and the rest boundary tablets (two pieces each), and returns its
	// units' first tablets in the order they are read and the tablets
	// that sound.
	order := func(n int, inside ...int) ([]int, []int) {
		p := &plan{}
		for i := range n {
			p.units = append(p.units, unit{i, i + 1})
			p.tablets = append(p.tablets, tabletPlan{})
			pieces := tabletPieces{{prefix: "a#"}, {prefix: "b#"}}
			if slices.Contains(inside, i) {
				pieces = pieces[:1]
			}
			p.pieces = append(p.pieces, pieces)
		}
		s := &scanner{plan: p}
		var got []int
		for _, u := range s.orderUnits() {
			got = append(got, u.first)
		}
		var sound []int
		for i := range n {
			if s.sounding(i) {
				sound = append(sound, i)
			}
		}
		return got, sound
	}
	// 7 boundary tablets: none sounds.
	got, sound := order(9, 0, 5)
	if want := []int{0, 5, 1, 2, 3, 4, 6, 7, 8}; !slices.Equal(got, want) || len(sound) != 0 {
		t.Errorf("9 tablets, 2 inside: read %v sounding %v, want %v sounding none", got, sound, want)
	}
	// 8 boundary tablets (1–8): four sound, one in the middle of each
	// quarter of them, (j+½)·8/4 → the 2nd, 4th, 6th and 8th of them.
	got, sound = order(10, 0, 9)
	if want, wantSound := []int{0, 9, 2, 4, 6, 8, 1, 3, 5, 7}, []int{2, 4, 6, 8}; !slices.Equal(got, want) || !slices.Equal(sound, wantSound) {
		t.Errorf("10 tablets, 2 inside: read %v sounding %v, want %v sounding %v", got, sound, want, wantSound)
	}
	// 48 boundary tablets: an eighth, six, sound.
	got, sound = order(48)
	if wantSound := []int{4, 12, 20, 28, 36, 44}; !slices.Equal(sound, wantSound) || !slices.Equal(got[:6], wantSound) {
		t.Errorf("48 boundary tablets: sounding %v, read first %v, want %v", sound, got[:6], wantSound)
	}
}

// The boundary tablets that do not sound wait until those that do are
// read, and then measure the prefixes' spread again with theirs: the
// measures of all of them, summed in tablet order whichever finished
// first, less a piece whose spans average fewer than minDispersionMean
// rows. Worked by hand, ten spans each: tablet 1's piece of t# reads 4
// and 16 rows (mean 10, c² (40 − 10)/100 = 0.3), tablet 3's 6 and 10
// (mean 8, c² (4.44 − 8)/64 = −0.056), tablet 5's piece of u# 8 and 16
// (mean 12, c² (17.78 − 12)/144 = 0.040): pooled over 27 degrees of
// freedom, 0.095, spans of 11 rows (16, 6 or 8 with one of the three
// left out). Tablet 7's piece of u# reads 0 and 4 rows (mean 2, c²
// 0.61), left out: with it, spans of 4 rows.
func TestSoundingDoneWaitsAndMeasuresAgain(t *testing.T) {
	p := &plan{maps: newKeyMaps(topPrefixer("#"))}
	for i := range 8 {
		p.units = append(p.units, unit{i, i + 1})
		p.tablets = append(p.tablets, tabletPlan{})
		p.pieces = append(p.pieces, tabletPieces{{prefix: "t#"}, {prefix: "u#"}})
	}
	spans := func(a, b float64) []float64 {
		var counts []float64
		for range 5 {
			counts = append(counts, a, b)
		}
		return counts
	}
	measures := map[int]tabletCounts{
		1: {prefix: "t#", counts: spans(4, 16)},
		3: {prefix: "t#", counts: spans(6, 10)},
		5: {prefix: "u#", counts: spans(8, 16)},
		7: {prefix: "u#", counts: spans(0, 4)},
	}
	sound := func(order []int) (*scanner, dispersion) {
		s := &scanner{plan: p}
		s.orderUnits()
		s.measureInside() // as refined does: no tablet inside a prefix, no measure
		if len(p.spanRows) != 0 || p.spanRowsElse != pieceSpanRows || !s.refine.soundingNeeded {
			t.Fatalf("before the sounding: spans of %v, else %.0f, sounding needed %v; want none measured, and the sounding needed", p.spanRows, p.spanRowsElse, s.refine.soundingNeeded)
		}
		waited := make(chan error, 1)
		go func() { waited <- s.soundingDone(context.Background()) }()
		for _, i := range order {
			if !s.sounding(i) {
				t.Fatalf("tablet %d does not sound", i)
			}
			select {
			case err := <-waited:
				t.Fatalf("the wait ended (%v) with tablet %d of the sounding ones unread", err, i)
			case <-time.After(10 * time.Millisecond):
			}
			m := measures[i]
			s.measuredSpans(i, m.prefix, m.counts, true)
			s.sounded()
		}
		if err := <-waited; err != nil {
			t.Fatal(err)
		}
		_, pieces := s.refine.dispersions()
		var pooled dispersion
		for _, prefix := range []string{"t#", "u#"} {
			pooled.merge(pieces[prefix])
		}
		return s, pooled
	}
	_, last := sound([]int{7, 5, 3, 1})
	// A piece's measure is not its prefix's own: t# and u# take the
	// pool's.
	if len(p.spanRows) != 0 || p.spanRowsElse != 11 {
		t.Errorf("after the sounding: spans of %v, else %.0f; want none of a prefix's own, else 11", p.spanRows, p.spanRowsElse)
	}
	if _, first := sound([]int{1, 3, 5, 7}); first != last || p.spanRowsElse != 11 {
		t.Errorf("the sounding tablets finished in key order: %+v, spans of %.0f; in reverse: %+v", first, p.spanRowsElse, last)
	}

	// A scan that ends while the sounding tablets are unread.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &scanner{plan: p}
	s.orderUnits()
	s.measureInside()
	if err := s.soundingDone(ctx); err == nil {
		t.Error("a scan that ends while the sounding tablets are unread: the wait returned no error")
	}
	// Tablets inside prefixes that measured enough: no wait. Their lines
	// count however few rows their spans read (three of 0 and 4 rows:
	// c² 0.61, spans of 4 rows).
	s = &scanner{plan: p}
	s.orderUnits()
	for range 3 {
		s.measuredSpans(0, "id#", spans(0, 4), false)
	}
	s.measureInside()
	if s.refine.soundingNeeded || p.spanRowsElse != minPieceSpanRows {
		t.Fatalf("the tablets inside prefixes measured 27 degrees of freedom: sounding needed %v, spans of %.0f; want no sounding, spans of %d", s.refine.soundingNeeded, p.spanRowsElse, minPieceSpanRows)
	}
	if err := s.soundingDone(ctx); err != nil {
		t.Errorf("no sounding needed: the wait returned %v", err)
	}
}
