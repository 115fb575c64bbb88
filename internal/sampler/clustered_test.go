package sampler

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// spansOf returns the counts of spans all read, as [spanCounts] records
// them.
func spansOf(counts []float64) spanCounts {
	c := newSpanCounts(len(counts))
	copy(c.counts, counts)
	for j := range c.reached {
		c.reached[j] = true
	}
	return c
}

// The spans of a piece whose rows sit at a few points of its line are
// judged clustered, those of rows spread as the line says, or spread
// unevenly along it as timestamps are, are not (see
// [spanCounts.clustered]).
func TestClusteredSpans(t *testing.T) {
	// The trace of [spanCounts.clustered]: 144 spans, 7 of which read
	// 1,936 rows.
	traced := make([]float64, 144)
	for j, at := range []int{3, 30, 31, 70, 88, 120, 140} {
		traced[at] = []float64{300, 276, 250, 290, 280, 270, 270}[j]
	}
	if !spansOf(traced).clustered() {
		t.Errorf("7 of 144 spans read 1,936 rows: not judged clustered")
	}
	// One of four spans read 40 rows: a Poisson count of 10 leaves the
	// other three empty once in 10¹², but density that varies along the
	// line does it far more often; too few spans to tell.
	if spansOf([]float64{0, 40, 0, 0}).clustered() {
		t.Errorf("one of four spans read 40 rows: judged clustered on four spans")
	}
	// A span that was not read (its keys round to one) is no empty span.
	unread := spansOf(traced)
	for j := range unread.reached {
		unread.reached[j] = traced[j] > 0 || j == 0
	}
	if unread.clustered() {
		t.Errorf("7 spans read rows, one more read none, the others not read at all: judged clustered")
	}
	for _, counts := range [][]float64{nil, {0, 0, 0, 0, 0}, {3, 4, 2, 5, 1}} {
		if spansOf(counts).clustered() {
			t.Errorf("%v: judged clustered", counts)
		}
	}

	// Counts of spans on a line that holds its keys as it says, Poisson,
	// and of a density that varies along it with c² up to half the
	// allowance (generated timestamps measure 0.18: see [dispersion]):
	// none is judged clustered. Fixed seeds: the test cannot fail by
	// chance, and the rate is logged.
	const seed = 20261201
	rng := rand.New(rand.NewPCG(seed, 0))
	flagged, draws := 0, 0
	for _, n := range []int{4, 8, 16, 64, 144, 400} {
		for _, mean := range []float64{0.3, 1, 3, 10, 30} {
			for _, c2 := range []float64{0, 0.18, 0.5} {
				for range 200 {
					counts := make([]float64, n)
					for j := range counts {
						density := 1.0
						if c2 > 0 {
							density = gammaDraw(rng, 1/c2) * c2
						}
						counts[j] = float64(poissonDraw(rng, mean*density))
					}
					draws++
					if spansOf(counts).clustered() {
						flagged++
					}
				}
			}
		}
	}
	t.Logf("seed %d: %d of %d draws of spans on a line that knows its keys judged clustered", seed, flagged, draws)
	if flagged > 0 {
		t.Errorf("seed %d: %d of %d draws of spans on a line that knows its keys judged clustered, want none", seed, flagged, draws)
	}

	// Rows at a few points: 20 clusters of 200 rows each on a line of n
	// spans, each cluster in one span.
	missed := 0
	for range 200 {
		counts := make([]float64, 144)
		for range 20 {
			counts[rng.IntN(len(counts))] += 200
		}
		if !spansOf(counts).clustered() {
			missed++
		}
	}
	if missed > 0 {
		t.Errorf("seed %d: 20 clusters of 200 rows in 144 spans not judged clustered in %d of 200 draws", seed, missed)
	}
}

// The binomial tail against its sum written out.
func TestBinomialTail(t *testing.T) {
	for _, c := range []struct {
		n, k int
		p    float64
		want float64
	}{
		{4, 0, 0.3, 1},
		{4, 4, 0.5, 1.0 / 16},
		{4, 3, 0.5, 5.0 / 16},
		{3, 2, 0.1, 3*0.01*0.9 + 0.001},
		{10, 1, 0, 0},
		{10, 10, 1, 1},
	} {
		if got := binomialTail(c.n, c.k, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("binomialTail(%d, %d, %g) = %g, want %g", c.n, c.k, c.p, got, c.want)
		}
	}
}

// poissonDraw returns a Poisson count of the given mean (Knuth's, by
// parts for large means).
func poissonDraw(rng *rand.Rand, mean float64) int {
	count := 0
	for mean > 30 {
		count += poissonDraw(rng, 30)
		mean -= 30
	}
	limit, product := math.Exp(-mean), rng.Float64()
	for product > limit {
		count++
		product *= rng.Float64()
	}
	return count
}

// gammaDraw returns a draw of a gamma distribution of the given shape
// and scale 1 (Marsaglia and Tsang's).
func gammaDraw(rng *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return gammaDraw(rng, shape+1) * math.Pow(rng.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := rng.Float64(); math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// clusteredTable loads a table of 20,000 hex ids of "a#" and clusters of
// clusterRows rows of "c#", every cluster's rows one hex id and a count
// after it, behind Cloud-like tablets of the given sizes, and returns a
// connection to it and its rows.
func clusteredTable(t *testing.T, clusters, clusterRows int, sizes []float64) (*connect.Conn, float64) {
	const ids = 20_000
	table := &prefixTable{}
	table.add("a#", ids, func(k int) string { return fmt.Sprintf("%08x", uint32(k)*2654435761) })
	table.add("c#", clusters*clusterRows, func(k int) string {
		return fmt.Sprintf("%08x-%04d", uint32(k/clusterRows+1)*2654435761, k%clusterRows)
	})
	srv := emutest.Start(t, cloudlike.ServerOptions(cloudlike.Layout{Sizes: sizes}, nil)...)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "t", "m")
	load(t, conn, "t", table.rows)
	return conn, float64(ids + clusters*clusterRows)
}

// scanClustered scans the table of [clusteredTable] and returns the
// snapshot and the rows of "c#" in it.
func scanClustered(t *testing.T, conn *connect.Conn, opts Options) (*keyspace.Snapshot, float64) {
	t.Helper()
	snap, err := Scan(context.Background(), conn, "t", opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range snap.Root.Children {
		if n.Contains("c#") {
			return snap, n.Rows
		}
	}
	return snap, 0
}

// TestClusteredPieceIsJudgedOnItsReads reads a table whose second
// tablet holds the last 5,000 of 20,000 hex ids of "a#" and all of "c#":
// 40 clusters of 250 rows each, every cluster's rows one hex id and a
// count after it, so that they sit at 40 points of the line. Over five
// seeds at 10%, most of the spans of "c#" read nothing and the few that
// meet a cluster read hundreds of rows: the piece is judged clustered on
// its spans as read (see [spanCounts.clustered]), and "c#" comes out
// within 2 points of its share of the table (a third; 0.01–0.10 points
// measured). "a#", whose density its tablet inside it gives, leaves it
// the rest either way: [TestUnplacedPieceTakesTheRest] holds the split to
// a case where being judged clustered matters.
func TestClusteredPieceIsJudgedOnItsReads(t *testing.T) {
	const clusters, clusterRows = 40, 250
	conn, total := clusteredTable(t, clusters, clusterRows, []float64{1, 1})
	for seed := range uint64(5) {
		judged := false
		opts := Options{Fraction: 0.1, Seed: seed + 1}
		opts.debugPieces = func(_ int, pieces tabletPieces, _ []pieceBudget, found []pieceRead, _ []pieceEstimate, bytes []float64) {
			for h, pc := range pieces {
				if pc.prefix == "c#" {
					judged = judged || found[h].clustered
					t.Logf("seed %d: c# %.0f bytes, spans' estimate %.0f, clustered %v", seed+1, bytes[h], found[h].bytes/max(found[h].coverage, 1e-12), found[h].clustered)
				}
			}
		}
		snap, rows := scanClustered(t, conn, opts)
		share, truth := rows/snap.Root.Rows, float64(clusters*clusterRows)/total
		t.Logf("seed %d: c# %.0f rows of %.0f, %.2f pp off", seed+1, rows, snap.Root.Rows, 100*math.Abs(share-truth))
		if !judged {
			t.Errorf("seed %d: the piece of c# was not judged clustered", seed+1)
		}
		if e := 100 * math.Abs(share-truth); e > 2 {
			t.Errorf("seed %d: c# holds %.1f%% of the rows by the sample, truly %.1f%%", seed+1, 100*share, 100*truth)
		}
	}
}

// A clustered piece among pieces whose lines know their rows takes what
// they leave (see [pieceEstimate.unplace]): the pieces of the trace of
// [spanCounts.clustered], their spans' (and model's) estimates and
// standard deviations as read. Taken at its spans' word, x# sat far
// below what its variance allows, and the split scaled every piece up
// by half; unplaced, it takes the rest, and the others keep theirs.
func TestUnplacedPieceTakesTheRest(t *testing.T) {
	pieces := []struct {
		prefix    string
		bytes, sd float64
		truth     float64
		clustered bool
	}{
		{"s3g3tjly44kc94y335xgztx8w4wys#", 449_434, 14_665, 442_789, false},
		{"wyqhwu9#", 2_510_704, 38_635, 2_497_889, false},
		{"wyqhwu9i#", 37_239, 6_318, 45_206, false},
		{"x#", 521_594, 190_682, 2_398_935, true},
		{"x0c#", 27_648, 7_634, 29_234, false},
		{"y#", 148_113, 3_850, 147_020, false},
	}
	var total float64
	for _, pc := range pieces {
		total += pc.truth
	}
	// As read, and with x#'s spans' estimate far smaller (a line that put
	// its spans where it holds next to nothing): unplaced, it still takes
	// the rest, rather than every piece being scaled up alike.
	for _, c := range []struct {
		unplaced bool
		x        float64
	}{{false, 521_594}, {true, 521_594}, {false, 20_000}, {true, 20_000}} {
		unplaced := c.unplaced
		est := make([]pieceEstimate, len(pieces))
		for h, pc := range pieces {
			est[h] = pieceEstimate{bytes: pc.bytes, variance: pc.sd * pc.sd}
			if pc.clustered {
				est[h].bytes = c.x
				if unplaced {
					est[h] = est[h].unplace(total)
				}
			}
		}
		bytes, _, _ := splitPieces(total, est, make([]pieceRead, len(pieces)))
		for h, pc := range pieces {
			off := bytes[h]/pc.truth - 1
			t.Logf("x# by its spans %.0f, unplaced %v: %s %.0f, truly %.0f (%+.1f%%)", c.x, unplaced, pc.prefix, bytes[h], pc.truth, 100*off)
			if unplaced && math.Abs(off) > 0.2 {
				t.Errorf("x# by its spans %.0f, unplaced: %s came out %.0f, truly %.0f: %+.0f%%", c.x, pc.prefix, bytes[h], pc.truth, 100*off)
			}
			if !unplaced && pc.prefix == "wyqhwu9#" && off < 0.2 {
				t.Errorf("taken at its spans' word, x# left %s %+.0f%% off, not scaled up: the test no longer builds the case", pc.prefix, 100*off)
			}
		}
	}
}

// A clustered piece is unplaced where the tablet's reads fall short of
// its bytes, and where they overshoot only if its spans' standard
// deviation is half their estimate or more (see [unplaceClustered]):
// three tablets of issue 26's generated shapes, each piece's estimate,
// standard deviation and its spans' own as the slow test's trace gives
// them (BTVIZ_DEBUG=1, draw 0; the trace estimates without the plan's
// mean row size, so its deviations may differ a little from those the
// scan weighed). In seed 64110839's at 10%, a piece of names 26% over
// by its spans overshoots, and the clustered piece beside it, within
// 6%, keeps its bytes; in seed 64110927's at 10%, the clustered piece,
// 30% under, takes the rest, not the piece of 128 rows beside it (whose
// standard deviation is the floor of a piece of names, its spans' own
// 300 times smaller); in seed 64110919's at 1%, the clustered piece
// that one span put at three times its bytes gives up the excess. And
// it is its spans' own deviation that judges: 64110839's clustered
// piece, given the floor of a piece of names as large as its estimate,
// is still not unplaced.
func TestClusteredPieceTakesOnlyWhatTheOthersLeave(t *testing.T) {
	type piece struct {
		prefix                    string
		bytes, sd, spansSD, truth float64
		clustered                 bool
	}
	// read returns the pieces as their reads found them, their true
	// total and the bytes their spans see.
	read := func(pieces []piece) (est []pieceEstimate, found []pieceRead, total, seen float64) {
		est, found = make([]pieceEstimate, len(pieces)), make([]pieceRead, len(pieces))
		for h, pc := range pieces {
			est[h] = pieceEstimate{bytes: pc.bytes, variance: pc.sd * pc.sd, spans: pc.spansSD * pc.spansSD}
			found[h].clustered = pc.clustered
			total += pc.truth
			seen += pc.bytes
		}
		return est, found, total, seen
	}
	kjfomz := []piece{
		{"j9b5768ou#", 1_342_452, 30_657, 30_657, 1_304_412, false},
		{"kjfomzntrqelio12fn6sweybce0#", 1_068_071, 73_078, 73_078, 1_003_883, true},
		{"l95vu63ilm#", 2_522_290, 491_527, 491_527, 1_995_306, false},
	}
	for _, c := range []struct {
		seed     int
		fraction float64
		pieces   []piece
	}{
		{64110839, 0.1, kjfomz},
		{64110927, 0.1, []piece{
			{"i3m6o#", 1_578_732, 29_800, 29_800, 1_584_899, false},
			{"i3m6olv#", 5_586, 1_230_496, 4_119, 49_911, false},
			{"ioisnclzbcgt84bb8e6fydwst1#", 2_769_903, 385_521, 385_521, 3_931_579, true},
		}},
		{64110919, 0.01, []piece{
			{"cmxb8y7o0#", 499_482, 48_592, 48_592, 607_467, false},
			{"cp40qzvab28o#", 8_241_141, 8_152_307, 8_152_307, 1_453_051, false},
			{"d#", 1_096_952, 975_103, 975_103, 390_267, false},
			{"dln#", 2_074_166, 2_064_800, 2_064_800, 631_727, true},
			{"dtsorp5t5m#", 608_012, 54_355, 54_355, 539_550, false},
			{"dvxbewz0gi5n0y3llxjiiopwz4ps#", 289_413, 62_486, 62_486, 248_936, false},
			{"e7o2rlm4dk16qlgq#", 254_457, 61_344, 61_344, 282_928, false},
			{"e7uuav3o1dvghmvd4ajk59twa55971#", 65_140, 15_105, 15_105, 79_480, false},
			{"ej#", 3_789_673, 3_772_559, 3_772_559, 1_622_008, false},
			{"f#", 287_083, 84_468, 84_468, 353_247, false},
		}},
	} {
		est, found, total, seen := read(c.pieces)
		// The bytes the reads did not hold: all but the fraction read.
		unplaceClustered(est, found, false, total, seen, (1-c.fraction)*total)
		bytes, _, _ := splitPieces(total, est, found)
		for h, pc := range c.pieces {
			off := bytes[h]/pc.truth - 1
			t.Logf("seed %d: %s %.0f, truly %.0f (%+.1f%%), unplaced %v", c.seed, pc.prefix, bytes[h], pc.truth, 100*off, est[h].unplaced)
			if pc.clustered && math.Abs(off) > 0.1 {
				t.Errorf("seed %d: the clustered piece %s came out %.0f, truly %.0f: %+.0f%%", c.seed, pc.prefix, bytes[h], pc.truth, 100*off)
			}
		}
	}
	floored, found, total, seen := read(kjfomz)
	floored[1].variance = kjfomz[1].bytes * kjfomz[1].bytes
	unplaceClustered(floored, found, false, total, seen, 0.9*total)
	if floored[1].unplaced {
		t.Errorf("seed 64110839: the clustered piece was unplaced by the floor of its variance, its spans' own standard deviation 7%% of its estimate")
	}
	// Among pieces of names alone, none is unplaced.
	est := []pieceEstimate{{bytes: 10, variance: 1}}
	unplaceClustered(est, []pieceRead{{clustered: true}}, true, 100, 10, 90)
	if est[0].unplaced {
		t.Errorf("a clustered piece among pieces of names alone was unplaced")
	}
}

// TestSweptPieceTakesItsTabletAtItsWord reads a table of 20,000 hex ids
// of "a#" and 10 clusters of 1,000 rows of "c#" (as in
// [TestClusteredPieceIsJudgedOnItsReads]), its second tablet the last
// 500 ids and all of "c#". At 1% the spans of "c#" read no row, and the
// piece is swept; its parts cut short hold what the tablet's reads did
// not return (see [sweptCutShort]), and the tablet, 35% of the table,
// is not read again in full: over ten seeds every scan that swept
// "c#" reads under 5% of the table (1.8% measured; 35.3% when it was read
// again), and "c#" comes out within 2 points of its share (0.03–0.50
// measured).
func TestSweptPieceTakesItsTabletAtItsWord(t *testing.T) {
	const clusters, clusterRows = 10, 1_000
	conn, total := clusteredTable(t, clusters, clusterRows, []float64{39, 21})
	swept := 0
	for seed := range uint64(10) {
		var sweptNow bool
		opts := Options{Fraction: 0.01, Seed: seed + 1}
		opts.debugPieces = func(_ int, pieces tabletPieces, _ []pieceBudget, found []pieceRead, _ []pieceEstimate, _ []float64) {
			for h, pc := range pieces {
				if pc.prefix == "c#" && found[h].swept && found[h].cutBytes > 0 {
					sweptNow = true
				}
			}
		}
		snap, rows := scanClustered(t, conn, opts)
		share, truth := rows/snap.Root.Rows, float64(clusters*clusterRows)/total
		read := float64(snap.Scan.RowsRead) / total
		t.Logf("seed %d: c# swept %v, %.2f pp off; %.1f%% of the table read", seed+1, sweptNow, 100*math.Abs(share-truth), 100*read)
		if !sweptNow {
			continue
		}
		swept++
		if read > 0.05 {
			t.Errorf("seed %d: c# was swept, and the scan read %.1f%% of the table: its tablet was read again in full", seed+1, 100*read)
		}
		if e := 100 * math.Abs(share-truth); e > 2 {
			t.Errorf("seed %d: c# holds %.1f%% of the rows by the sample, truly %.1f%%", seed+1, 100*share, 100*truth)
		}
	}
	if swept == 0 {
		t.Fatalf("no scan of ten swept c#: the test no longer builds the case")
	}
}

// The bytes a tablet's reads see count each piece once: a piece read
// whole by its head (its estimate is that head), a piece swept by what
// its sweep returned, and any other by its head and its spans'
// estimate, whose variance alone is the spans' own.
func TestReadsSeeCountEachPieceOnce(t *testing.T) {
	found := []pieceRead{
		{head: 1000, exact: true, exactBytes: 1000},
		{head: 100},
		{head: 50, complete: 400, cutBytes: 30, swept: true},
	}
	est := []pieceEstimate{
		{bytes: 1000},
		{bytes: 500, variance: 900, spans: 25},
		{bytes: 70, variance: 4900},
	}
	seen, variance := readsSee(found, est)
	if want := 1000.0 + 100 + 500 + 50 + 400 + 30; seen != want {
		t.Errorf("the reads see %.0f bytes, want %.0f (a piece read whole counted once)", seen, want)
	}
	if variance != 25 {
		t.Errorf("the reads' variance is %.0f, want 25 (the spans' own, not the floor)", variance)
	}
}
