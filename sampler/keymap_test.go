package sampler

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/tableshape"
)

// keysOfForm returns the sorted keys of one prefix of a shape of the
// form's family: the largest one.
func keysOfForm(form tableshape.Form, seed uint64) (string, []string) {
	shape := tableshape.Draw(seed, tableshape.Family(form), 60_000)
	best := shape.Prefixes[0]
	for _, p := range shape.Prefixes {
		if p.Rows > best.Rows {
			best = p
		}
	}
	var keys []string
	for row := range shape.Rows() {
		if strings.HasPrefix(row.Key, best.Key()) {
			keys = append(keys, row.Key)
		}
	}
	return best.Key(), keys
}

// The key map of a prefix, learned from a few hundred of its keys, puts
// its keys on the line about where they rank: for every id form the
// generator draws, a key's share of the line between the prefix's first
// and last key is within a few points of its rank among the keys.
var knownKeys = 100

func TestKeyMapFollowsTheKeysOfEveryForm(t *testing.T) {
	for _, form := range tableshape.Forms() {
		for seed := range uint64(3) {
			prefix, keys := keysOfForm(form, seed)
			m := newKeyMap(prefix)
			rng := rand.New(rand.NewPCG(seed, 1))
			for range knownKeys {
				m.learn(keys[rng.IntN(len(keys))])
			}
			m.judge()
			line := m.segmentOf(keys[0], keys[len(keys)-1]+"\x00")
			worst, at := 0.0, ""
			for i, key := range keys {
				if d := math.Abs(line.share(key) - float64(i)/float64(len(keys))); d > worst {
					worst, at = d, key
				}
			}
			// Spans of 64 rows' width: how many find no key.
			width, empty, spans := 64/float64(len(keys)), 0, 400
			for j := range spans {
				u := (float64(j) + 0.5) / float64(spans) * (1 - width)
				lo, _ := slices.BinarySearch(keys, line.at(u))
				hi, _ := slices.BinarySearch(keys, line.at(u+width))
				if hi <= lo {
					empty++
				}
			}
			t.Logf("%-10s seed %d: %6d keys of %s, worst rank error %.3f at %s; %d of %d spans empty", form, seed, len(keys), prefix, worst, at, empty, spans)
			if worst > 0.1 {
				t.Errorf("%s seed %d: key %s lies %.3f of the line from its rank", form, seed, at, worst)
			}
		}
	}
}
