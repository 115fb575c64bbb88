package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/tableshape"
)

// namesDealt returns the names of the largest prefix of a generated
// shape of names (seed), each key dealt at random to one of n prefixes
// p00#, p01#, …: n datasets keyed by the same users.
func namesDealt(seed uint64, n int) map[string][]string {
	_, names := keysOfForm(tableshape.Name, seed)
	rng := rand.New(rand.NewPCG(seed, 11))
	byPrefix := map[string][]string{}
	for _, key := range names {
		prefix := fmt.Sprintf("p%02d#", rng.IntN(n))
		byPrefix[prefix] = append(byPrefix[prefix], prefix+key[strings.IndexByte(key, '#')+1:])
	}
	return byPrefix
}

// firstNamesOff returns how far, at most, the start of a first name lies
// on prefix's line (of map m) from its share of suffixes, every name
// after its prefix, sorted.
func firstNamesOff(m *keyMap, prefix string, suffixes []string) float64 {
	var worst float64
	seen := map[string]bool{}
	for _, suffix := range suffixes {
		first := suffix[:strings.IndexByte(suffix, '_')]
		if seen[first] {
			continue
		}
		seen[first] = true
		rank, _ := slices.BinarySearch(suffixes, first)
		worst = max(worst, math.Abs(m.position(prefix+first, len(prefix))-float64(rank)/float64(len(suffixes))))
	}
	return worst
}

// The kin's map leaves out the first and last rows of its prefixes (see
// [keyMaps.judgeKin]). Sixty datasets keyed by the same users, each map
// knowing 8 keys drawn at random and its prefix's first and last rows
// (as discovery reads them): counted, the ends gave the first and last
// first names more of the kin's line than their share of the names;
// left out, every first name's start lies nearer its share. Measured
// (seeds 0–3): the worst first name 0.075–0.097 off counted, 0.033–0.083
// left out. In a scan the ends weigh more (67 prefixes gave the first
// first name 0.26 of the line, where it holds 0.03: see kin.go). The
// seeds are fixed: the test is deterministic.
func TestKinLineLeavesOutPrefixEnds(t *testing.T) {
	for seed := range uint64(4) {
		byPrefix := namesDealt(seed, 60)
		learn := func(end func(maps *keyMaps, key string)) *keyMaps {
			maps := newKeyMaps(topPrefixer("#"))
			for _, keys := range byPrefix {
				r := rand.New(rand.NewPCG(seed, uint64(len(keys))))
				for range 8 {
					maps.learn(keys[r.IntN(len(keys))])
				}
				end(maps, keys[0])
				end(maps, keys[len(keys)-1])
			}
			maps.judge()
			return maps
		}
		counted := learn(func(maps *keyMaps, key string) { maps.learnRun("", key) })
		leftOut := learn((*keyMaps).learnEnd)
		const prefix = "p00#"
		for _, maps := range []*keyMaps{counted, leftOut} {
			if maps.maps[prefix].kin == nil {
				t.Fatalf("seed %d: %s, of names its 59 kin hold too, does not take their line", seed, prefix)
			}
		}
		var suffixes []string
		for p, keys := range byPrefix {
			for _, key := range keys {
				suffixes = append(suffixes, key[len(p):])
			}
		}
		slices.Sort(suffixes)
		c := firstNamesOff(counted.maps[prefix], prefix, suffixes)
		l := firstNamesOff(leftOut.maps[prefix], prefix, suffixes)
		t.Logf("seed %d: %d names; the worst first name's start lies %.3f off its share of the names with the ends counted, %.3f left out", seed, len(suffixes), c, l)
		if l >= c {
			t.Errorf("seed %d: with the prefixes' ends left out, the worst first name lies %.3f off its share, counted %.3f: want less left out", seed, l, c)
		}
		if l > 0.09 {
			t.Errorf("seed %d: with the prefixes' ends left out, the worst first name lies %.3f off its share: want at most 0.09", seed, l)
		}
	}
}
