package sampler

import (
	"math"
	"slices"
	"testing"
)

// The names pieces of a tablet on their kin's line take their spans at
// the same places of it (see [plan.kinPositions]): two whole prefixes
// the same parts, a piece of the third from a fifth of its line on the
// same places read on its own stretch of the line, each as many spans as
// the one of most, and every point of each piece's line in a span with
// its coverage. A piece over less than half its prefix's line, one of
// fewer than a quarter of the most spans, and a piece of other keys
// place their own.
func TestKinPiecesShareTheirPlaces(t *testing.T) {
	byPrefix := namesOfKin(1)
	maps := newKeyMaps(topPrefixer("#"))
	for _, prefix := range []string{"a#", "b#", "c#"} {
		learnDrawn(maps, byPrefix, 1, prefix, 300)
	}
	maps.learn("h#0f3a", "h#9c21", "h#e4b7")
	maps.judge()
	for _, prefix := range []string{"a#", "b#", "c#"} {
		if maps.maps[prefix].kin == nil {
			t.Fatalf("%s, of names, does not take its kin's line: the test no longer builds the case", prefix)
		}
	}
	c := byPrefix["c#"]
	fifth, late := c[len(c)/5], c[2*len(c)/3]
	pieces := tabletPieces{
		{prefix: "a#", from: "a#", to: "a$"},
		{prefix: "b#", from: "b#", to: "b$"},
		{prefix: "c#", from: fifth, to: "c$"},
		{prefix: "c#", from: late, to: "c$"}, // a third of its line
		{prefix: "b#", from: "b#", to: "b$"}, // of few spans
		{prefix: "h#", from: "h#", to: "h$"}, // of ids
	}
	const coverage = 0.02
	budgets := []pieceBudget{
		{rows: 4000, coverage: coverage, spans: 12}, {rows: 3000, coverage: coverage, spans: 9},
		{rows: 2000, coverage: coverage, spans: 6}, {rows: 1000, coverage: coverage, spans: 12},
		{rows: 500, coverage: coverage, spans: 2}, {rows: 4000, coverage: coverage, spans: 12},
	}
	if from, _ := maps.maps["c#"].stretch(late, "c$"); from < 1-kinShare {
		t.Fatalf("the late piece of c# starts at %.3f of its line: the test no longer builds the case (want past %.1f)", from, 1-kinShare)
	}
	p := &plan{maps: maps, seed: 42}
	kin := p.kinPositions(3, pieces, make([]pieceRead, len(pieces)), budgets)
	for h := range 3 {
		if kin.parts(h) == nil || budgets[h].spans != 12 {
			t.Errorf("piece %d: parts %v, %d spans: want shared places, 12 spans", h, kin.parts(h), budgets[h].spans)
		}
		// The row limit fitted to 12 spans of its coverage of its rows.
		if want := spanLimitFactor * max(minSpanRows, int64(math.Ceil(coverage*budgets[h].rows/12))); budgets[h].limit != want {
			t.Errorf("piece %d: row limit %d, want %d", h, budgets[h].limit, want)
		}
	}
	for h := 3; h < len(pieces); h++ {
		if kin.parts(h) != nil {
			t.Errorf("piece %d (%s from %q) takes the shared places: want its own", h, pieces[h].prefix, pieces[h].from)
		}
	}
	if !slices.Equal(kin.parts(0), kin.parts(1)) {
		t.Errorf("the whole prefixes a# and b# take different places: %v and %v", kin.parts(0), kin.parts(1))
	}
	// The third piece's parts, on the whole line of c#, are the whole
	// prefixes' parts past where it starts.
	from := maps.maps["c#"].position(fifth, len("c#"))
	var want, got []part
	for _, pt := range kin.parts(0) {
		if pt.to > from {
			want = append(want, part{from: max(pt.from, from), to: pt.to, unit: pt.unit})
		}
	}
	for _, pt := range kin.parts(2) {
		got = append(got, part{from: from + pt.from*(1-from), to: from + pt.to*(1-from), unit: pt.unit})
	}
	if len(got) != len(want) {
		t.Fatalf("the piece of c# from %.3f of its line has %d parts, want %d", from, len(got), len(want))
	}
	for j := range got {
		if math.Abs(got[j].from-want[j].from) > 1e-9 || math.Abs(got[j].to-want[j].to) > 1e-9 || got[j].unit != want[j].unit {
			t.Errorf("part %d of the piece of c#: %+v on its prefix's line, want %+v", j, got[j], want[j])
		}
	}
	// Every point of a whole prefix's line lies in a span with the
	// coverage: the parts' widths sum to it.
	var width float64
	for _, pt := range kin.parts(0) {
		width += pt.to - pt.from
	}
	if math.Abs(width-coverage) > 1e-9 {
		t.Errorf("the shared parts cover %.6f of the line, want %.6f", width, coverage)
	}
}
