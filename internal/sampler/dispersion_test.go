package sampler

import (
	"math"
	"testing"
)

// The pieces of a sounding tablet whose spans average fewer than
// minDispersionMean rows are not measured: a row or two a span vary by
// chance far more than they can say of c². Worked by hand: twenty spans
// of 40 and 60 rows (mean 50, variance 2000/19) measure c² 0.0221, with
// Poisson noise 2·19/50² = 0.0152 over 19 degrees of freedom; twenty of
// 0 and 4 rows (mean 2) are left out, where pooled by degrees of
// freedom they would have made it 0.287 (spans of 4 rows, not 16), as
// they do where no least mean is asked (a tablet inside a prefix).
func TestDispersionLeavesOutLinesOfFewRows(t *testing.T) {
	var many, few []float64
	for range 10 {
		many = append(many, 40, 60)
		few = append(few, 0, 4)
	}
	var d, all dispersion
	d.add(many, minDispersionMean)
	d.add(few, minDispersionMean)
	all.add(many, 0)
	all.add(few, 0)
	if c2, _ := all.c2(); math.Abs(c2-0.2873684) > 1e-6 {
		t.Errorf("no least mean: c² %.7f, want 0.2873684", c2)
	}
	c2, ok := d.c2()
	if !ok || math.Abs(c2-0.0221053) > 1e-6 || d.df != 19 || math.Abs(d.noise-0.0152) > 1e-9 {
		t.Errorf("c² %.7f (%v) over %g degrees of freedom, noise %.4f; want 0.0221053 over 19, 0.0152", c2, ok, d.df, d.noise)
	}
	if got := spanRowsFor(c2); got != pieceSpanRows {
		t.Errorf("the measure gives spans of %.0f rows, want %d", got, pieceSpanRows)
	}
}

// A prefix whose tablets measured its spans' spread well enough takes
// spans by its own measure; one that measured too little, or none, takes
// the pooled measure of the table's other prefixes that are not names;
// names keep pieceSpanRows and do not count in the pool.
func TestSpanRowsByPrefix(t *testing.T) {
	cycle := dispersion{extra: 0.2 * 20, df: 20} // c² 0.2: spans of 5 rows
	even := dispersion{extra: 0, df: 20}
	clusters := dispersion{extra: 3 * 40, df: 40} // names: c² 3
	few := dispersion{extra: 0.5 * 3, df: 3}      // c² 0.5, too few degrees of freedom
	lumps := dispersion{extra: 1.0 * 20, df: 20}  // c² 1: spans of minPieceSpanRows
	edge := dispersion{extra: 20.0 / 16, df: 20}  // c² 1/16: spans of pieceSpanRows still
	// c² 0.07 where Poisson counts of 8 rows over 20 degrees of freedom
	// give 0 give or take 0.04 (the root of 2·20/64, over 20): within
	// twice that, taken as 0 (it would give spans of 14 rows).
	chance := dispersion{extra: 0.07 * 20, df: 20, noise: 2 * 20 / 64.0}
	names := func(prefix string) bool { return prefix == "user#" }
	for _, tc := range []struct {
		name           string
		inside, pieces map[string]dispersion
		want           map[string]float64
		fallback       float64
		pooled         bool
	}{
		{"nothing measured", nil, nil, map[string]float64{}, pieceSpanRows, false},
		{"timestamps beside ids", map[string]dispersion{"t#": cycle, "id#": even}, nil, map[string]float64{"t#": 5, "id#": pieceSpanRows}, 10, true},
		{"too little measured", map[string]dispersion{"t#": few}, nil, map[string]float64{}, pieceSpanRows, false},
		{"names left out", map[string]dispersion{"t#": cycle, "user#": clusters}, nil, map[string]float64{"t#": 5}, 5, true},
		{"no shorter than minPieceSpanRows", map[string]dispersion{"l#": lumps}, nil, map[string]float64{"l#": minPieceSpanRows}, minPieceSpanRows, true},
		{"a Poisson count's spread at 16 rows", map[string]dispersion{"e#": edge}, nil, map[string]float64{"e#": pieceSpanRows}, pieceSpanRows, true},
		{"a spread within chance", map[string]dispersion{"c#": chance}, nil, map[string]float64{"c#": pieceSpanRows}, pieceSpanRows, true},
		// The sounding tablets' pieces: pooled with what the tablets
		// inside prefixes measured when that is too little, never a
		// prefix's own measure, names left out.
		{"no tablet inside a prefix", nil, map[string]dispersion{"t#": cycle, "user#": clusters}, map[string]float64{}, 5, false},
		// 1.5 + 4 over 23 degrees of freedom: c² 0.239, spans of 4 rows
		// (5 without the inside's measure).
		{"too little inside", map[string]dispersion{"t#": few}, map[string]dispersion{"u#": cycle}, map[string]float64{}, 4, false},
		{"enough inside", map[string]dispersion{"id#": even}, map[string]dispersion{"t#": cycle}, map[string]float64{"id#": pieceSpanRows}, pieceSpanRows, true},
	} {
		got, fallback, pooled := spanRowsByPrefix(tc.inside, tc.pieces, names)
		if len(got) != len(tc.want) || fallback != tc.fallback || pooled != tc.pooled {
			t.Errorf("%s: %v and %.0f for the rest (pooled inside %v), want %v and %.0f (%v)", tc.name, got, fallback, pooled, tc.want, tc.fallback, tc.pooled)
			continue
		}
		for prefix, rows := range tc.want {
			if got[prefix] != rows {
				t.Errorf("%s: %s's spans %.0f rows, want %.0f", tc.name, prefix, got[prefix], rows)
			}
		}
	}
}

// A piece's spans take its prefix's measure, else the table's, and a
// piece of names keeps pieceSpanRows; before the tablets inside prefixes
// are read (no measure at all), pieceBudget.fit cuts spans of
// pieceSpanRows.
func TestSpanRowsOf(t *testing.T) {
	p := &plan{maps: newKeyMaps(topPrefixer("#")), spanRows: map[string]float64{"t#": 5}, spanRowsElse: 10}
	for _, tc := range []struct {
		prefix string
		want   float64
	}{{"t#", 5}, {"id#", 10}, {"", 10}} {
		if got := p.spanRowsOf(piece{prefix: tc.prefix}); got != tc.want {
			t.Errorf("a piece of %q: spans of %.0f rows, want %.0f", tc.prefix, got, tc.want)
		}
	}
	b := pieceBudget{rows: 16_000, coverage: 0.01, spanRows: (&plan{maps: newKeyMaps(topPrefixer("#"))}).spanRowsOf(piece{prefix: "t#"})}
	b.fit()
	if b.spans != 10 {
		t.Errorf("160 rows with no measure: %d spans, want 10 (of pieceSpanRows)", b.spans)
	}
	b.spanRows = 5
	b.fit()
	if b.spans != 32 {
		t.Errorf("160 rows in spans of 5: %d spans, want 32", b.spans)
	}
}
