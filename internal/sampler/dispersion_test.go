package sampler

import "testing"

// A prefix whose tablets measured its spans' spread well enough takes
// spans by its own measure; one that measured too little, or none, takes
// the pooled measure of the table's other prefixes that are not names;
// names keep pieceSpanRows and do not count in the pool.
func TestSpanRowsByPrefix(t *testing.T) {
	cycle := dispersion{extra: 0.2 * 20, df: 20} // c² 0.2: spans of 5 rows
	even := dispersion{extra: 0, df: 20}
	clusters := dispersion{extra: 3 * 40, df: 40} // names: c² 3
	few := dispersion{extra: 0.2 * 3, df: 3}
	lumps := dispersion{extra: 1.0 * 20, df: 20} // c² 1: spans of minPieceSpanRows
	edge := dispersion{extra: 20.0 / 16, df: 20} // c² 1/16: spans of pieceSpanRows still
	// c² 0.07 where Poisson counts of 8 rows over 20 degrees of freedom
	// give 0 give or take 0.04 (the root of 2·20/64, over 20): within
	// twice that, taken as 0 (it would give spans of 14 rows).
	chance := dispersion{extra: 0.07 * 20, df: 20, noise: 2 * 20 / 64.0}
	names := func(prefix string) bool { return prefix == "user#" }
	for _, tc := range []struct {
		name     string
		measured map[string]dispersion
		want     map[string]float64
		fallback float64
	}{
		{"nothing measured", nil, map[string]float64{}, pieceSpanRows},
		{"timestamps beside ids", map[string]dispersion{"t#": cycle, "id#": even}, map[string]float64{"t#": 5, "id#": pieceSpanRows}, 10},
		{"too little measured", map[string]dispersion{"t#": few}, map[string]float64{}, pieceSpanRows},
		{"names left out", map[string]dispersion{"t#": cycle, "user#": clusters}, map[string]float64{"t#": 5}, 5},
		{"no shorter than minPieceSpanRows", map[string]dispersion{"l#": lumps}, map[string]float64{"l#": minPieceSpanRows}, minPieceSpanRows},
		{"a Poisson count's spread at 16 rows", map[string]dispersion{"e#": edge}, map[string]float64{"e#": pieceSpanRows}, pieceSpanRows},
		{"a spread within chance", map[string]dispersion{"c#": chance}, map[string]float64{"c#": pieceSpanRows}, pieceSpanRows},
	} {
		got, fallback := spanRowsByPrefix(tc.measured, names)
		if len(got) != len(tc.want) || fallback != tc.fallback {
			t.Errorf("%s: %v and %.0f for the rest, want %v and %.0f", tc.name, got, fallback, tc.want, tc.fallback)
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
