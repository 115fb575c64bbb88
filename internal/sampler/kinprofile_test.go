package sampler

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A kin whose names spread over their line as the line does not know:
// first names (the nodes) of masses drawn from a Zipf-like law, each
// spread over its stretch of the line as the line does.
type kinTruth struct {
	edges []float64 // the nodes' stretches of the line
	mass  []float64 // each node's share of a prefix's rows
}

func newKinTruth(rng *rand.Rand, nodes int) kinTruth {
	kt := kinTruth{edges: []float64{0, 1}}
	for n := 1; n < nodes; n++ {
		kt.edges = append(kt.edges, float64(n)/float64(nodes))
	}
	slices.Sort(kt.edges)
	var total float64
	for range nodes {
		m := math.Exp(0.8 * rng.NormFloat64())
		kt.mass = append(kt.mass, m)
		total += m
	}
	for n := range kt.mass {
		kt.mass[n] /= total
	}
	return kt
}

// of returns the truth's mass over [from, to).
func (kt kinTruth) of(from, to float64) float64 {
	var mass float64
	for n := range kt.mass {
		lo, hi := max(from, kt.edges[n]), min(to, kt.edges[n+1])
		if hi > lo {
			mass += kt.mass[n] * (hi - lo) / (kt.edges[n+1] - kt.edges[n])
		}
	}
	return mass
}

// drawKinTablets lays prefixes of the kin, each of its own scale, over
// tablets end to end: tabletsEach tablets' worth each, the tablets'
// ends at random places of the line, so that a tablet where one prefix
// ends and the next begins holds a piece of each. It returns the
// tablets with their exact bytes, and the pieces' true bytes.
func drawKinTablets(rng *rand.Rand, kt kinTruth, prefixes int, tabletsEach float64) ([]kinTablet, map[kinPart]float64) {
	scales := make([]float64, prefixes)
	for q := range scales {
		scales[q] = math.Exp(rng.NormFloat64())
	}
	truth := map[kinPart]float64{}
	var tablets []kinTablet
	cur := kinTablet{}
	for q := range prefixes {
		at := 0.0
		for at < 1 {
			// The rest of the current tablet, in lengths of this prefix's line.
			step := rng.ExpFloat64() / tabletsEach
			end := min(1, at+step)
			pt := kinPart{prefix: q, from: at, to: end}
			bytes := scales[q] * kt.of(at, end)
			truth[pt] = bytes
			cur.parts = append(cur.parts, pt)
			cur.bytes += bytes
			cur.rows += 1e9
			if end < 1 {
				tablets = append(tablets, cur)
				cur = kinTablet{}
			}
			at = end
		}
	}
	return append(tablets, cur), truth
}

// kinSeeds is how many kins the fast tests of the profile draw (seeds 1
// to kinSeeds).
const kinSeeds = 30

// worstPiece returns the largest factor by which predict is off a piece
// of a boundary tablet of at least a thousandth of its tablet's bytes.
func worstPiece(tablets []kinTablet, truth map[kinPart]float64, predict func(kinPart) float64) float64 {
	var worst float64
	for _, tb := range tablets {
		if len(tb.parts) < 2 {
			continue
		}
		for _, pt := range tb.parts {
			if want := truth[pt]; want >= 1e-3*tb.bytes {
				worst = max(worst, math.Abs(math.Log(predict(pt)/want)))
			}
		}
	}
	return math.Exp(worst)
}

// TestKinProfileSplitsBoundaryTablets: fitted to the tablets of ten
// prefixes of names over 29 first names, the profile predicts the
// pieces of the boundary tablets better than the line does (each piece
// by its true scale times its stretch's length) for every kin drawn, and
// its worst piece is off by a factor of at most 1.10 in the median kin.
// Measured over seeds 1 to 30: the profile's worst piece 1.008–1.594,
// median 1.075; the line's 1.43–10.9. A fit run to the likelihood's
// maximum does better here (median 1.006) and worse on generated tables
// (see [kinFitRounds]): these kins share one profile exactly.
func TestKinProfileSplitsBoundaryTablets(t *testing.T) {
	var worsts []float64
	for seed := uint64(1); seed <= kinSeeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		kt := newKinTruth(rng, 29)
		tablets, truth := drawKinTablets(rng, kt, 10, 4)
		kp := fitKinProfile(tablets, kt.edges, 10, -1)
		profile := worstPiece(tablets, truth, func(pt kinPart) float64 {
			b, ok := kp.predict(pt.prefix, pt.from, pt.to)
			if !ok {
				t.Fatalf("seed %d: piece %+v not predicted", seed, pt)
			}
			return b
		})
		line := worstPiece(tablets, truth, func(pt kinPart) float64 {
			return truth[pt] / kt.of(pt.from, pt.to) * (pt.to - pt.from)
		})
		t.Logf("seed %d: worst piece off by a factor %.3f by the profile, %.3f by the line", seed, profile, line)
		if profile >= line {
			t.Errorf("seed %d: the profile's worst piece is off by %.3f, the line's by %.3f; want the profile closer", seed, profile, line)
		}
		worsts = append(worsts, profile)
	}
	slices.Sort(worsts)
	if median := worsts[len(worsts)/2]; median > 1.10 {
		t.Errorf("median worst piece off by a factor %.3f over %d kins, want at most 1.10", median, kinSeeds)
	}
}

// TestKinRelVarSaysHowWellTheProfileHolds: tablets whose prefixes share
// the profile are predicted closely when their group is left out of the
// fit; tablets whose bytes are each drawn apart from any profile are
// not, and the relative variance says so, for every kin drawn (seeds 1
// to 10: eleven fits each, 20 s under the race detector for 30).
// Measured over seeds 1 to 30: shared 0.001–0.25, median 0.017 (0.0165
// for the first 10); each tablet off by e^N(0, 0.5²): 0.62 and up,
// median about 20 (11.5 for the first 10).
func TestKinRelVarSaysHowWellTheProfileHolds(t *testing.T) {
	var shared, apart []float64
	for seed := uint64(1); seed <= 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		kt := newKinTruth(rng, 29)
		tablets, _ := drawKinTablets(rng, kt, 10, 4)
		good, n, _ := kinRelVar(tablets, kt.edges, 10, fitKinProfile(tablets, kt.edges, 10, -1), nil)
		if n < len(tablets)/2 {
			t.Errorf("seed %d: %d of %d tablets predicted when their group is left out, want at least half", seed, n, len(tablets))
		}
		for k := range tablets {
			tablets[k].bytes *= math.Exp(0.5 * rng.NormFloat64())
		}
		bad, _, _ := kinRelVar(tablets, kt.edges, 10, fitKinProfile(tablets, kt.edges, 10, -1), nil)
		t.Logf("seed %d: relative variance %.4f shared, %.3f apart", seed, good, bad)
		if bad <= good {
			t.Errorf("seed %d: relative variance %.4f with a shared profile, %.4f without; want more without", seed, good, bad)
		}
		shared, apart = append(shared, good), append(apart, bad)
	}
	slices.Sort(shared)
	slices.Sort(apart)
	if m := shared[len(shared)/2]; m > 0.05 {
		t.Errorf("median relative variance with a shared profile %.4f, want at most 0.05", m)
	}
	if m := apart[len(apart)/2]; m < 1 {
		t.Errorf("median relative variance without one %.4f, want at least 1 (each tablet is off by e^N(0, 0.5²), its prediction by more)", m)
	}
}

// BenchmarkKinProfile fits a profile of 29 first names to the tablets of
// 20 prefixes of names, four tablets' worth each, and measures it by
// leaving each of kinGroups groups of tablets out in turn: what a scan
// of such a table adds, twice.
func BenchmarkKinProfile(b *testing.B) {
	rng := rand.New(rand.NewPCG(20261205, 0))
	kt := newKinTruth(rng, 29)
	tablets, _ := drawKinTablets(rng, kt, 20, 4)
	var pieces []kinPart
	for _, t := range tablets {
		if len(t.parts) > 1 {
			pieces = append(pieces, t.parts[0], t.parts[len(t.parts)-1])
		}
	}
	b.ReportMetric(float64(len(tablets)), "tablets")
	for b.Loop() {
		kp := fitKinProfile(tablets, kt.edges, 20, -1)
		kinRelVar(tablets, kt.edges, 20, kp, pieces)
	}
}
