// Package seeds gives the statistical tests of the slow tier their random
// seeds: fresh ones on every run, so that CI keeps drawing new cases, and
// logged, so that a failure can be replayed with $BTVIZ_SEED.
package seeds

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// Env names the environment variable that replays a run: the seed it
// gives is the first of the run's seeds.
const Env = "BTVIZ_SEED"

// Fresh returns n consecutive seeds. They start at $BTVIZ_SEED when it is
// set, else at a random number; the start is logged either way, with how
// to replay it. A test names the seed of each case it fails on, so that
// BTVIZ_SEED=that seed replays that case first.
func Fresh(t testing.TB, n int) []uint64 {
	t.Helper()
	start, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeds %d to %d (replay with %s=%d)", start, start+uint64(n)-1, Env, start)
	out := make([]uint64, n)
	for i := range out {
		out[i] = start + uint64(i)
	}
	return out
}

// Start is the first seed of a run: $BTVIZ_SEED, or a random number below
// 10^9 (short enough to type) when it is unset.
func Start() (uint64, error) {
	if s := os.Getenv(Env); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, &envError{value: s}
		}
		return seed, nil
	}
	return rand.Uint64N(1e9), nil
}

type envError struct{ value string }

func (e *envError) Error() string {
	return Env + "=" + strconv.Quote(e.value) + " is not a seed; give a whole number, such as one a failed run logged"
}
