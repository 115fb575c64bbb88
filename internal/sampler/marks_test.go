package sampler

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// stretchOf returns the share of prefix's line (of map m) that the keys
// of first name first take, and the share of suffixes (every key after
// its prefix, sorted) that begin with it.
func stretchOf(m *keyMap, prefix, first string, suffixes []string) (line, rows float64) {
	from := prefix + first + "_"
	to := keyspace.PrefixEnd(from)
	line = m.position(to, len(prefix)) - m.position(from, len(prefix))
	lo, _ := slices.BinarySearch(suffixes, first+"_")
	hi, _ := slices.BinarySearch(suffixes, to[len(prefix):])
	return line, float64(hi-lo) / float64(len(suffixes))
}

// A first name the known keys miss lies on a sliver of its kin's line;
// marked (see [keyMap.withMarks]), it gets room near its share of the
// rows, and with every first name marked the line runs through the
// names, not through the strings of letters between them. Forty
// datasets keyed by the same users, each map knowing 8 keys drawn at
// random from the keys not of the third first name, and every prefix's
// first segments marked as firstSegments reads them: without marks the
// third name's stretch of the line is under a thousandth of its share of
// the rows (about 3%); marked, at least a third of it (measured over
// seeds 0–3: 0.50–0.70); and the first names' stretches together take
// at least 0.9 of the line (0.994–0.995; 0.917–0.918 with the marks taken
// for reads cut short, whose nodes keep room for bytes no mark takes).
// The seeds are fixed: the test is deterministic.
func TestMarkedFirstNameIsNoSliver(t *testing.T) {
	for seed := range uint64(4) {
		byPrefix := namesDealt(seed, 40)
		const prefix = "p00#"
		var suffixes []string // every prefix's keys after it: the kin's
		for p, keys := range byPrefix {
			for _, key := range keys {
				suffixes = append(suffixes, key[len(p):])
			}
		}
		slices.Sort(suffixes)
		var firsts []string
		for _, s := range suffixes {
			if first := s[:strings.IndexByte(s, '_')]; !slices.Contains(firsts, first) {
				firsts = append(firsts, first)
			}
		}
		missed := firsts[2]
		learn := func(mark, cut bool) *keyMap {
			maps := newKeyMaps(topPrefixer("#"))
			for p, keys := range byPrefix {
				r := rand.New(rand.NewPCG(seed, uint64(len(keys))))
				for known := 0; known < 8; {
					key := keys[r.IntN(len(keys))]
					if strings.HasPrefix(key[len(p):], missed+"_") {
						continue
					}
					maps.learn(key)
					known++
				}
			}
			if mark {
				// What firstSegments reads: the first key of each first
				// name, in every prefix.
				for p, keys := range byPrefix {
					seen := map[string]bool{}
					for _, key := range slices.Sorted(slices.Values(keys)) {
						if first := key[len(p) : len(p)+strings.IndexByte(key[len(p):], '_')]; !seen[first] {
							seen[first] = true
							maps.mark(key)
						}
					}
					maps.mapOf(p).marksCut = cut
				}
			}
			maps.judge()
			m := maps.maps[prefix]
			if m.kin == nil {
				t.Fatalf("seed %d: %s, of names its 39 kin hold too, does not take their line", seed, prefix)
			}
			return m
		}
		line, share := stretchOf(learn(false, false), prefix, missed, suffixes)
		if line > share/1000 {
			t.Errorf("seed %d: unmarked, %s_ takes %.2g of the line for %.3f of the rows; want a sliver (the case the marks are for)", seed, missed, line, share)
		}
		marked := learn(true, false)
		line, share = stretchOf(marked, prefix, missed, suffixes)
		t.Logf("seed %d: marked, %s_ takes %.4f of the line for %.4f of the rows (%.2f of its share)", seed, missed, line, share, line/share)
		if line < share/3 {
			t.Errorf("seed %d: marked, %s_ takes %.4f of the line for %.4f of the rows; want at least a third of its share", seed, missed, line, share)
		}
		for _, cut := range []bool{false, true} {
			m := marked
			if cut {
				m = learn(true, true)
			}
			var names float64
			for _, first := range firsts {
				l, _ := stretchOf(m, prefix, first, suffixes)
				names += l
			}
			t.Logf("seed %d: marks cut %v: the first names take %.3f of the line", seed, cut, names)
			if !cut && names < 0.9 {
				t.Errorf("seed %d: with every first name marked, the names take %.3f of the line; want at least 0.9", seed, names)
			}
		}
	}
}
