//go:build slow

package diagnose

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/testkit/seeds"
)

// defaultCompositions is how many fresh compositions a run of the slow
// tier draws when BTVIZ_COMPOSITIONS does not say: CI draws this many on
// every run, under a minute on two idle cores (about 40 s on two busy ones).
const defaultCompositions = 100

// TestCompositions composes tables of 2 to 5 dataset designs at random
// relative sizes, with and without prefixes (demo.Compose), builds each
// as a full scan would (keys in order, delimiters detected, the builder's
// row sample), diagnoses it and requires every planted problem found at
// its dataset and no warning or error anywhere else.
//
// Seeds are fresh on every run and logged; BTVIZ_COMPOSITIONS sets how
// many are drawn (default 100), and BTVIZ_SEED the first (with
// BTVIZ_COMPOSITIONS=1, one failed composition replays alone).
func TestCompositions(t *testing.T) {
	seeds := compositionSeeds(t)
	var total compositionScore
	began := time.Now()
	for _, seed := range seeds {
		c := demo.Compose(seed)
		score := scoreComposition(t, c)
		total.add(score)
		if score.missed > 0 || score.falseAlarms > 0 || score.infoFound < score.info {
			t.Errorf("%s: %d of %d planted problems missed, %d of %d expected info findings missed, %d false alarms (replay with BTVIZ_SEED=%d BTVIZ_COMPOSITIONS=1)",
				c, score.missed, score.planted, score.info-score.infoFound, score.info, score.falseAlarms, seed)
			for _, line := range score.log {
				t.Log("  " + line)
			}
		}
	}
	t.Logf("%d compositions in %s: recall %d of %d planted problems (%.1f%%), %d expected info findings of %d, %d false alarms, %d datasets",
		len(seeds), time.Since(began).Round(time.Second), total.planted-total.missed, total.planted,
		100*float64(total.planted-total.missed)/float64(max(total.planted, 1)), total.infoFound, total.info, total.falseAlarms, total.datasets)
}

// compositionSeeds returns the seeds of this run: BTVIZ_COMPOSITIONS of
// them (default [defaultCompositions]), fresh or from BTVIZ_SEED on
// ([seeds.Fresh]).
func compositionSeeds(t *testing.T) []uint64 {
	n := defaultCompositions
	if v := os.Getenv("BTVIZ_COMPOSITIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("BTVIZ_COMPOSITIONS=%q is not a positive count", v)
		}
	}
	return seeds.Fresh(t, n)
}
