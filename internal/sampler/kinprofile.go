package sampler

import (
	"maps"
	"math"
	"slices"
)

// The prefixes of a kin (see [keyMaps.judgeKin]) hold the same names
// and lie on one line, so that where that line gives a name too much
// room or too little, it does so for each of them alike. Its room for a
// first name is the share of the known keys that take it, a few dozen
// keys each, and a piece's spans on it spread: the last piece of a
// prefix of 12,906 rows came out at 1.5 times its bytes from 17 spans
// whose estimate's deviation was 41% of it (docs/MEASUREMENTS.md's
// "Names: the kin's profile"). The tablets say more: each holds a known
// number of bytes (SampleRowKeys' offsets) over known stretches of the
// line, one prefix's for a tablet inside a prefix, two or more for a
// boundary tablet, and the prefixes' tablets end at different names. A
// kinProfile is the density of names along the line that every prefix
// of the kin shares, up to its own scale, by first name (the line's
// nodes at the first byte that is not a letter or digit), fitted to
// every tablet that holds pieces of the kin alone: a piece of names in a
// boundary tablet is then predicted as its prefix's scale times the
// profile's mass over its stretch (see [densityModel.predictKin]).

// kinPart is one piece of a tablet of the kin: its prefix's index and
// its stretch of the line.
type kinPart struct {
	prefix   int
	from, to float64
}

// kinTablet is a tablet whose pieces are all of prefixes of the kin,
// with its bytes and rows.
type kinTablet struct {
	parts       []kinPart
	bytes, rows float64
}

// kinProfile is the fitted density: each node's mass (the profile
// spreads it over the node's stretch of the line as the line does),
// whether some tablet's pieces reach the node, and each prefix's scale
// (zero for a prefix no tablet fitted).
type kinProfile struct {
	edges   []float64 // the nodes' starts, then 1
	mass    []float64
	covered []bool
	scale   []float64
}

// kinFitRounds is how many rounds the fit's updates run. It stops short
// of the likelihood's maximum, and that is a choice, not a want of time:
// on the fast test's kins (exact bytes, one profile shared exactly) the
// maximum splits boundary tablets better (an accelerated fit, SQUAREM,
// about as far as 100,000 rounds: the worst piece's median 1.075 → 1.006
// times off), but on generated tables, whose prefixes share their names
// only as far as their draws do, it split them worse (the fixed set at
// 0.1%: 8 scans worse by more than 0.05 pp, none better, mean 2.179 →
// 2.257 pp), and 300 rounds did as well as 1,000 (4 better, 4 worse).
// Stopped early, the fit stays near the line's room, where it starts,
// wherever the tablets say little (docs/MEASUREMENTS.md, "Names: the
// kin's profile" and "converged").
const kinFitRounds = 1000

// fitKinProfile fits the profile over the nodes that edges bound to the
// tablets: each tablet's bytes are the sum over its pieces of their
// prefix's scale times the profile's mass over their stretch. The fit is
// the maximum of a Poisson likelihood by the EM updates of a mixture
// (each tablet's bytes shared among its pieces, and each piece's among
// the nodes it reaches, by what the fit predicts of them), started from
// the line's own room. skip, when not negative, leaves out the tablets
// of that group (see [kinGroup]).
func fitKinProfile(tablets []kinTablet, edges []float64, prefixes, skip int) kinProfile {
	nodes := len(edges) - 1
	kp := kinProfile{edges: edges, mass: make([]float64, nodes), covered: make([]bool, nodes), scale: make([]float64, prefixes)}
	for n := range nodes {
		kp.mass[n] = edges[n+1] - edges[n]
	}
	for k, t := range tablets {
		if kinGroup(k) == skip {
			continue
		}
		for _, pt := range t.parts {
			kp.scale[pt.prefix] = 1
			kp.each(pt.from, pt.to, func(n int, _ float64) { kp.covered[n] = true })
		}
	}
	allocP, massP := make([]float64, prefixes), make([]float64, prefixes)
	allocN, lenN := make([]float64, nodes), make([]float64, nodes)
	// The nodes each piece reaches, with the share of each it covers,
	// found once.
	type reach struct {
		node  int
		share float64
	}
	reaches := make([][][]reach, len(tablets))
	for k, t := range tablets {
		reaches[k] = make([][]reach, len(t.parts))
		for q, pt := range t.parts {
			kp.each(pt.from, pt.to, func(n int, share float64) { reaches[k][q] = append(reaches[k][q], reach{n, share}) })
		}
	}
	pred := []float64{}
	// pass shares each tablet's bytes among its pieces by what the fit
	// predicts of them, and hands each piece's share to f with the
	// piece, the nodes it reaches and its prediction.
	pass := func(f func(pt kinPart, nodes []reach, alloc, pred float64)) {
		for k, t := range tablets {
			if kinGroup(k) == skip {
				continue
			}
			pred = pred[:0]
			var total float64
			for q, pt := range t.parts {
				var m float64
				for _, r := range reaches[k][q] {
					m += kp.mass[r.node] * r.share
				}
				pred = append(pred, kp.scale[pt.prefix]*m)
				total += kp.scale[pt.prefix] * m
			}
			if total <= 0 {
				continue
			}
			for q, pt := range t.parts {
				f(pt, reaches[k][q], t.bytes*pred[q]/total, pred[q])
			}
		}
	}
	// The scales and the nodes' masses in turn (each a step of EM with
	// the other held).
	for range kinFitRounds {
		clear(allocP)
		clear(massP)
		pass(func(pt kinPart, _ []reach, alloc, pred float64) {
			if s := kp.scale[pt.prefix]; s > 0 {
				allocP[pt.prefix] += alloc
				massP[pt.prefix] += pred / s
			}
		})
		for q := range kp.scale {
			if massP[q] > 0 {
				kp.scale[q] = allocP[q] / massP[q]
			}
		}
		clear(allocN)
		clear(lenN)
		pass(func(pt kinPart, nodes []reach, alloc, pred float64) {
			if pred <= 0 {
				return
			}
			s := kp.scale[pt.prefix]
			for _, r := range nodes {
				allocN[r.node] += alloc * s * kp.mass[r.node] * r.share / pred
				lenN[r.node] += s * r.share
			}
		})
		for n := range kp.mass {
			if lenN[n] > 0 {
				kp.mass[n] = allocN[n] / lenN[n]
			}
		}
	}
	return kp
}

// each calls f with every node that [from, to) reaches and the share of
// the node's stretch it covers.
func (kp kinProfile) each(from, to float64, f func(n int, share float64)) {
	n, _ := slices.BinarySearch(kp.edges, from)
	if n > 0 && (n == len(kp.edges) || kp.edges[n] > from) {
		n--
	}
	for ; n < len(kp.mass) && kp.edges[n] < to; n++ {
		lo, hi := max(from, kp.edges[n]), min(to, kp.edges[n+1])
		if hi > lo {
			f(n, (hi-lo)/(kp.edges[n+1]-kp.edges[n]))
		}
	}
}

// of returns the profile's mass over [from, to) of the line, and whether
// the tablets reach every node of it.
func (kp kinProfile) of(from, to float64) (mass float64, covered bool) {
	covered = true
	kp.each(from, to, func(n int, share float64) {
		mass += kp.mass[n] * share
		covered = covered && kp.covered[n]
	})
	return mass, covered
}

// predict returns the profile's bytes of a piece of prefix q over
// [from, to); false where no tablet fitted the prefix or reached the
// piece's nodes.
func (kp kinProfile) predict(q int, from, to float64) (float64, bool) {
	mass, covered := kp.of(from, to)
	if !covered || q < 0 || q >= len(kp.scale) || kp.scale[q] <= 0 {
		return 0, false
	}
	return kp.scale[q] * mass, true
}

// kinGroups is how many groups the tablets fall in to be left out of
// the fit in turn, and kinGroup the group of the k-th: a scan fits the
// profile kinGroups+1 times, however many tablets.
const kinGroups = 10

func kinGroup(k int) int { return k % kinGroups }

// kinRelVar returns the relative variance of predicting a tablet's
// bytes by the profile fitted without its group of tablets: the square
// of the logarithm of prediction over truth, less what Poisson noise
// explains, averaged over every tablet the others predict, and the
// number of such tablets. It also returns the grouped jackknife variance
// of the prediction of each of pieces that every fit without a group
// predicts: how far each moves it. A tablet's bytes fix the sum of its
// pieces better than their split (a profile whose first and last names
// only boundary tablets reach can trade the one for the other), and the
// split is what the sampler takes from the profile. A fit without a
// group that holds a prefix's only tablets of its own fits that prefix
// by the tablets it shares, which [plan.kinTablets] keeps the whole fit
// from: its predictions then stray the more, and the variances come out
// larger for it, not smaller.
func kinRelVar(tablets []kinTablet, edges []float64, prefixes int, all kinProfile, pieces []kinPart) (relVar float64, n int, spread map[kinPart]float64) {
	var sum float64
	spread = make(map[kinPart]float64, len(pieces))
	drawn := make(map[kinPart]int, len(pieces))
	wants := map[kinPart]float64{} // the whole fit's predictions
	for _, pt := range pieces {
		if want, ok := all.predict(pt.prefix, pt.from, pt.to); ok {
			wants[pt] = want
		}
	}
	for g := range min(kinGroups, len(tablets)) {
		kp := fitKinProfile(tablets, edges, prefixes, g)
		for pt, want := range wants {
			if b, ok := kp.predict(pt.prefix, pt.from, pt.to); ok {
				spread[pt] += (b - want) * (b - want)
				drawn[pt]++
			}
		}
		for k := g; k < len(tablets); k += kinGroups {
			t := tablets[k]
			if t.bytes <= 0 {
				continue
			}
			var pred float64
			ok := true
			for _, pt := range t.parts {
				b, fitted := kp.predict(pt.prefix, pt.from, pt.to)
				pred += b
				ok = ok && fitted
			}
			if !ok || pred <= 0 {
				continue
			}
			d := math.Log(pred / t.bytes)
			sum += max(0, d*d-1/max(t.rows, 1))
			n++
		}
	}
	groups := min(kinGroups, len(tablets))
	for pt := range spread {
		if drawn[pt] < groups {
			// A fit without some group of tablets could not predict it:
			// they alone reach its nodes or fix its prefix's scale, and the
			// jackknife cannot say how sure it is.
			delete(spread, pt)
			continue
		}
		// The jackknife's (g−1)/g times the sum of squares, about the fit
		// with every tablet in place of the mean of the fits without a
		// group.
		spread[pt] *= float64(groups-1) / float64(groups)
	}
	if n == 0 {
		return 0, 0, spread
	}
	return sum / float64(n), n, spread
}

// fitKin fits the profile of the kin's names (see [kinProfile]) to the
// tablets that hold pieces of the kin alone, and measures how far it
// predicts the tablets and the pieces it may be asked for when fitted
// without some of them (see [kinRelVar]).
func (model *densityModel) fitKin(p *plan) {
	index := map[string]int{} // the kin's prefixes, in key order
	var member *keyMap
	for _, prefix := range slices.Sorted(maps.Keys(p.maps.maps)) {
		if m := p.maps.maps[prefix]; m.kin != nil {
			index[prefix] = len(index)
			if member == nil {
				member = m
			}
		}
	}
	if len(index) < 2 {
		return
	}
	edges := kinNodes(member)
	if edges == nil {
		return
	}
	tablets, pieces := p.kinTablets(index)
	if len(tablets) < kinLeastTablets {
		return // fewer than it must predict when left out
	}
	kp := fitKinProfile(tablets, edges, len(index), -1)
	relVar, n, spread := kinRelVar(tablets, edges, len(index), kp, pieces)
	if n < kinLeastTablets {
		return
	}
	// As uncertain as the tablets left out say, with the density
	// model's prior weighed as a tenth of one of them (see
	// [modelRelVars]).
	model.kinVar = (densityPriorWeight*densityPrior*densityPrior + relVar*float64(n)) / (densityPriorWeight + float64(n))
	model.kin = kp
	model.kinIndex = index
	model.kinSpread = spread
}

// kinNodes returns the edges of the profile's nodes on the line of the
// kin that member, a map of the kin, takes: where each first name the
// kin knows starts (up to and with its first byte that is not a letter
// or digit). None for fewer than two first names or more than
// maxKinNodes.
func kinNodes(member *keyMap) []float64 {
	firsts := map[string]bool{}
	for key := range member.kin.known {
		if first := firstSegment(key[len(kinPrefix):]); first != "" {
			firsts[first] = true
		}
	}
	if len(firsts) < 2 || len(firsts) > maxKinNodes {
		return nil
	}
	edges := []float64{0, 1}
	for first := range firsts {
		if at := member.position(member.prefix+first, len(member.prefix)); at > 0 && at < 1 {
			edges = append(edges, at)
		}
	}
	slices.Sort(edges)
	return slices.Compact(edges)
}

// kinTablets returns the tablets the profile of the kin's prefixes
// (index) is fitted to, and the pieces it may predict: the first and last
// of each tablet of several. A tablet is fitted when its pieces are all
// of prefixes of the kin that each have a tablet of their own: a
// prefix's scale that only tablets it shares fix (each with scales of
// its own) tells the profile nothing, and the profile does not predict
// it.
func (p *plan) kinTablets(index map[string]int) (tablets []kinTablet, pieces []kinPart) {
	partOf := func(pc piece) (kinPart, bool) {
		q, ok := index[pc.prefix]
		if !ok {
			return kinPart{}, false
		}
		from, to := p.maps.maps[pc.prefix].stretch(pc.from, pc.to)
		return kinPart{prefix: q, from: from, to: to}, true
	}
	anchored := map[int]bool{}
	for i, tp := range p.pieces {
		t := kinTablet{bytes: float64(p.ranges[i].SampledBytes), rows: p.tablets[i].rows}
		for _, pc := range tp {
			pt, ok := partOf(pc)
			if !ok {
				t.parts = nil
				break
			}
			t.parts = append(t.parts, pt)
		}
		if len(t.parts) == 0 || t.bytes <= 0 {
			continue
		}
		if len(t.parts) == 1 {
			anchored[t.parts[0].prefix] = true
		}
		tablets = append(tablets, t)
	}
	tablets = slices.DeleteFunc(tablets, func(t kinTablet) bool {
		return slices.ContainsFunc(t.parts, func(pt kinPart) bool { return !anchored[pt.prefix] })
	})
	for _, tp := range p.pieces {
		if len(tp) < 2 {
			continue
		}
		for _, pc := range []piece{tp[0], tp[len(tp)-1]} {
			if pt, ok := partOf(pc); ok {
				pieces = append(pieces, pt)
			}
		}
	}
	return tablets, pieces
}

// maxKinNodes is the most first names a kin's profile fits (the
// generated names hold 29; keys whose first segment is a user's whole
// name hold thousands, and are left to their line). kinLeastTablets is
// the fewest tablets the fits without a group must predict (see
// [kinRelVar]) before the profile predicts any piece: from three, fitted
// to five tablets of three prefixes, it held each stretch that one
// tablet reached over 20 first names at the line's own room and said it
// was sure to 13%, and a shape of names at 10% went from 0.59 to 3.98 pp
// off (docs/MEASUREMENTS.md's "Names: the kin's profile").
const (
	maxKinNodes     = 200
	kinLeastTablets = 10
)

// predictKin returns the profile's prediction of the piece [from, to)
// of prefix, a prefix of the kin's names: its prefix's scale times the
// profile's mass over its stretch of the line, with the relative
// variance of the tablets' predictions, the piece's jackknife spread and
// its Poisson part. None where the profile did not fit the prefix or
// reach the piece's first names, or some fit without a group of tablets
// did not (the jackknife then cannot say how sure it is).
func (model densityModel) predictKin(p *plan, prefix string, i int, from, to string) pieceModel {
	q, ok := model.kinIndex[prefix]
	if model.kinVar <= 0 || !ok {
		return pieceModel{}
	}
	a, b := p.maps.maps[prefix].stretch(from, to)
	bytes, ok := model.kin.predict(q, a, b)
	spread, known := model.kinSpread[kinPart{prefix: q, from: a, to: b}]
	if !ok || !known || bytes <= 0 {
		return pieceModel{}
	}
	return pieceModel{bytes: bytes, relVar: model.kinVar + spread/(bytes*bytes) + 1/p.tablets[i].rowsOf(bytes)}
}
