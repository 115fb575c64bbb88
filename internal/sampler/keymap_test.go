package sampler

import (
	"fmt"
	"testing"
)

// A tablet map's boundaries reach the key map as each tablet's start and
// end, so every boundary but the first and last comes twice. The line of
// a tablet of uniformly spread account numbers must still run through
// them evenly: from acct#39… to acct#48…, a tenth of the way along is
// about acct#40…, not acct#48… (which counting each boundary twice gave:
// every prefix of a boundary then had two witnesses agreeing on the next
// digit, as names do).
func TestKeyMapLearnsABoundaryOnce(t *testing.T) {
	boundaries := []string{"", "acct#16662544", "acct#30163069", "acct#30768440", "acct#31934589",
		"acct#32965025", "acct#35093015", "acct#36458499", "acct#36997493", "acct#39824585",
		"acct#48195542", "acct#66674276", "acct#83243139", ""}
	keys := &keyMap{}
	for id := range pilotRows {
		keys.learnBytes(fmt.Sprintf("acct#%08d", id))
	}
	for i := 0; i+1 < len(boundaries); i++ {
		keys.learn(boundaries[i], boundaries[i+1]) // as planPositions does
	}
	keys.judge()
	line := keys.segmentOf("acct#39824585", "acct#48195542")
	for _, u := range []float64{0.1, 0.5, 0.9} {
		var id int
		if _, err := fmt.Sscanf(line.at(u), "acct#%d", &id); err != nil {
			t.Fatalf("at(%v) = %q: %v", u, line.at(u), err)
		}
		want := 39824585 + u*(48195542-39824585)
		if off := (float64(id) - want) / (48195542 - 39824585); off > 0.02 || off < -0.02 {
			t.Errorf("at(%v) = acct#%08d, want about acct#%08.0f (%.0f%% of the tablet off)", u, id, want, 100*off)
		}
	}
}

// The first tablet's line starts at the table's first row where both go
// on with a number of one width, and at "" otherwise (see lineStart).
func TestFirstTabletLineStart(t *testing.T) {
	for _, c := range []struct {
		first, start, end, want string
	}{
		{"acct#00000017", "", "acct#16736241", "acct#00000017"},
		{"acct#0000000", "", "acct#0037485", "acct#0000000"},
		{"user#000000#profile", "", "user#003748#profile", "user#000000#profile"},
		{"media#aaron_ito12#0f", "", "media#felix_reyes498#c2", ""}, // names
		{"0#user#aaron#p1", "", "1#user#bob#p9", ""},                // a one-digit salt before names
		{"acct#00000017", "acct#1", "acct#2", "acct#1"},             // not the first tablet
		{"acct#00000017", "", "", ""},                               // one tablet
		{"zz#1", "", "acct#2", ""},                                  // a pilot past the tablet
	} {
		p := &plan{shape: mapShape{keys: []string{c.first}}}
		if got := p.lineStart(c.start, c.end); got != c.want {
			t.Errorf("first row %q, tablet [%q, %q): line starts at %q, want %q", c.first, c.start, c.end, got, c.want)
		}
	}
}
