package sampler

import (
	"maps"
	"math"
	"slices"
	"strings"
)

// The tablet boundaries say more than where to read: the bytes of every
// tablet are known (SampleRowKeys' offsets), and a tablet inside one
// top-level prefix holds them over a known stretch of that prefix's key
// line. Its bytes over that length are the prefix's density there, and
// a prefix's keys in most id forms (random ids of any alphabet, UUIDs,
// counters, timestamps) spread over its line about evenly, so the
// density of the tablet next to a boundary tablet, times the length of
// the prefix's piece of it, predicts that piece's bytes to a percent or
// two, where a few spans in the piece tell them to ten or twenty. Keys
// that cluster (names) spread unevenly, and the model says so: its
// error is measured from how much the densities of the prefix's
// neighbouring tablets differ, and a piece's estimate weighs model and
// spans by their variances (see [splitPieces]).
//
// pieceModel is what the model predicts of one piece: its bytes and
// the relative variance of that prediction; no prediction when relVar
// is 0.
type pieceModel struct {
	bytes, relVar float64
}

// past returns the prediction of the piece's bytes past its head, as an
// estimate to weigh against its spans'.
func (m pieceModel) past(head float64) pieceEstimate {
	return pieceEstimate{bytes: max(m.bytes-head, 0), variance: m.relVar * m.bytes * m.bytes}
}

// densityPrior is the relative error a density model is given before any
// neighbouring tablets of the table are compared, with the weight of one
// comparison (see [modelRelVars]): a table with one pair of neighbours
// that happen to agree is not trusted to a percent.
const (
	densityPrior       = 0.15
	densityPriorWeight = 0.1
)

// interiorDensity is the density of one tablet inside a prefix.
type interiorDensity struct {
	tablet  int
	density float64 // bytes per unit of the prefix's line
	rows    float64 // its rows by its bytes and the plan's row size
}

// densityModel holds, per top-level prefix, the densities of the tablets
// inside it, in tablet order, and the relative variance of predicting
// one from its neighbour.
type densityModel struct {
	densities map[string][]interiorDensity
	relVar    map[string]float64
	// kin is the profile of the names of the kin (see [kinProfile]),
	// kinVar the relative variance of predicting a tablet by it, and
	// kinIndex the kin's prefixes' indexes in it; no profile when kinVar
	// is 0.
	kin      kinProfile
	kinVar   float64
	kinIndex map[string]int
	// kinSpread is the jackknife variance of the profile's prediction of
	// the first and last piece of each tablet of several that every fit
	// without a group of tablets predicts (see [kinRelVar]).
	kinSpread map[kinPart]float64
}

// comparisons sums one prefix's comparisons of neighbouring tablets:
// each the square of the logarithm of their densities' ratio, less what
// Poisson noise explains. names is set for a prefix of names.
type comparisons struct {
	sum, pairs float64
	names      bool
}

// modelRelVars returns, per prefix, the relative variance of predicting
// a piece from a neighbouring tablet's density: its own comparisons',
// with a prior weighed as densityPriorWeight of a comparison, which a
// prefix with no pair of neighbouring tablets inside it takes whole. The
// prior is what the comparisons of every prefix of the table that is
// not names say, pooled (a table's prefixes are most often keyed alike),
// densityPrior weighed in the same way among them: such a prefix is
// trusted as far as the table's models carried, not as far as
// densityPrior alone. A piece of 34,276 timestamps next to the one
// tablet inside its prefix was predicted to 1.4% and given
// densityPrior's 15%: its eleven spans, which fell in the busy half of
// the day, put it 40% over, and the split left it 8.6% over (issue 26's
// seed 911230021 at 1%; see docs/MEASUREMENTS.md's "The table's comparisons as a
// model's prior").
func modelRelVars(own map[string]comparisons) map[string]float64 {
	sum, pairs := densityPriorWeight*densityPrior*densityPrior, densityPriorWeight
	for _, prefix := range slices.Sorted(maps.Keys(own)) {
		if c := own[prefix]; !c.names {
			sum, pairs = sum+c.sum, pairs+c.pairs
		}
	}
	prior := sum / pairs
	relVar := make(map[string]float64, len(own))
	for prefix, c := range own {
		relVar[prefix] = (densityPriorWeight*prior + c.sum) / (densityPriorWeight + c.pairs)
	}
	return relVar
}

// fitModel puts every piece on its prefix's line (the key maps have
// learned every key the scan knows: see [scanner.discover]), and predicts the bytes of each
// boundary tablet's first and last piece from the density of the nearest
// tablet inside the same prefix.
func (p *plan) fitModel() {
	model := densityModel{densities: map[string][]interiorDensity{}}
	for i, pieces := range p.pieces {
		for h := range pieces {
			pc := &pieces[h]
			pc.line = p.lineOf(*pc)
		}
		start, end := p.wholeTablets[i][0], p.wholeTablets[i][1]
		if len(pieces) != 1 || pieces[0].prefix == "" || start == "" || end == "" || !strings.HasPrefix(end, pieces[0].prefix) {
			continue
		}
		prefix := pieces[0].prefix
		if length := p.maps.maps[prefix].length(start, end); length > 0 && p.ranges[i].SampledBytes > 0 {
			model.densities[prefix] = append(model.densities[prefix], interiorDensity{tablet: i, density: float64(p.ranges[i].SampledBytes) / length, rows: p.tablets[i].rows})
		}
	}
	// Neighbouring tablets' densities differ by the Poisson noise of
	// their rows and by how the density truly varies along the line;
	// only the latter carries over to a piece.
	own := map[string]comparisons{}
	for prefix, ds := range model.densities {
		var c comparisons
		for k := 1; k < len(ds); k++ {
			if ds[k].tablet == ds[k-1].tablet+1 {
				d := math.Log(ds[k].density / ds[k-1].density)
				noise := 1/max(ds[k].rows, 1) + 1/max(ds[k-1].rows, 1)
				c.sum += max(0, d*d-noise)
				c.pairs++
			}
		}
		c.names = p.namesPrefix(prefix)
		own[prefix] = c
	}
	model.relVar = modelRelVars(own)
	if !p.noKinProfile {
		model.fitKin(p)
	}
	for i, pieces := range p.pieces {
		if len(pieces) < 2 {
			continue
		}
		start, end := p.wholeTablets[i][0], p.wholeTablets[i][1]
		first, last := &pieces[0], &pieces[len(pieces)-1]
		if start != "" && first.prefix != "" && first.last != "" {
			first.model = model.predict(p, first.prefix, i, -1, first.from, first.to)
			first.profile = model.predictKin(p, first.prefix, i, first.from, first.to)
		}
		if end != "" && last.prefix != "" && strings.HasPrefix(end, last.prefix) {
			last.model = model.predict(p, last.prefix, i, +1, last.from, last.to)
			last.profile = model.predictKin(p, last.prefix, i, last.from, last.to)
		}
	}
}

// lineOf returns the line of piece pc on its prefix's key map (the
// pooled one for a piece of no one prefix).
func (p *plan) lineOf(pc piece) segment {
	m := p.maps.pooled
	if pc.prefix != "" && p.maps.maps[pc.prefix] != nil {
		m = p.maps.maps[pc.prefix]
	}
	return m.segmentOf(pc.from, pc.to)
}

// predict returns the model of the piece [from, to) of prefix in tablet
// i from the nearest tablet inside the prefix in direction step (-1
// before, +1 after); none when the prefix has no such tablet.
func (model densityModel) predict(p *plan, prefix string, i, step int, from, to string) pieceModel {
	ds := model.densities[prefix]
	best := -1
	for k, d := range ds {
		if (d.tablet-i)*step > 0 && (best < 0 || abs(d.tablet-i) < abs(ds[best].tablet-i)) {
			best = k
		}
	}
	if best < 0 {
		return pieceModel{}
	}
	length := p.maps.maps[prefix].length(from, to)
	bytes := ds[best].density * length
	rows := p.tablets[i].rowsOf(bytes)
	// The neighbours' disagreement, and the piece's own rows falling as
	// they may (Poisson).
	if p.maps.maps[prefix].namesLike() {
		// Names cluster at the scale of a piece as they do not at a
		// tablet's, and a map that knows some names far better than
		// others gives their rows room unevenly: a density does not carry
		// over from one stretch of the line to another (predictions came
		// out 2 to 20 times off), whatever the neighbours' agreement.
		// Where its kin fill tablets of their own, the kin's profile
		// predicts it instead (see [densityModel.predictKin]).
		return pieceModel{}
	}
	return pieceModel{bytes: bytes, relVar: model.relVar[prefix] + 1/rows}
}

// rowsOf returns the rows of bytes in the tablet by its row size, at
// least 1 (1 when its row size is unknown): the Poisson part of a
// prediction's relative variance is one over it.
func (t tabletPlan) rowsOf(bytes float64) float64 {
	if t.rowBytes > 0 {
		return max(1, bytes/t.rowBytes)
	}
	return 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pieceEstimate is one piece's estimate of its bytes, in offset units,
// and its variance, from the model, its spans, or both.
type pieceEstimate struct {
	bytes, variance float64
	// unplaced is set when its line does not know where its rows are
	// (see [pieceEstimate.unplace]).
	unplaced bool
	// spans is the variance of the spans' estimate alone, without the
	// floor of a piece of names (see [pieceRead.estimate]): the reads'
	// own, which judges whether they explain the tablet's bytes.
	spans float64
	// share, when above zero, is the variance by which the split shares
	// out what the tablet's bytes leave (see [splitPieces]); variance
	// when zero. A piece of names among pieces of names alone shares by
	// its own count of clusters, not by the floor of its even share of
	// the tablet (see [pieceRead.estimate]): that floor, the same for a
	// piece of 134 rows as for one of 13,000, handed the small pieces what
	// the large ones' spans missed (a piece of 134 rows, 3.7 kB, was given
	// 529 kB: the 10% sample of seed 107052415558, on the kin's shared
	// places, before pieces shared by their own counts), and on their
	// kin's shared places (see [plan.kinPositions]) the pieces' errors
	// are alike, shared out best in proportion to each piece.
	share float64
}

// unplace returns the estimate of a piece whose line does not know
// where its rows are (see [unplaceClustered] and [unplaceBlind]),
// among pieces whose lines do, room the tablet's bytes its reads did
// not hold: as uncertain
// as that room times its own bytes, so that it takes what the others
// leave ([splitPieces]), several such pieces in proportion to their
// estimates, however far below the others leave (the split does not
// fall back to shares in proportion where such a piece takes the
// difference: a piece of 20 kB by its spans, of 2.4 MB truly, would
// scale every piece up alike). Among pieces of names alone, each shares
// by its own count of clusters instead (see [pieceEstimate.share]); a
// piece whose prefix fills tablets of its own keeps its model's
// prediction (see [combine]), which the spans' variance no longer
// weighs against.
func (e pieceEstimate) unplace(room float64) pieceEstimate {
	e.variance = max(e.variance, room*max(e.bytes, 0))
	e.unplaced = true
	return e
}

// shareVariance returns the variance by which the split shares out the
// tablet's bytes to the piece.
func (e pieceEstimate) shareVariance() float64 {
	if e.share > 0 {
		return e.share
	}
	return max(e.variance, 0)
}

// movedVariance returns the variance of an estimate of variance v moved
// by share q of the difference between the sum of estimates of total
// variance vars and the total the tablet fixes: (1−q)² of its own and q²
// of the others'. Shared by variance (q = v/vars) it is v(1−q).
func movedVariance(v, vars, q float64) float64 {
	return (1-q)*(1-q)*v + q*q*max(vars-v, 0)
}

// inconsistent is how many standard deviations of the pieces' estimates
// the difference between their sum and the tablet's bytes may reach
// before the split stops trusting their variances (see [splitPieces]).
const inconsistent = 4

// combine returns the estimate that weighs the spans' estimate and the
// model's prediction by their variances (inverse-variance weights), the
// spans' variance at least what their distance from the model says; the
// spans' alone when either is exact.
func combine(spans, model pieceEstimate) pieceEstimate {
	switch {
	case spans.variance <= 0:
		return spans // read whole: exact
	case model.variance <= 0:
		return spans
	}
	// Spans that disagree with the model by more than twice the
	// deviation their variances allow understate their own: all of a
	// piece's spans can fall where its keys are dense (the busy half of
	// the day) and agree with one another. Their variance is taken to be
	// what the disagreement says it is, the model's being known. Over 120
	// generated shapes of issue 26 (benchscan shapes -count 40 -seed
	// 64110811, 64110851 and 911230001) this moved two scans by more than
	// 0.02 pp: timestamps of 8 prefixes at 1% (seed 911230021), whose
	// spans had put a piece 40% over, from 1.56 to 0.65 pp, and a mixed
	// shape with names at 1% (seed 64110831) from 0.18 to 0.28.
	if d := spans.bytes - model.bytes; d*d > 4*(spans.variance+model.variance) {
		spans.variance = d*d - model.variance
	}
	return weigh(spans, model)
}

// weigh returns the estimate that weighs the spans' estimate and a
// prediction by their variances (inverse-variance weights); the spans'
// alone when either is exact. The result is placed (not unplaced, see
// [pieceEstimate.unplace]): the prediction knows where the prefix's
// bytes lie, and a piece the spans could not place keeps it.
func weigh(spans, prediction pieceEstimate) pieceEstimate {
	if spans.variance <= 0 || prediction.variance <= 0 {
		return spans
	}
	w := (1 / spans.variance) / (1/spans.variance + 1/prediction.variance)
	return pieceEstimate{bytes: w*spans.bytes + (1-w)*prediction.bytes, variance: 1 / (1/spans.variance + 1/prediction.variance)}
}

// splitPieces shares a tablet's bytes, total, among its pieces: a piece
// read whole keeps its bytes, and so do the head of a piece read apart
// and what a swept piece read in parts to their ends; the rest goes to
// the pieces estimated by their spans (and the model), in proportion to
// their estimates est of their bytes past their heads (a ratio estimate:
// the tablet's bytes are known, the pieces' shares of them estimated),
// and to the parts of swept pieces their limits cut short, at least
// those bytes: by their estimate along the line, as uncertain as it is
// large, beside the spans' where the line places their reads
// ([pieceRead.sweptOnLine]: a tiny prefix whose spans found nothing
// because it holds next to nothing), else what the others leave, each
// in proportion to its bytes (a prefix whose keys the line does not
// know, names). It returns the pieces' bytes, their variances (by the
// delta method: a piece's share moves with its own estimate and against
// the others'), and the scale of each swept piece's cut parts.
func splitPieces(total float64, est []pieceEstimate, found []pieceRead) (bytes, variances, scales []float64) {
	n := len(est)
	bytes, variances, scales = make([]float64, n), make([]float64, n), make([]float64, n)
	rest := total
	var spans, cut float64
	for h, e := range est {
		pr := &found[h]
		switch {
		case pr.exact:
			bytes[h] = pr.exactBytes
			rest -= pr.exactBytes
		case pr.sweptOnLine():
			bytes[h] = pr.head + pr.complete + pr.cutBytes
			rest -= bytes[h]
			spans += max(e.bytes, 0)
			scales[h] = 1
		case pr.swept:
			bytes[h] = pr.head + pr.complete
			rest -= pr.head + pr.complete
			cut += pr.cutBytes
			scales[h] = 1
		default:
			bytes[h] = pr.head
			rest -= pr.head
			spans += max(e.bytes, 0)
		}
	}
	rest = max(rest, 0)
	room := rest // the tablet's bytes its reads did not hold whole
	// The swept pieces' cut parts hold what the spans' estimates leave.
	if left := rest - spans; cut > 0 && left > cut {
		for h := range est {
			if pr := &found[h]; pr.swept && !pr.sweptOnLine() && pr.cutBytes > 0 {
				scales[h] = left / cut
				bytes[h] += pr.cutBytes * scales[h]
				// The rest of the tablet shared by bytes read: as uncertain
				// as the share.
				variances[h] = (pr.cutBytes * (scales[h] - 1)) * (pr.cutBytes * (scales[h] - 1))
			}
		}
		rest = spans
	} else {
		for h := range est {
			if pr := &found[h]; pr.swept && !pr.sweptOnLine() {
				bytes[h] += pr.cutBytes
			}
		}
		rest = max(rest-cut, 0)
	}
	// The rest shared by generalised least squares: each estimate moves
	// by its share of the estimates' variance towards the sum the
	// tablet's bytes fix (a piece the model predicts to a percent keeps
	// its prediction, one its spans estimate to twenty takes the
	// difference), and none below zero. A difference far beyond what the
	// variances explain says that they do not hold: the spans missed rows
	// in every piece alike (a line that gives them little room), and the
	// rest is shared in proportion to the estimates, each piece's
	// variance scaled up by how far the difference was from explained;
	// unless a piece is unplaced (see [pieceEstimate.unplace]), which
	// takes the difference.
	adjust := make([]float64, n)
	free := make([]bool, n) // in key order, so that the sums are the same every time
	left := 0
	var sum, vars float64
	unplaced := false // a piece takes what the others leave, however much
	for h := range est {
		if reconciled(&found[h]) {
			adjust[h], free[h] = max(est[h].bytes, 0), true
			left++
			sum += adjust[h]
			vars += max(est[h].variance, 0)
			unplaced = unplaced || est[h].unplaced
		}
	}
	if diff := rest - sum; left > 0 && sum > 0 && !unplaced && diff*diff > inconsistent*inconsistent*vars {
		scale := rest / sum
		inflate := diff * diff / max(vars, 1e-12)
		for h := range est {
			if free[h] {
				q := adjust[h] / sum
				v := max(est[h].variance, 0)
				if left > 1 {
					variances[h] = inflate * scale * scale * movedVariance(v, vars, q)
				}
				adjust[h] *= scale
			}
		}
		left = 0
	}
	// A piece dropped to nothing past its head is not sure to hold
	// nothing: it keeps the variance least squares gives it among the
	// pieces free when it is dropped, and the pieces left, which hold
	// whatever the dropped ones do, take the variance of the dropped
	// pieces' sum, each by the square of its share. Dropped with none, a
	// prefix of names of 7,538 rows came out at 16 rows, [13, 19], and
	// the piece its tablet was left to was as sure (a generated shape of
	// issue 26, seed 64110814, at 1%; docs/MEASUREMENTS.md's "A first pass for
	// names, measured and left out").
	var droppedVars float64
	for left > 0 {
		var shares float64
		sum, vars = 0, 0
		for h := range est {
			if free[h] {
				sum += adjust[h]
				vars += max(est[h].variance, 0)
				shares += est[h].shareVariance()
			}
		}
		share := func(h int) float64 {
			if shares > 0 {
				return est[h].shareVariance() / shares
			}
			return 1 / float64(left)
		}
		diff := rest - sum
		var droppedNow, droppedShare float64 // the variance and share of the pieces this pass drops
		dropped := false
		for h := range est {
			if free[h] && adjust[h]+diff*share(h) < 0 {
				// It holds nothing past its head: the others take the rest.
				variances[h] = movedVariance(max(est[h].variance, 0), vars, share(h))
				droppedNow += max(est[h].variance, 0)
				droppedShare += share(h)
				adjust[h], free[h], dropped = 0, false, true
				left--
			}
		}
		if dropped {
			// Their sum's, moved by their share: the pieces' estimates
			// are drawn together by the tablet's total, not independent.
			if vars > 0 {
				droppedVars += movedVariance(droppedNow, vars, droppedShare)
			}
			continue
		}
		for h := range est {
			if free[h] {
				q := share(h)
				adjust[h] += diff * q
				variances[h] = q * q * droppedVars
				if left > 1 {
					variances[h] += movedVariance(max(est[h].variance, 0), vars, q)
				}
			}
		}
		break
	}
	for h := range est {
		if pr := &found[h]; reconciled(pr) {
			bytes[h] += adjust[h]
			if pr.sweptOnLine() {
				scales[h] = 1 + adjust[h]/pr.cutBytes
				// A line that did not know the piece's keys (names)
				// misplaces its estimate by far more than its variance
				// says: the piece is at least as uncertain as the
				// reconciliation moved it.
				moved := adjust[h] - max(est[h].bytes, 0)
				variances[h] = max(variances[h], moved*moved)
			}
		}
		// What a piece holds past its exact reads lies between none and
		// all of the tablet's room, and nothing in that range varies by
		// more than a quarter of its square: a tiny prefix's line that
		// carried its cut parts to 947 GB, moved back to 2 kB, had been
		// given that move as its variance, and its table of 763,294 rows
		// an interval up to 44.7 billion (a generated shape of issue 26,
		// seed 64110823, at 1%). Reads that hold more than the tablet's
		// bytes (its offsets are approximate) leave no room to cap by.
		if room > 0 {
			variances[h] = min(variances[h], room*room/4)
		}
	}
	return bytes, variances, scales
}

// reconciled reports whether a piece's bytes past what was read are an
// estimate the pieces' reconciliation in [splitPieces] moves: its spans'
// (and the model's), or its sweep's along its line.
func reconciled(pr *pieceRead) bool {
	return !pr.exact && (!pr.swept || pr.sweptOnLine())
}
