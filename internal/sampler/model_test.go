package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// Spans one in every n-th of a line, each from a random place of its
// n-th, cover every point of it with the same chance, n·width, edges
// included: a span that runs past its n-th's end wraps to its start, so
// a point near a stratum's edge is covered as often as one in its middle
// (spans kept inside their strata covered the edges less, so a cluster of
// keys there was read less often than its weight said).
func TestStratifiedSpansCoverEveryPointAlike(t *testing.T) {
	const n, width, draws = 7, 0.03, 20_000
	rng := rand.New(rand.NewPCG(1, 2))
	points := []float64{0, 0.001, 1.0 / n, 1.0/n - 0.001, 0.5, 0.999}
	covered := make([]int, len(points))
	for range draws {
		parts := stratified(n, width, rng)
		units := map[int]bool{}
		prev := -1.0
		for _, pt := range parts {
			if pt.from < prev || pt.to <= pt.from || pt.to > 1 {
				t.Fatalf("parts out of order or empty: %+v", parts)
			}
			prev = pt.to
			units[pt.unit] = true
		}
		if len(units) != n {
			t.Fatalf("%d spans, want %d: %+v", len(units), n, parts)
		}
		for k, u := range points {
			for _, pt := range parts {
				if u >= pt.from && u < pt.to {
					covered[k]++
					break
				}
			}
		}
	}
	want := n * width
	for k, u := range points {
		// A binomial share of 20,000 draws at 0.21: sd 0.003; 5 sd.
		if got := float64(covered[k]) / draws; math.Abs(got-want) > 0.015 {
			t.Errorf("point %.4f covered %.3f of the time, want %.3f", u, got, want)
		}
	}
}

// Spans over a line whose density cycles once every n-th of it (the
// day-and-night cycle of epoch-millisecond keys under n spans a day)
// read its mean density: each span's place is its own, so the spans
// fall at every phase of the cycle. Spans one every n-th from one random
// place fell at one phase, and their estimate of the line's rows was off
// by up to 60%.
func TestStratifiedSpansReadACycleAtEveryPhase(t *testing.T) {
	const n, width, draws = 198, 0.105 / 198, 2_000
	// rows returns the rows of [from, to) of a line of density
	// 1 + 0.6·sin(2πnx), of which the line holds 1.
	rows := func(from, to float64) float64 {
		cycle := func(x float64) float64 { return x - 0.6*math.Cos(2*math.Pi*n*x)/(2*math.Pi*n) }
		return cycle(to) - cycle(from)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var errs []float64
	for range draws {
		var read float64
		for _, pt := range stratified(n, width, rng) {
			read += rows(pt.from, pt.to)
		}
		errs = append(errs, math.Abs(read/(n*width)-1))
	}
	slices.Sort(errs)
	// Independent places: the estimate's relative sd is about
	// 0.6/√2/√198 = 0.030, and its 99th percentile of error 2.6 sd.
	if p99 := errs[len(errs)*99/100]; p99 > 0.1 {
		t.Errorf("99th percentile of the relative error of the rows read is %.3f, want under 0.1 (one phase for all spans gives up to 0.6)", p99)
	}
}

// A piece's spans say how uncertain their estimate is. On a line whose
// density cycles (epoch-millisecond keys: four times as many rows at the
// day's peak as at its trough, 200 days), a piece of 9,000 rows read at
// 0.36% of its line (what a boundary tablet's piece of a generated shape
// of timestamps read at 0.1%, seed 64110837: 32 rows, so minPieceSpans
// spans) and at 1.2% (7 spans of about 16 rows), its spans as
// pieceBudget.fit cuts them, each reading a Poisson count of its width's
// rows: the estimate's 95% interval must hold the truth in at least 86%
// of 4,000 draws (seeds fixed, so the rates are the same every run).
// With two spans a piece, their spread has one degree of freedom, and
// at 0.36% the interval held 83.0% of the time; with four, 88.8%; with
// eight, 92.7% (at 1.2%, 90.6%).
func TestFewSpansSayHowUncertainTheyAre(t *testing.T) {
	const rows, size, days, draws = 9000.0, 200.0, 200.0, 4000
	for _, coverage := range []float64{0.0036, 0.012} {
		b := pieceBudget{rows: rows, coverage: coverage}
		b.fit()
		rng := rand.New(rand.NewPCG(5, 6))
		held := 0
		for range draws {
			pr := cycleRead(rng, b, rows, days, size)
			e := pr.estimate(size, rows)
			if math.Abs(e.bytes-rows*size) <= keyspace.Z95*math.Sqrt(e.variance) {
				held++
			}
		}
		rate := float64(held) / draws
		t.Logf("coverage %.2f%%: %d spans; the 95%% interval held the truth in %.1f%% of %d draws", 100*coverage, b.spans, 100*rate, draws)
		if rate < 0.86 {
			t.Errorf("coverage %.2f%%, %d spans: the 95%% interval held the truth in %.1f%% of the draws, want at least 86%%", 100*coverage, b.spans, 100*rate)
		}
	}
}

// cycleRead reads a piece of rows rows, each of size bytes, on a line of
// days days whose density cycles with the day (epoch-millisecond keys:
// four times as many rows at the day's peak as at its trough; none when
// days is 0, an even line), with the spans b plans, each reading a
// Poisson count of the rows of its width.
func cycleRead(rng *rand.Rand, b pieceBudget, rows, days, size float64) pieceRead {
	// day returns the rows of the line before x, of which it holds 1.
	day := func(x float64) float64 { return x }
	if days > 0 {
		day = func(x float64) float64 { return x - 0.6*math.Cos(2*math.Pi*days*x)/(2*math.Pi*days) }
	}
	pr := pieceRead{coverage: b.coverage, values: make([]float64, b.spans)}
	for _, pt := range stratified(b.spans, b.coverage/float64(b.spans), rng) {
		mean := rows * (day(pt.to) - day(pt.from))
		n := float64(poissonDraw(rng, mean))
		pr.values[pt.unit] += n * size
		pr.bytes += n * size
		pr.rows += n
		for range int(n) {
			pr.units.add(1, 0, size)
		}
	}
	return pr
}

// The spans of a prefix's tablets measure how unevenly its keys lie
// (see [dispersion]), and its pieces' spans are cut shorter where they
// lie unevenly. Three tablets of 100,000 rows over 200 days, read at 1%
// in spans of 64 rows, measure the day's cycle (c² about 0.18); an even
// line measures none (measured: 0.199 and 0.007). Then a piece of 30,000
// rows over 140 days, read at 1% in 2,000 draws (seeds fixed): in the
// spans of 5 rows that measure gives, its estimate is off by at most 0.8
// times as much at the root mean square as in spans of pieceSpanRows
// (measured: 8.0% against 11.1%, where a Poisson count of its 300 rows
// is 5.8%), and its 95% interval still holds the truth in at least 90%
// of the draws (94.2% and 93.0%). On an even line the spans stay at
// pieceSpanRows.
func TestSpansFollowTheirPrefixsCycle(t *testing.T) {
	const size = 100.0
	measure := func(days float64) float64 {
		rng := rand.New(rand.NewPCG(7, 8))
		var d dispersion
		for range 3 {
			tablet := pieceBudget{rows: 100_000, coverage: 0.01, spans: 16}
			pr := cycleRead(rng, tablet, tablet.rows, days, size)
			counts := make([]float64, len(pr.values))
			for j, v := range pr.values {
				counts[j] = v / size
			}
			d.add(counts, 0)
		}
		c2, ok := d.c2()
		if !ok {
			t.Fatalf("%d degrees of freedom: too few to measure", int(d.df))
		}
		return c2
	}
	even, cycle := measure(0), measure(200)
	t.Logf("c² measured: %.3f on an even line, %.3f over 200 days' cycles", even, cycle)
	if got := spanRowsFor(even); got != pieceSpanRows {
		t.Errorf("an even line (c² %.3f) gives spans of %.0f rows, want %d", even, got, pieceSpanRows)
	}
	rows := spanRowsFor(cycle)
	if rows < minPieceSpanRows || rows > 8 {
		t.Fatalf("a day's cycle (c² %.3f) gives spans of %.0f rows, want %d to 8", cycle, rows, minPieceSpanRows)
	}
	const pieceRows, days, draws = 30_000.0, 140.0, 2000
	rms := map[float64]float64{}
	for _, per := range []float64{pieceSpanRows, rows} {
		b := pieceBudget{rows: pieceRows, coverage: 0.01, spanRows: per}
		b.fit()
		rng := rand.New(rand.NewPCG(9, 10))
		var squares float64
		held := 0
		for range draws {
			pr := cycleRead(rng, b, pieceRows, days, size)
			e := pr.estimate(size, pieceRows)
			off := e.bytes/(pieceRows*size) - 1
			squares += off * off
			if math.Abs(e.bytes-pieceRows*size) <= keyspace.Z95*math.Sqrt(e.variance) {
				held++
			}
		}
		rms[per] = math.Sqrt(squares / draws)
		rate := float64(held) / draws
		t.Logf("spans of %.0f rows (%d of them): off by %.1f%% at the root mean square; the 95%% interval held in %.1f%% of %d draws", per, b.spans, 100*rms[per], 100*rate, draws)
		if rate < 0.90 {
			t.Errorf("spans of %.0f rows: the 95%% interval held the truth in %.1f%% of the draws, want at least 90%%", per, 100*rate)
		}
	}
	if rms[rows] > 0.8*rms[pieceSpanRows] {
		t.Errorf("spans of %.0f rows are off by %.1f%%, of %d rows by %.1f%%: want at most 0.8 times", rows, 100*rms[rows], pieceSpanRows, 100*rms[pieceSpanRows])
	}
}

// A tablet's bytes are shared among its pieces: one read whole keeps its
// bytes, the others' estimates move towards the rest by their shares of
// the estimates' variance, and a swept piece's parts cut short take what
// the others leave.
func TestSplitPieces(t *testing.T) {
	exact := pieceRead{exact: true, exactBytes: 1000}
	spans := pieceRead{}
	est := []pieceEstimate{{bytes: 1000}, {bytes: 30_000, variance: 4e8}, {bytes: 10_000, variance: 1e8}}
	bytes, variances, _ := splitPieces(81_000, est, []pieceRead{exact, spans, spans})
	// 80,000 to share, 40,000 estimated (1.8 standard deviations off):
	// the first, with four fifths of the variance, takes four fifths of
	// the difference.
	if bytes[0] != 1000 || math.Abs(bytes[1]-62_000) > 1e-6 || math.Abs(bytes[2]-18_000) > 1e-6 {
		t.Errorf("split %v, want 1,000 (whole), 62,000 and 18,000", bytes)
	}
	// The split's variance: each estimate's, less what the sum fixes.
	if math.Abs(variances[1]-4e8*0.2) > 1 || math.Abs(variances[2]-1e8*0.8) > 1 {
		t.Errorf("variances %v, want 80,000,000 and 80,000,000", variances)
	}
	// A difference far beyond the variances (18 standard deviations):
	// shared in proportion, the variances widened by how far off.
	est = []pieceEstimate{{bytes: 1000}, {bytes: 30_000, variance: 4e6}, {bytes: 10_000, variance: 1e6}}
	bytes, variances, _ = splitPieces(81_000, est, []pieceRead{exact, spans, spans})
	if math.Abs(bytes[1]-60_000) > 1e-6 || math.Abs(bytes[2]-20_000) > 1e-6 {
		t.Errorf("split %v, want 60,000 and 20,000", bytes)
	}
	if variances[1] < 1e8 || variances[2] < 1e8 {
		t.Errorf("variances %v, want them widened past the estimates' 4,000,000 and 1,000,000 by the 18 standard deviations", variances)
	}
	if variances[0] != 0 || variances[1] <= 0 || variances[2] <= 0 {
		t.Errorf("variances %v: the whole piece's is 0, the others' positive", variances)
	}
	// A swept piece whose parts were cut short: the spans' piece keeps its
	// estimate, the cut parts take the rest.
	swept := pieceRead{swept: true, complete: 2000, cutBytes: 3000}
	bytes, _, scales := splitPieces(50_000, []pieceEstimate{{bytes: 20_000, variance: 1e6}, {}}, []pieceRead{spans, swept})
	if bytes[0] != 20_000 || bytes[1] != 30_000 || scales[1] != 28_000.0/3000 {
		t.Errorf("split %v, scales %v: want 20,000 and 30,000, the cut parts scaled by %v", bytes, scales, 28_000.0/3000)
	}
	// A tiny prefix beside a large one, swept because its spans found
	// nothing, whose cut parts (1,000 bytes read) its line carries to
	// 2,000: the 6,000 bytes the estimates leave go by their variances,
	// nine tenths to the large piece, whose spans are 6,000 bytes
	// uncertain. The cut parts used to take all of them (on a generated
	// shape of base-36 ids, 10 to 25 pp of the table at 0.1% in 4 of 27
	// layouts: docs/MEASUREMENTS.md's "Accuracy on generated shapes").
	tiny := pieceRead{swept: true, complete: 2000, cutBytes: 1000, cutLine: 2000}
	bytes, _, scales = splitPieces(50_000, []pieceEstimate{{bytes: 40_000, variance: 6000 * 6000}, {bytes: 1000, variance: 2000 * 2000}}, []pieceRead{spans, tiny})
	if math.Abs(bytes[0]-45_400) > 1e-6 || math.Abs(bytes[1]-4600) > 1e-6 || math.Abs(scales[1]-2.6) > 1e-9 {
		t.Errorf("split %v, scales %v: want 45,400 and 4,600, the cut parts scaled by 2.6", bytes, scales)
	}
	// A line that carried a tiny piece's cut parts far past its tablet
	// (to 947 GB, in a tablet of 4 MB) moves back to what the tablet
	// leaves, and its variance is at most that of anything between none
	// and all of the tablet's bytes not read exactly: a quarter of their
	// square, not the move's.
	lost := pieceRead{swept: true, complete: 2000, cutBytes: 1000, cutLine: 947e9}
	bytes, variances, _ = splitPieces(4e6, []pieceEstimate{{bytes: 4e6, variance: 1e10}, {bytes: 947e9, variance: 1e24}}, []pieceRead{spans, lost})
	if room := 4e6 - 2000 - 1000; variances[1] > room*room/4 || variances[0] > room*room/4 || bytes[1] > 4e6 {
		t.Errorf("split %v, variances %v: want at most %v each, a quarter of the room's square", bytes, variances, room*room/4)
	}

	// Pieces whose spans found next to nothing beside one whose spans
	// found more than the whole tablet (tablet 0 of a generated shape of
	// names, seed 64110814, at 1%): the small ones drop to nothing past
	// their heads, and the large one takes the tablet. Neither is sure:
	// a dropped piece keeps the variance least squares would have left
	// it, and the piece left takes that of their sum (it holds what they
	// do not). Dropped with no variance, a prefix of 7,538 rows came out
	// at 16 [13, 19].
	est = []pieceEstimate{{bytes: 7342, variance: 766_732 * 766_732}, {bytes: 171_171, variance: 766_732 * 766_732},
		{bytes: 64_580, variance: 766_732 * 766_732}, {bytes: 7_785_276, variance: 2_905_665 * 2_905_665}}
	bytes, variances, _ = splitPieces(3_067_435, est, []pieceRead{spans, spans, spans, spans})
	if bytes[0] != 0 || bytes[1] != 0 || bytes[2] != 0 || math.Abs(bytes[3]-3_067_435) > 1e-6 {
		t.Errorf("split %v, want the tablet's bytes all in the last piece", bytes)
	}
	all := 3*est[0].variance + est[3].variance
	for h := range 3 {
		// Their shares of the four pieces' variance, a seventeenth each.
		q := est[h].variance / all
		if want := est[h].variance * (1 - q); math.Abs(variances[h]-want) > 1e-6*want {
			t.Errorf("piece %d dropped with variance %v, want %v", h, variances[h], want)
		}
	}
	// Least squares' variance of the three's sum: their variance less
	// what the total fixes.
	sum := 3 * est[0].variance
	if want := sum * (1 - sum/all); math.Abs(variances[3]-want) > 1e-6*want {
		t.Errorf("the piece left has variance %v, want that of the dropped pieces' sum, %v", variances[3], want)
	}
	// Two pieces left: each its own variance less what the total fixes,
	// and the dropped piece's by the square of its share.
	est = []pieceEstimate{{bytes: 1000, variance: 4e10}, {bytes: 500_000, variance: 1e10}, {bytes: 310_000, variance: 3e10}}
	bytes, variances, _ = splitPieces(400_000, est, []pieceRead{spans, spans, spans})
	if bytes[0] != 0 || math.Abs(bytes[1]+bytes[2]-400_000) > 1e-6 {
		t.Errorf("split %v, want the first dropped and the others holding the tablet", bytes)
	}
	dropped := 4e10 * (1 - 4e10/8e10)
	for h, q := range map[int]float64{1: 0.25, 2: 0.75} {
		if want := est[h].variance*(1-q) + q*q*dropped; math.Abs(variances[h]-want) > 1e-6*want {
			t.Errorf("piece %d left with variance %v, want %v", h, variances[h], want)
		}
	}

	// Estimates that exceed the tablet shrink to it; a swept piece keeps
	// what it read.
	bytes, _, _ = splitPieces(30_000, []pieceEstimate{{bytes: 40_000, variance: 1e6}, {}}, []pieceRead{spans, swept})
	if bytes[1] != 5000 || bytes[0] != 25_000 {
		t.Errorf("split %v, want 25,000 and the swept piece's 5,000", bytes)
	}
}

// The spans' estimate and the model's prediction are weighed by their
// variances; without a prediction the spans' stands, and a piece read
// whole needs neither.
func TestCombine(t *testing.T) {
	spans := pieceEstimate{bytes: 1000, variance: 100 * 100}
	if got := combine(spans, pieceEstimate{}); got != spans {
		t.Errorf("no model: %+v", got)
	}
	got := combine(spans, pieceEstimate{bytes: 1200, variance: 100 * 100})
	if math.Abs(got.bytes-1100) > 1e-6 || math.Abs(got.variance-5000) > 1e-6 {
		t.Errorf("equal variances: %+v, want 1,100 with half the variance", got)
	}
	if got := combine(pieceEstimate{bytes: 700}, pieceEstimate{bytes: 1200, variance: 1e4}); got.bytes != 700 || got.variance != 0 {
		t.Errorf("read whole: %+v", got)
	}
	// Eleven spans of a piece of epoch-millisecond keys that all fell in
	// the busy half of the day (a generated shape of issue 26, seed
	// 911230021, at 1%): 40% over the piece's 8,380,893 bytes, with a
	// standard deviation of 6%, against a model 1.4% under it with one of
	// 15%. They disagree by 2.5 of their joint deviations, so the spans'
	// variance is what the disagreement says: the model, not the spans,
	// sets the estimate (by their stated variances, 10.94 MB).
	model := pieceEstimate{bytes: 8_266_368, variance: 0.15 * 0.15 * 8_266_368 * 8_266_368}
	got = combine(pieceEstimate{bytes: 11_732_196, variance: 673_018 * 673_018}, model)
	if got.bytes < 8.6e6 || got.bytes > 8.8e6 || got.variance < 0.8*model.variance {
		t.Errorf("spans far from the model: %+v, want about 8.72 MB, about as uncertain as the model", got)
	}
}

// Every piece of a tablet is read at the tablet's coverage, whatever it
// holds, and a piece without a sure model at pieceBoost times it, in at
// least minPieceSpans spans, as many more as its expected rows fill (by
// the model when it is sure); a piece without a sure model is read from
// its head first.
func TestBudgetPieces(t *testing.T) {
	plan := planTablet(4_000_000, 100, 0.01) // 40,000 rows, 400 to read
	pieces := tabletPieces{
		{model: pieceModel{bytes: 3_000_000, relVar: 0.001}}, // 30,000 rows, surely
		{}, // unknown
	}
	budgets := budgetPieces(plan, pieces, 100, 0.01, nil)
	if budgets[0].rows != 30_000 {
		t.Fatalf("expected rows %v, want 30,000", budgets[0].rows)
	}
	for h, b := range budgets {
		want := 0.01
		if h == 1 {
			want *= pieceBoost
		}
		if math.Abs(b.coverage-want) > 0.002 {
			t.Errorf("piece %d covers %v of its line, want %v", h, b.coverage, want)
		}
		if b.spans < minPieceSpans {
			t.Errorf("piece %d: %d spans", h, b.spans)
		}
	}
	if budgets[0].headLimit != 0 || budgets[1].headLimit == 0 {
		t.Errorf("head reads %d and %d: want none for the sure model's piece, one for the other", budgets[0].headLimit, budgets[1].headLimit)
	}
	for h, b := range budgets {
		if rows := b.coverage * b.rows / float64(b.spans); rows < pieceSpanRows/2 || rows > 2*pieceSpanRows {
			t.Errorf("piece %d: %d spans of %.0f rows each, want about %d", h, b.spans, rows, pieceSpanRows)
		}
	}
	// An unsure model is not followed.
	pieces[0].model.relVar = 0.5
	if budgets = budgetPieces(plan, pieces, 100, 0.01, nil); budgets[0].rows != 20_000 || budgets[0].headLimit == 0 {
		t.Errorf("an unsure model's piece expects %v rows with a head of %d, want half the tablet's and a head read", budgets[0].rows, budgets[0].headLimit)
	}
	// A piece predicted tiny is read from its head, where it ends.
	pieces[0].model = pieceModel{bytes: 500, relVar: 0.01}
	if budgets = budgetPieces(plan, pieces, 100, 0.01, nil); budgets[0].headLimit == 0 {
		t.Errorf("a piece of 5 rows is not read from its head")
	}
}

// A piece of names whose spans found few clusters is as uncertain as a
// count of that many clusters of its even share of the tablet: one hit
// of ten spans covering a tenth of the line gives a standard deviation
// of its share times √0.9, whatever the spans' own spread says (a
// cluster that one span read whole looks like a certain estimate); a
// piece of ids keeps the spans' variance.
func TestNamesPieceIsAsUncertainAsItsClusters(t *testing.T) {
	values := make([]float64, 10)
	values[3] = 5_000
	ids := pieceRead{coverage: 0.1, values: values, rows: 50, bytes: 5_000}
	names := ids
	names.evenShare = 2_000_000 // its even share of the tablet's bytes
	e, n := ids.estimate(100, 0), names.estimate(100, 0)
	if e.bytes != 50_000 || n.bytes != 50_000 {
		t.Fatalf("estimates %g and %g bytes, want 50,000 (5,000 read over coverage 0.1)", e.bytes, n.bytes)
	}
	want := 2_000_000 * math.Sqrt(0.9)
	if sd := math.Sqrt(n.variance); math.Abs(sd-want) > 1 {
		t.Errorf("names piece: sd %.0f, want %.0f", sd, want)
	}
	if sd := math.Sqrt(e.variance); sd >= want/2 {
		t.Errorf("ids piece: sd %.0f, want the spans' own (well under %.0f)", sd, want/2)
	}
}

// A table of many small prefixes, every tablet cut into pieces that no
// model sizes, plans to read at most readCeiling times its fraction's
// rows with what finding the pieces read and the pieces' heads; one of
// few pieces keeps every tablet at 1/pieceBoost of the fraction or more.
func TestBoostPiecesStaysUnderTheReadCeiling(t *testing.T) {
	const tablets, rows, rowBytes = 30, 20_000, 40
	spans := make([]span, tablets)
	for i := range spans {
		spans[i] = span{start: fmt.Sprintf("t%03d", i), end: fmt.Sprintf("t%03d", i+1), bytes: rows * rowBytes}
	}
	spans[0].start, spans[tablets-1].end = "", ""
	for _, tc := range []struct {
		name          string
		pieces, boost int // pieces in a tablet, and in how many tablets
		ceiling       bool
	}{
		{"8 pieces in every tablet", 8, tablets, true},
		{"2 pieces in 5 tablets", 2, 5, false},
	} {
		p := newPlan(spans, mapShape{measured: true, tablets: true, rowBytes: rowBytes}, Options{Fraction: 0.01, Concurrency: 2})
		if p.method != keyspace.MethodPositions {
			t.Fatalf("method %q", p.method)
		}
		p.pieces = make([]tabletPieces, len(p.tablets))
		for i := range p.pieces {
			p.pieces[i] = make(tabletPieces, 1)
			if i < tc.boost {
				p.pieces[i] = make(tabletPieces, tc.pieces)
			}
		}
		target := 0.01 * tablets * rows
		spent := 0.15 * target // the pilot, the pieces' ends, the probes
		fraction := p.boostPieces(spent)
		planned := spent + p.readRows + p.headRows(fraction)
		t.Logf("%s: tablets read at %.3f%%, %.0f rows planned of %.0f", tc.name, 100*fraction, planned, target)
		if planned > readCeiling*target*1.01 {
			t.Errorf("%s: %.0f rows planned, past %.1f times the fraction's %.0f", tc.name, planned, readCeiling, target)
		}
		if !tc.ceiling && fraction < 0.01/pieceBoost {
			t.Errorf("%s: tablets read at %.4f, below the fraction over pieceBoost", tc.name, fraction)
		}
	}
}

// TestModelRelVarsTakeTheTablesComparisons checks the prior of a prefix
// with no neighbouring tablets to compare: what the table's other
// prefixes' comparisons say, not densityPrior; densityPrior where no
// prefix has any; names' comparisons left out of it. The values are
// worked by hand: densityPrior² is 0.0225, nine comparisons 2% apart sum
// to 0.0036, so the table's prior is (0.1·0.0225 + 0.0036)/9.1.
func TestModelRelVarsTakeTheTablesComparisons(t *testing.T) {
	const agree = 0.02 * 0.02 // neighbours 2% apart
	for _, tc := range []struct {
		name string
		own  map[string]comparisons
		want map[string]float64
	}{
		{
			name: "no comparisons anywhere",
			own:  map[string]comparisons{"a#": {}, "b#": {}},
			want: map[string]float64{"a#": 0.0225, "b#": 0.0225},
		},
		{
			name: "a prefix of one tablet beside one of ten",
			own:  map[string]comparisons{"a#": {sum: 9 * agree, pairs: 9}, "b#": {}},
			// b#: 0.00585/9.1; a#: (0.1·that + 0.0036)/9.1.
			want: map[string]float64{"a#": 0.000402669, "b#": 0.000642857},
		},
		{
			name: "names do not speak for the others",
			own:  map[string]comparisons{"a#": {sum: 9 * 1.0, pairs: 9, names: true}, "b#": {}},
			// a#: (0.1·0.0225 + 9)/9.1.
			want: map[string]float64{"a#": 0.989258, "b#": 0.0225},
		},
	} {
		got := modelRelVars(tc.own)
		for prefix, want := range tc.want {
			if math.Abs(got[prefix]-want) > 1e-5*want {
				t.Errorf("%s: %s's relative variance %.6g, want %.6g", tc.name, prefix, got[prefix], want)
			}
		}
	}
}

// Pieces of names alone share the tablet's rest by their own counts of
// clusters (see [pieceEstimate.share]), not by the floor of their even
// share: spans on their kin's shared places found two thirds of each
// piece's bytes, 1,000,000 of 1,500,000 in 30 spans that read rows and
// 20,000 of 30,000 in 2 of 30. By the floor, the small piece, of fifteen
// times the large one's variance, takes 94% of the 510,000 missed and
// comes out 17 times its bytes (497,372); by their counts it comes out at
// 23,042, the large one at 1,506,958. The large one, which now takes
// nearly all the difference, takes on the small one's uncertainty with
// it: its split's variance rises from 1.9·10¹⁰ to 2.9·10¹¹ (the
// variances add as if the pieces' errors were independent). Beside a
// piece of other keys the floor stays (see [namesOnlyShares]).
func TestNamesShareByTheirOwnCounts(t *testing.T) {
	const total, evenShare, c = 1_530_000, 765_000, 0.01
	read := func(bytes float64, hits int) pieceRead {
		pr := pieceRead{coverage: c, values: make([]float64, 30), evenShare: evenShare, bytes: bytes * c, rows: bytes * c / 200}
		for j := range hits {
			pr.values[j] = bytes * c / float64(hits)
		}
		return pr
	}
	found := []pieceRead{read(1_000_000, 30), read(20_000, 2)}
	est := []pieceEstimate{found[0].estimate(200, 0), found[1].estimate(200, 0)}
	byFloor := slices.Clone(est)
	for h := range byFloor {
		byFloor[h].share = 0
	}
	floorBytes, floorVars, _ := splitPieces(total, byFloor, found)
	names := slices.Clone(est)
	namesOnlyShares(names, namesOnly(found, func(int) bool { return true }))
	countBytes, countVars, _ := splitPieces(total, names, found)
	t.Logf("by the floor %.0f and %.0f (variances %.3g, %.3g); by their counts %.0f and %.0f (%.3g, %.3g)",
		floorBytes[0], floorBytes[1], floorVars[0], floorVars[1], countBytes[0], countBytes[1], countVars[0], countVars[1])
	if floorBytes[1] < 10*30_000 {
		t.Errorf("by the floor the small piece came out %.0f: the test no longer builds the case (want over 300,000)", floorBytes[1])
	}
	if countBytes[1] < 20_000 || countBytes[1] > 45_000 || math.Abs(countBytes[0]+countBytes[1]-total) > 1e-6 {
		t.Errorf("by their counts %.0f and %.0f, want the small piece within 1.5 times its 30,000, summing to %d", countBytes[0], countBytes[1], total)
	}
	// The large piece's variance: (1−q)² of its own floor and q² of the
	// small one's, q its share of the difference.
	q := names[0].share / (names[0].share + names[1].share)
	if want := (1-q)*(1-q)*est[0].variance + q*q*est[1].variance; math.Abs(countVars[0]-want) > 1e-9*want {
		t.Errorf("the large piece's variance %.4g, want %.4g", countVars[0], want)
	}
	// Beside a piece of other keys, the floor.
	mixed := slices.Clone(est)
	namesOnlyShares(mixed, namesOnly(found, func(h int) bool { return h == 0 }))
	if mixed[0].share != 0 || mixed[1].share != 0 {
		t.Errorf("beside a piece of other keys the shares stay (%g, %g): want the floor", mixed[0].share, mixed[1].share)
	}
}
