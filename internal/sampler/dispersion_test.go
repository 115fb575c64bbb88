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
