package sampler

import (
	"context"
	"math"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// pieceBudget is how one piece of a tablet is read: its head first
// (headLimit rows from its first key, none when 0), then spans covering
// coverage of the rest of its line, spans of them, each with a row
// limit; rows is what it is expected to hold.
type pieceBudget struct {
	rows      float64
	coverage  float64
	headLimit int64
	spans     int
	limit     int64
	spanRows  float64 // the rows a span aims to read; pieceSpanRows when 0 or less
}

// confidentModel is the largest relative variance of a model's
// prediction (see [densityModel]) that a piece's budget follows without
// a head read (a 20% error).
const confidentModel = 0.04

// pieceSpanRows is how many rows a span of a piece aims to read: fewer
// than a tablet's (spanRows), for more spans in a piece, whose line (the
// end of a prefix, or a small one) its key map knows less well than a
// tablet's inside a prefix, and whose estimate has no tablet's bytes to
// lean on. A prefix whose tablets' spans found its keys lying unevenly
// along its line reads its pieces in shorter spans (see [dispersion]).
const pieceSpanRows = 16

// minPieceSpans is the fewest spans a piece not read whole gets, so that
// its estimate has a variance of its own; maxPieceSpans the most. Two
// spans gave that variance one degree of freedom, and the tablet's split
// (see [splitPieces]), which weighs the pieces by their variances, then
// trusted the wrong piece now and then: in a tablet shared by two
// prefixes of epoch-millisecond keys, both spans of one fell at the
// trough of the day's cycle and read 44% of its bytes, with a standard
// deviation of a quarter of that, and the neighbour took the difference
// (2.63 pp at 0.1%, a generated shape of issue 26, seed 64110837; 1.26
// with four). The spans cover the same share of the line whatever their
// number, so four read about the rows two did. Over the 63 shapes
// without names of two runs (benchscan shapes -count 40 -seed 64110811
// and -seed 64110851, docs/MEASUREMENTS.md's "Accuracy on generated shapes"), the
// largest worst errors went from 3.26, 1.21 and 0.32 pp to 1.52, 0.68
// and 0.24 at 0.1%, 1% and 10%, the shapes within issue 26's bounds
// from 59, 55 and 60 to 61, 57 and 61; eight spans gave 2.56, 1.26 and
// 1.32 pp. The most spans is a bound on calls, not a choice of length:
// at 1024 it cut the short spans that the spread of a prefix of names
// asks for (see [dispersion]) in a piece of 111,898 rows at 10%, whose
// 1024 spans of 24 rows estimated it with a standard deviation of 1.9%
// (0.33 pp of its table); with 4096 its spans are as long as its prefix
// asks, and over 40 scans of 20 shapes with names at 10% (benchscan
// shapes -seed 64110811 and 64110900, -count 10 -names only -draws 2)
// 3 came out better by over 0.05 pp (0.393 → 0.116 pp at worst), none
// worse, for the same rows read; 16 shapes without names within the
// bounds before and after. At 1% and 0.1% no piece reads enough rows
// for the bound to matter (20 scans a fraction the same, scan for scan).
const (
	minPieceSpans = 4
	maxPieceSpans = 4096
)

// headRows is the row limit of a piece's head read: a piece of fewer
// rows is read whole (a tiny prefix between two large ones, counted
// exactly), and of a larger one the rows read are known exactly and say
// how many it holds (see [worker.readPieces]). thinHeadRows is that of a
// sample thinner than thinFraction.
const (
	headRows     = 32
	thinHeadRows = 16
	minHeadRows  = 4
)

// wholeRestFactor is how many times its head read a piece's rest may be
// expected to hold for it to be read whole after its head (with a limit
// of twice that, in case the line misled).
const wholeRestFactor = 2

// budgetPieces plans the reads of each piece of a tablet: every piece's
// spans cover the same share of its line as the tablet's plan reads of
// the tablet (see [tabletPlan]), so that each reads about its share of
// the rows whatever it holds, and every row of the tablet has about the
// same chance to be read; how many spans that share is cut into follows
// the rows the piece is expected to hold, by the model where it predicts
// them surely (see [densityModel]), else by its head read. A piece
// without a sure model gets a head read.
func budgetPieces(plan tabletPlan, pieces tabletPieces, rowBytes, fraction float64, spanRows func(piece) float64) []pieceBudget {
	budgets := make([]pieceBudget, len(pieces))
	coverage := min(1, float64(int64(plan.spans)*plan.budget)/max(plan.rows, 1))
	most := int64(headRows)
	if fraction < thinFraction {
		most = thinHeadRows
	}
	for h, pc := range pieces {
		b := &budgets[h]
		if spanRows != nil {
			b.spanRows = spanRows(pc)
		}
		sure := pc.model.relVar > 0 && pc.model.relVar <= confidentModel
		b.coverage = coverage
		if !sure {
			b.coverage = min(1, pieceBoost*coverage)
		}
		b.rows = plan.rows / float64(len(pieces))
		if sure && rowBytes > 0 {
			b.rows = pc.model.bytes / rowBytes
		}
		// The head reads at most half what the piece's spans would, so
		// that a tablet of many pieces does not spend its budget on them.
		head := min(most, max(minHeadRows, int64(math.Round(b.coverage*b.rows/2))))
		if !sure || b.rows <= float64(2*head) {
			b.headLimit = head
		}
		b.fit()
	}
	return budgets
}

// fit sets the spans and their row limit for the piece's expected rows.
func (b *pieceBudget) fit() {
	expected := b.coverage * max(b.rows, 1)
	per := b.spanRows
	if per <= 0 {
		per = pieceSpanRows
	}
	b.fitSpans(min(maxPieceSpans, max(minPieceSpans, int(math.Round(expected/per)))))
}

// fitSpans sets the piece's spans, and their row limit for its expected
// rows.
func (b *pieceBudget) fitSpans(spans int) {
	b.spans = spans
	b.limit = spanLimitFactor * max(minSpanRows, int64(math.Ceil(b.coverage*max(b.rows, 1)/float64(spans))))
}

// pieceRead is what the reads of one piece found.
type pieceRead struct {
	// coverage is the share of its line its spans cover; values each
	// span's bytes (in offset units) times its factor.
	coverage float64
	values   []float64
	// rows and bytes sum the spans' rows and bytes times their factors.
	rows, bytes float64
	// exact is set when the piece was read whole, exactBytes its bytes;
	// head is the bytes of its first rows when they were read apart (the
	// spans cover the rest of it).
	exact      bool
	exactBytes float64
	head       float64
	// units are its rows read, as units of a ratio estimate of its rows
	// from its bytes (see [ratioSums]).
	units ratioSums
	// prefixes are the top-level prefixes of its rows, for a piece on
	// the pooled map.
	prefixes map[string]bool
	// swept is set when it was swept (see [worker.sweepPiece]): complete
	// is the bytes of the parts read to their ends, cutBytes those of the
	// parts its limit cut short. cutLine is those parts' bytes carried
	// to their ends along the piece's line (each by the share of its
	// part its read covered, as a span cut by its limit is), unless
	// lineless: a read's last row lay where the line does not place it
	// (see [sweptCut.placed]), which then says nothing of what the cut
	// parts hold (see [splitPieces]).
	swept              bool
	complete, cutBytes float64
	cutLine            float64
	lineless           bool
	// cuts are the parts its sweep's limit cut short, for
	// [worker.finishSweep].
	cuts []sweptCut
	// clustered is set when its spans found its rows in far fewer of
	// them than its line says they would (see [spanCounts.clustered]).
	clustered bool
	// headRows is how many rows its head read returned, headShare the
	// share of its line (as it was before the head) that they lie in,
	// and headBlind is set when its line is its kin's and the kin know
	// no key before its head's last row (see [pieceRead.blindHead]).
	headRows  int64
	headShare float64
	headBlind bool
	// evenShare is, for a piece of a prefix of names, its even share of
	// the tablet's bytes (see [pieceRead.estimate]); 0 for others.
	evenShare float64
}

// sweptCut is a part of a swept piece that its limit cut short: the
// read's index among the tablet's reads, the part's place on the piece's
// line and its end key, the last key read and the bytes read.
type sweptCut struct {
	readIndex int
	from, to  float64
	end, last string
	bytes     float64
}

// onLine returns the part's bytes read carried to its end along the
// piece's line, its last row read at readTo on it (past from), as a span
// cut short by its limit is.
func (c sweptCut) onLine(readTo float64) float64 {
	return c.bytes * max(1, (c.to-c.from)/(readTo-c.from))
}

// placed returns where the part's last row read lies on the piece's
// line, and whether the line places it: past the part's start, and, on
// a kin's line, past the first key the kin know (see
// [keyMap.kinBlindBefore]). A line that gives the stretch read next to
// no room carries the few rows read there to the part's end as a
// multitude, and says nothing of what the part holds; the piece is then
// lineless and its cut parts take what the spans leave (see
// [splitPieces]). A sweep of names that starts its prefix reads its
// first names (aaron_…), which the kin learn from the tablets inside
// their prefixes only after the boundary tablets are planned: at 1%,
// the 591 rows the sweep of a prefix of 2,466 rows read there were
// carried to 11.6 MB of its tablet's 11.7 (it holds 0.25 MB), and with
// another such piece took 7.9 MB from a prefix whose spans had its
// 9.2 MB within 11%: 5.69 pp of the table, 3.46 when lineless, and
// 3.65% of the table read at 1% (the carried parts were read on, see
// [worker.finishSweep]), 2.64% when lineless (issue 26's generated shape
// seed 107057000014, 163 prefixes of names).
func (c sweptCut) placed(line segment) (float64, bool) {
	readTo := line.share(c.last)
	return readTo, readTo > c.from && !line.m.kinBlindBefore(c.last)
}

// sweptOnLine reports whether the piece was swept and its cut parts are
// estimated along its line (see [pieceRead.cutLine]).
func (pr *pieceRead) sweptOnLine() bool {
	return pr.swept && pr.cutBytes > 0 && pr.cutLine > 0 && !pr.lineless
}

// estimate returns the piece's bytes by its spans (Horvitz–Thompson:
// every point of its line falls in a span with the chance coverage) and
// their variance: the spans' between one another, and at least that of
// a Poisson count of rows of mean size meanBytes, as many as it holds by
// its spans or as it was expected to hold, whichever is more (so that a
// piece whose spans missed its rows, where its line gave them little
// room, is not taken to be small for certain); for a piece of names, at
// least that of a count of the clusters its spans found, and its share
// of the split (see [pieceEstimate.share]) by that count.
func (pr *pieceRead) estimate(meanBytes, expected float64) pieceEstimate {
	if pr.exact {
		return pieceEstimate{bytes: pr.exactBytes}
	}
	c := max(pr.coverage, 1e-12)
	n := float64(len(pr.values))
	bytes := pr.bytes / c
	var between float64
	if n >= 2 {
		mean := pr.bytes / n
		var squares float64
		for _, v := range pr.values {
			squares += (v - mean) * (v - mean)
		}
		between = max(0, 1-c) * n * squares / (n - 1) / (c * c)
	}
	if pr.units.b > 0 && pr.units.r > 0 {
		meanBytes = pr.units.b / pr.units.r
	}
	rows := max(pr.rows/c, 1/c, expected)
	poisson := meanBytes * meanBytes * rows * max(0, 1-c) / c
	var clusters, share float64
	if pr.evenShare > 0 {
		// Names cluster at points of the line (a user's rows sort
		// together): each span that read a row read about one cluster,
		// and the piece, which may hold its whole even share of the
		// tablet, is known as well as a count of that many clusters.
		hits := 0
		for _, v := range pr.values {
			if v > 0 {
				hits++
			}
		}
		clusters = pr.evenShare * pr.evenShare * max(0, 1-c) / float64(max(hits, 1))
		// Among pieces of names alone, the tablet's bytes are shared out
		// by each piece's own count of clusters, as sure as the spread of
		// names allows (see [namesSpread]): by the even share, the small
		// pieces, of the greatest variance for their size, took what the
		// large ones' spans missed (see [pieceEstimate.share]).
		if hits > 0 {
			share = max(between, poisson, namesSpread*bytes*bytes*max(0, 1-c)/float64(hits), 1e-9)
		}
	}
	own := max(between, poisson, 1e-9)
	return pieceEstimate{bytes: bytes, variance: max(own, clusters), spans: own, share: share}
}

// blindHead reports whether the piece's head lay where its line knows no
// key: a piece on its kin's line (see [keyMaps.judgeKin]) whose head
// read, cut short by its limit, ended before the first key the kin know,
// and whose line gives the head's stretch less than a blindFactor-th of
// the rows the head read. The kin learn their keys from the tablets
// inside a prefix, and every prefix's first names (aaron_…) lie in the
// tablet where it starts, read after the kin learned: the kin's line
// gives those names next to no room, the spans of a piece that starts
// its prefix never fall there, and they agree with one another on an
// estimate that leaves those names out (see [unplaceBlind]).
func (pr *pieceRead) blindHead() bool {
	if !pr.headBlind || pr.exact || pr.swept || pr.headRows < minHeadRows {
		return false
	}
	rows := float64(pr.headRows) + pr.rows/max(pr.coverage, 1e-12)
	return float64(pr.headRows) > blindFactor*pr.headShare*rows
}

// blindFactor is how many times the rows its line gives a piece's head
// the head must have read for the line to be taken as blind there (see
// [pieceRead.blindHead]).
const blindFactor = 8

// unplaceBlind lets the pieces whose heads lay where their line is blind
// (see [pieceRead.blindHead]) take what the others leave (see
// [pieceEstimate.unplace]; among pieces of names alone, by that variance
// too), when the tablet's reads saw less than its bytes (seen < total:
// such a piece's spans can only have missed rows) and some piece the
// split reconciles is not blind. At 10%, the first 42,700 rows of a
// prefix, whose first tenth lay at 0.0000 of its line, came out 38%
// short by its 1,024 spans (12 of their standard deviations), and the
// split handed the rest to the 3,729 rows of the prefix before it (+43%,
// 1.15 pp of the table); taking the rest, 0.3% (0.08 pp): issue 26's
// generated shape seed 64110902, sample seed 64110903, tablet 17. Where
// the reads saw more than the tablet holds, the error is another
// piece's: at 1% in the same tablet, the 5 spans of the smaller piece
// came out twice its size, and the blind piece took 0.77 → 1.94 pp off
// when it took the rest.
func unplaceBlind(est []pieceEstimate, found []pieceRead, total, seen, room float64) {
	if seen >= total {
		return
	}
	blind, sighted := false, false
	for h := range found {
		if reconciled(&found[h]) {
			b := found[h].blindHead()
			blind, sighted = blind || b, sighted || !b
		}
	}
	if !blind || !sighted {
		return
	}
	for h := range found {
		if found[h].blindHead() {
			est[h] = est[h].unplace(room)
			if est[h].share > 0 {
				est[h].share = max(est[h].share, est[h].variance)
			}
		}
	}
}

// unplaceClustered unplaces the pieces whose spans found their rows
// clustered (see [spanCounts.clustered]) where the tablet's reads, as
// they see its bytes (seen), fall short of its total: a line that does
// not know where a piece's rows lie misses them, and the piece takes
// what the others leave. Where the reads overshoot, only a clustered
// piece whose spans' own standard deviation is half its estimate or
// more is unplaced: one that rests on a cluster or two its spans met,
// carried to the piece by their coverage, may be the one over. Among
// pieces of names alone none is unplaced: each shares by its own count
// of clusters (see [pieceEstimate.share]).
//
// A piece of names read in 527 spans came out clustered, as names do,
// and within 6% of its bytes (standard deviation 7%); unplaced where
// the reads overshot (a piece of names beside it came out 26% over), it
// took their excess and fell 53% short, 2.03 pp of the table (issue
// 26's generated shape seed 64110839, the 10% sample; now 0.17 pp).
// Where the reads fall short, a clustered piece of names 30% under by
// its spans still takes the rest: never unplacing pieces of names
// handed it to a piece of 128 rows beside it, as sure as a count of two
// clusters of its even share of the tablet (seed 64110927 at 10%: 0.11
// → 0.67 pp). And a clustered piece whose one span of four that read a
// row put it at 2.1 MB (0.63 truly) still takes an excess (seed
// 64110919 at 1%: 0.48 pp; 0.96 not unplaced).
func unplaceClustered(est []pieceEstimate, found []pieceRead, onlyNames bool, total, seen, room float64) {
	if onlyNames {
		return
	}
	for h := range found {
		pr := &found[h]
		if !pr.clustered || pr.swept || pr.exact {
			continue
		}
		if seen < total || est[h].spans >= est[h].bytes*est[h].bytes/4 {
			est[h] = est[h].unplace(room)
		}
	}
}

// readsSee returns a tablet's bytes as its pieces' reads see them (seen):
// what a piece swept and a piece read whole returned, and the head and
// the spans' estimate (est) of every other piece; and variance, the
// spans' own (see [pieceEstimate.spans]), not the floor of a piece of
// names. A piece read whole counts once: its estimate is its head,
// which was counted twice before (see docs/MEASUREMENTS.md's "A clustered piece
// takes what the others leave"). The rules that unplace a piece
// ([unplaceClustered], [unplaceBlind]) and the re-read of a tablet the
// reads cannot explain weigh seen against the tablet's bytes.
func readsSee(found []pieceRead, est []pieceEstimate) (seen, variance float64) {
	for h := range found {
		pr := &found[h]
		seen += pr.returned()
		if !pr.exact && !pr.swept {
			seen += est[h].bytes
			variance += est[h].spans
		}
	}
	return seen, variance
}

// namesOnlyShares keeps the pieces' shares (see [pieceEstimate.share])
// only where every piece the split reconciles is of names (onlyNames,
// see [namesOnly]):
// beside a piece of other keys, whose spans' variance holds, a piece of
// names keeps the floor of its even share in the split too, its line,
// not its spans, making most of its error. Shares in every tablet made
// 29 of 45 scans of mixed shapes worse at 1% (docs/MEASUREMENTS.md's "Names: a
// kin's line without its prefixes' ends").
func namesOnlyShares(est []pieceEstimate, onlyNames bool) {
	if !onlyNames {
		for h := range est {
			est[h].share = 0
		}
	}
}

// namesOnly reports whether every piece the split reconciles is of names
// (names(h)).
func namesOnly(found []pieceRead, names func(h int) bool) bool {
	for h := range found {
		if reconciled(&found[h]) && !names(h) {
			return false
		}
	}
	return true
}

// sweptCutShort reports whether a piece of a tablet was swept and its
// sweep's limit cut some of its parts short. Those parts hold what the
// tablet's reads did not return, as the parts of a tablet swept on its
// line do (see [worker.sweepTablet]): the tablet is taken at its
// offsets' word, not read again in full. Read again, a tablet of 18 MB
// whose pieces' spans found no row (a prefix of names whose map knew 5
// keys: its sweep came out 0.7% under) made a 0.1% sample read 29% of
// its table (issue 26's generated shape seed 107056138775; with a piece
// beside it read by its spans, 29% in two draws of three at 0.1%, and
// in one at 1%). What a sweep gives up, as on a tablet's line, is the
// re-read's word on an oversized row: one among the rows of a piece read
// by its spans would be taken for the swept parts' rows.
func sweptCutShort(found []pieceRead) bool {
	for h := range found {
		if found[h].swept && found[h].cutBytes > 0 {
			return true
		}
	}
	return false
}

// unreadBytes returns the bytes of a tablet of total bytes that its
// pieces' reads did not return whole: past their heads, their exact
// reads and their swept parts. Unlike the room [splitPieces] shares
// out, it takes what the parts cut short returned as read, whatever the
// line says of them.
func unreadBytes(total float64, found []pieceRead) float64 {
	for h := range found {
		total -= found[h].returned()
	}
	return max(total, 0)
}

// returned returns the bytes the piece's reads returned whole: all of a
// piece read whole, a swept piece's head, complete and cut parts, and
// another piece's head (its spans' bytes are a sample, not returned
// whole).
func (pr *pieceRead) returned() float64 {
	switch {
	case pr.exact:
		return pr.exactBytes
	case pr.swept:
		return pr.head + pr.complete + pr.cutBytes
	}
	return pr.head
}

// namesSpread is how many times its split's variance a piece of names
// adds to its prefix's variance: its interval widens, its estimate stays
// (among pieces of names alone, their shares of the split take it too:
// see [pieceRead.estimate]).
// A line of names squeezes some stretches of names into little width,
// so now and then a span reads ten times the rows its neighbours read,
// and the spread between a piece's spans understates the spread of its
// estimate whenever no such span fell in it. Over the 641 pieces of names
// of six generated shapes (seeds 64110814, 822, 831, 838, 839 and 846, at
// 0.1%, 1% and 10%), the spans' estimate lay 4.3–5.2 of its own standard
// deviations from the truth at the 95th percentile where 20 or more of a
// piece's spans found rows, and 2.3 of the deviations it is given (with
// the floor of a count of clusters, see [pieceRead.estimate]) over all of
// them: four times the variance, twice the deviation, brings the latter
// within 1.96. A swept piece counts it too: left out there, the
// intervals held less often (89.2% of the prefixes at 0.1%, not 93.7%).
// The top-level intervals of eight fresh shapes of names (seeds 64110854
// to 64110910, every eighth) held the truth for 80.6%, 82.6% and 85.2%
// of the prefixes at 0.1%, 1% and 10% before, and 92.3%, 94.8% and 98.7%
// after (docs/MEASUREMENTS.md's "Accuracy on generated shapes").
const namesSpread = 4

// readTag says how the rows of one read of a tablet's pieces are
// weighed: the piece they belong to, and their weight in the piece's
// spans' estimate (their factor over the coverage); drop marks the rows
// of a whole read cut short, which the spans read again.
type readTag struct {
	piece  int
	weight float64
	drop   bool
	// swept marks a part of a swept piece, cut one its row limit cut
	// short; span a span's read, which goes on where its limit cuts it
	// short (see [worker.readSpan]); head the read of a piece's first
	// rows, known exactly.
	swept, cut, span, head bool
}

// readPieces reads tablet i piece by piece (see [tabletPieces]): the
// heads first, the tiny pieces whole, then the others in spans (at least
// minPieceSpans each) on their own lines, names on their kin's line at
// the places their kin share (see [plan.kinPositions]); then it splits
// the tablet's bytes among the pieces by model and spans
// ([splitPieces]), and a piece whose spans read no row though it holds
// bytes is read from its first row for rows to carry them. Each row
// stands for its piece's bytes over the bytes its reads returned; each
// piece's variance goes to its prefix.
func (w *worker) readPieces(ctx context.Context, i int, pieces tabletPieces) error {
	s := w.s
	plan := s.plan.tablets[i]
	tablet := s.plan.ranges[i]
	rng := rand.New(rand.NewPCG(s.plan.seed+uint64(i), positionSeedStream))
	budgets := budgetPieces(plan, pieces, plan.rowBytes, s.plan.fraction, s.plan.spanRowsOf)
	r := w.tabletReader(i)
	r.tagging = true
	reads := make([]readTag, 0, 4*len(pieces))
	found := make([]pieceRead, len(pieces))
	sounding := s.sounding(i)
	spread := make([]spanCounts, len(pieces)) // the pieces' spans' counts: clustered? and, sounding, their spread
	// read reads [start, end) with a row limit (none when 0) as a read of
	// piece h, and returns the rows it returned and the last one's key;
	// a span's read goes on where its limit cuts it short (see
	// [worker.readSpan]), and cut says whether it still was.
	var cut bool
	read := func(h int, start, end string, limit int64, tag readTag) (returned int64, bytes float64, last string, err error) {
		r.tag = float64(len(reads))
		reads = append(reads, tag)
		pr := &found[h]
		rounds := 0
		if tag.span && pr.units.r < continueWithin*budgets[h].coverage*budgets[h].rows {
			rounds = spanContinuations // while the piece has budget left
		}
		cut, err = w.readOn(ctx, start, end, limit, rounds, func(row bigtable.Row) {
			rows, logical, seen := r.rows, r.logical, r.seen
			w.add(r, row)
			returned++
			last = row.Key()
			bytes += float64(r.seen - seen)
			if r.rows > rows {
				pr.units.add(1, float64(r.logical-logical), float64(r.seen-seen))
				if pieces[h].prefix == "" {
					if pr.prefixes == nil {
						pr.prefixes = map[string]bool{}
					}
					pr.prefixes[s.top(row.Key())] = true
				}
			}
		})
		return returned, bytes, last, err
	}
	for h, pc := range pieces {
		b := &budgets[h]
		pr := &found[h]
		if s.plan.namesPiece(pc) {
			pr.evenShare = float64(tablet.SampledBytes) / float64(len(pieces))
		}
		// A piece without a sure model is read from its first key first:
		// a tiny one is then counted exactly, and of a larger one the rows
		// read are its head, known exactly, which says how many rows it
		// holds (as far as its line is even), and its spans are spread
		// over the rest of its line.
		if b.headLimit > 0 {
			stop := pc.to
			if pc.stop != "" && (pc.to == "" || pc.stop < pc.to) {
				stop = pc.stop
			}
			// The head, and when it says that the rest is small, the rest
			// too, with a limit in case the line misled it.
			limit := b.headLimit
			headLine := pc.line
			for round := 0; ; round++ {
				returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
					return read(h, pc.from, stop, limit, readTag{piece: h, head: true})
				})
				if err != nil {
					return err
				}
				pr.head += bytes
				pr.headRows += returned
				if returned < limit {
					pr.exact, pr.exactBytes = true, pr.head
					break
				}
				// The rows its head's size counts in the tablet's bytes (a
				// head read without values says nothing of that size).
				headBytes := bytes
				if s.opts.StripValues {
					headBytes = 0
				}
				names := s.plan.namesPiece(pc)
				if u := pc.line.share(last); u > 0 && u < 1 && !(pc.model.relVar > 0 && pc.model.relVar <= confidentModel) {
					most := plan.rows
					if names {
						most = evenShareRows(plan, 1, headBytes, returned)
					}
					b.rows = min(float64(returned)/u*(1-u), most)
				}
				if names {
					// A line of names places a head's few rows too
					// unevenly to say how many follow: the piece keeps at
					// least its even share of the tablet's bytes, in rows
					// of its head's size (a prefix of rows a tenth the
					// size of its neighbours' holds ten times as many rows
					// in the same bytes as the tablet's plan counts, and
					// spans limited for the plan's rows would be cut
					// short).
					b.rows = max(b.rows, evenShareRows(plan, len(pieces), headBytes, returned))
				}
				pr.headShare = headLine.share(last)
				pr.headBlind = headLine.m.kinBlindBefore(last)
				pc.from = last + "\x00"
				pc.line = s.plan.lineOf(pc)
				if round > 0 || b.rows > wholeRestFactor*float64(b.headLimit) {
					break
				}
				limit = 2 * wholeRestFactor * b.headLimit
			}
			if pr.exact {
				continue
			}
			pieces[h].from, pieces[h].line = pc.from, pc.line // for the sweep
			b.fit()
		}
	}
	kin := s.plan.kinPositions(i, pieces, found, budgets)
	for h, pc := range pieces {
		b := &budgets[h]
		pr := &found[h]
		if pr.exact {
			continue
		}
		width := b.coverage / float64(b.spans)
		// The spans, one in every n-th of the line from a random place of
		// it (see [stratified]): every point of the line falls in one with
		// the same chance, the coverage. Names on their kin's line take
		// the places their kin in the tablet share.
		var spanReads []int
		values := make([]float64, b.spans)
		spread[h] = newSpanCounts(b.spans)
		after := ""
		parts := kin.parts(h)
		if parts == nil {
			parts = stratified(b.spans, width, rng)
		}
		for _, pt := range parts {
			start, end, empty := spanKeys(pc.line.at, pt.from, pt.to, pc.from, pc.to, after)
			spread[h].placed(pt, empty, after, pc.line.at)
			if empty {
				continue
			}
			after = end
			k := len(reads)
			returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
				return read(h, start, end, b.limit, readTag{piece: h, span: true})
			})
			if err != nil {
				return err
			}
			factor := 1.0
			if cut {
				factor = cutFactor(pt.from, pt.to, pc.line.share(last), returned)
			}
			spread[h].read(pt, returned, cut)
			reads[k].weight = factor
			spanReads = append(spanReads, k)
			values[pt.unit] += factor * bytes
			pr.rows += factor * float64(returned)
			pr.bytes += factor * bytes
		}
		pr.values = values
		if kin.parts(h) != nil {
			pr.values = unitsPlaced(values, parts)
		}
		pr.coverage = float64(b.spans) * width
		for _, k := range spanReads {
			reads[k].weight /= pr.coverage
		}
		pr.clustered = spread[h].clustered()
	}

	// A piece whose spans read no row though they were placed on its
	// line holds its rows where its line puts next to none (names its
	// prefix's key map knows too few of): it is swept (see
	// [worker.sweepPiece]), from 0.5% up within its share of the
	// tablet's plan (see [sweepBudget]).
	for h, pc := range pieces {
		if pr := &found[h]; !pr.exact && pr.rows == 0 {
			b := budgets[h]
			if s.plan.fraction >= thinFraction {
				b = sweepBudget(b, plan.readRows, len(pieces))
			}
			if err := w.sweepPiece(ctx, r, h, pc, b, pr, &reads, read); err != nil {
				return err
			}
		}
	}

	// A swept piece whose line carries its cut parts past every byte the
	// tablet's reads did not hold has them read on, each with up to the
	// tablet's planned rows; the bytes not held are counted again for
	// each piece, after the reads of the ones before it.
	for h := range pieces {
		if pr := &found[h]; pr.sweptOnLine() && pr.cutLine-pr.cutBytes > unreadBytes(float64(tablet.SampledBytes), found) {
			if err := w.finishSweep(ctx, r, h, pieces[h], pr, int64(math.Ceil(plan.readRows)), &reads, read); err != nil {
				return err
			}
		}
	}

	// The tablet's bytes split among the pieces: each piece's estimate of
	// its bytes past its head, by its spans and, at the end of a prefix
	// that fills tablets of its own, by the model.
	total := float64(tablet.SampledBytes)
	room := unreadBytes(total, found)
	est := make([]pieceEstimate, len(pieces))
	names := func(h int) bool { return s.plan.namesPiece(pieces[h]) }
	onlyNames := namesOnly(found, names)
	for h := range pieces {
		pr := &found[h]
		if pr.swept {
			if pr.sweptOnLine() {
				// Past what was read, as uncertain as it is large: the
				// line's own estimate, which the pieces' reconciliation
				// weighs against the spans' (see [splitPieces]), and,
				// with its variance (the line's estimate squared), never
				// past the bytes the tablet's reads did not hold: a line
				// that knew next to none of a prefix's names carried a
				// piece's cut parts to 10¹² bytes and more in a tablet of
				// 2·10⁷; of three such pieces, the two carried furthest
				// came out 98% short and the third took nearly all the
				// tablet's rest (a prefix of 719 kB came out at 11.9 MB,
				// 15.9 pp: the 0.1% sample of seed 64110878, docs/MEASUREMENTS.md's
				// "Names: a kin's line without its prefixes' ends").
				line := min(pr.cutLine, room)
				est[h] = pieceEstimate{bytes: min(pr.cutLine-pr.cutBytes, room), variance: line * line}
			}
			continue
		}
		est[h] = pr.estimate(plan.rowBytes, budgets[h].rows)
	}
	spansSee, seeVariance := readsSee(found, est)
	unplaceClustered(est, found, onlyNames, total, spansSee, room)
	for h := range pieces {
		pr := &found[h]
		if pr.exact || pr.swept {
			continue
		}
		// A piece of names has no density model but may have its kin's
		// profile, weighed by its variance alone: [combine]'s rule that
		// spans far from a density model understate their own variance
		// assumes a model known to a few percent, which the profile's
		// predictions of the first and last names (only boundary tablets
		// reach them) are not; measured, the rule moved no fraction's
		// median or mean error by more than 0.04 pp (docs/MEASUREMENTS.md's
		// "Names: the kin's profile").
		if m := pieces[h].model; m.relVar > 0 {
			est[h] = combine(est[h], m.past(pr.head))
		} else if m := pieces[h].profile; m.relVar > 0 {
			est[h] = weigh(est[h], m.past(pr.head))
		}
	}
	unplaceBlind(est, found, total, spansSee, room)
	namesOnlyShares(est, onlyNames)
	bytes, variances, scales := splitPieces(total, est, found)
	if s.opts.StripValues {
		bytes = make([]float64, len(pieces)) // no bytes read: the spans' rows alone
	}

	if s.opts.debugPieces != nil {
		s.opts.debugPieces(i, pieces, budgets, found, est, bytes)
	}
	// The weights.
	weights := make([]float64, len(reads))
	for k, tag := range reads {
		h := tag.piece
		pr := &found[h]
		switch {
		case tag.drop:
			weights[k] = -1
		case pr.exact || tag.head:
			weights[k] = 1
		case tag.swept:
			weights[k] = 1
			if tag.cut {
				weights[k] = scales[h]
			}
		case pr.bytes > 0 && !s.opts.StripValues:
			weights[k] = tag.weight * (bytes[h] - pr.head) / (pr.bytes / max(pr.coverage, 1e-12))
		default:
			weights[k] = tag.weight
		}
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		kept := b.rows[:0]
		for _, row := range b.rows {
			if wt := weights[int(row.Weight)]; wt >= 0 {
				row.Weight = wt
				kept = append(kept, row)
			}
		}
		clear(b.rows[len(kept):])
		b.rows = kept
	}
	// As on a tablet's line (see [worker.readLine]), at the top of the
	// reads' 95% interval; but a tablet of a piece swept is taken at its
	// offsets' word, as a tablet swept on its line is (see
	// [sweptCutShort]).
	if !s.opts.StripValues && !sweptCutShort(found) && unexplained(tablet.SampledBytes, spansSee+keyspace.Z95*math.Sqrt(seeVariance), s.plan.rescanFloor) {
		if !s.mayReread(tablet.SampledBytes) {
			r.unexplained = true // the read cap is spent: the reads stand
		} else {
			return w.rereadTablet(ctx, r, tablet.SampledBytes)
		}
	}

	// Variances: each piece's rows from its bytes (the rows read a sample
	// of its rows), and its share of the split.
	var tabletRows float64
	for h := range pieces {
		if found[h].units.b > 0 {
			tabletRows += bytes[h] * found[h].units.r / found[h].units.b
		}
	}
	meanRho := tabletRows / max(total, 1)
	for h, pc := range pieces {
		pr := &found[h]
		if pr.exact || pr.units.b <= 0 {
			continue
		}
		v := pr.units.variance(bytes[h])
		rho, lambda := pr.units.r/pr.units.b, pr.units.l/pr.units.b
		split := variances[h]
		if s.plan.namesPiece(pc) {
			split *= namesSpread
		}
		piece := variance{rows: v.rows + rho*rho*split, bytes: v.bytes + lambda*lambda*split}
		if pc.prefix != "" {
			r.addPrefixVariance(pc.prefix, piece)
		} else {
			for prefix := range pr.prefixes {
				r.addPrefixVariance(prefix, piece)
			}
		}
		r.variance.add(variance{rows: v.rows + (rho-meanRho)*(rho-meanRho)*variances[h], bytes: v.bytes})
	}
	if sounding {
		// Its pieces' spans measure their prefixes' spread for the
		// tablets read after it (see [refinement]); a piece read whole or
		// swept, or a tablet read again in full above, is not measured,
		// as on a tablet's line, nor one on its kin's places, some of
		// whose spans may lie outside it.
		for h, pc := range pieces {
			if pr := &found[h]; pc.prefix != "" && !pr.exact && !pr.swept && kin.parts(h) == nil {
				s.measuredSpans(i, pc.prefix, spread[h].whole(), true)
			}
		}
	}
	w.release(r)
	w.done(r, false)
	return nil
}

// sweepPiece reads piece h of a tablet whose spans found no row: its line
// cut into as many equal parts as it had spans (at least
// minTabletSpans), each read from its start up to the next part's with a
// row limit of twice a span's budget. A part read to its end holds
// exactly the rows read; the bytes the tablet's other pieces and these
// parts do not account for lie in the parts cut short (see
// [splitPieces]), carried to their ends along the line, or read on
// where the line carries them past the tablet (see
// [worker.finishSweep]).
func (w *worker) sweepPiece(ctx context.Context, r *rangeReader, h int, pc piece, b pieceBudget, pr *pieceRead, reads *[]readTag,
	read func(h int, start, end string, limit int64, tag readTag) (int64, float64, string, error)) error {
	parts, limit := b.sweep()
	pr.swept = true
	after := ""
	for j := range parts {
		start, end, empty := spanKeys(pc.line.at, float64(j)/float64(parts), float64(j+1)/float64(parts), pc.from, pc.to, after)
		if empty {
			continue
		}
		after = end
		k := len(*reads)
		returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
			return read(h, start, end, limit, readTag{piece: h, swept: true})
		})
		if err != nil {
			return err
		}
		if returned >= limit {
			(*reads)[k].cut = true
			pr.cutBytes += bytes
			c := sweptCut{readIndex: k, from: float64(j) / float64(parts), to: float64(j+1) / float64(parts), end: end, last: last, bytes: bytes}
			if readTo, placed := c.placed(pc.line); placed {
				pr.cutLine += c.onLine(readTo)
			} else {
				pr.lineless = true
			}
			pr.cuts = append(pr.cuts, c)
		} else {
			pr.complete += bytes
		}
	}
	return nil
}

// finishSweep reads on the parts of swept piece h that its limit cut
// short, from their last rows, with rows to read among them. It is
// called when the line carried them past every byte its tablet's reads
// did not hold: such a line says nothing of them, and its estimate, as
// uncertain as it is large, would take all that the other pieces'
// estimates leave in [splitPieces] (a tiny prefix of 282 rows, 9.7 kB,
// carried to 947 GB, took 156 kB of its tablet; taking the parts to
// hold as much again as they read instead left a prefix of 6,983 rows
// 98% short: see docs/MEASUREMENTS.md's "Accuracy on generated shapes"), so what
// they hold is read rather than guessed. A part read to its end holds
// exactly its rows; one cut short again is carried along the line from
// its new last row.
func (w *worker) finishSweep(ctx context.Context, r *rangeReader, h int, pc piece, pr *pieceRead, rows int64, reads *[]readTag,
	read func(h int, start, end string, limit int64, tag readTag) (int64, float64, string, error)) error {
	cuts := pr.cuts
	limit := max(rows/int64(max(len(cuts), 1)), minSpanRows)
	pr.cuts, pr.cutLine = nil, 0
	for _, c := range cuts {
		k := len(*reads)
		returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
			return read(h, c.last+"\x00", c.end, limit, readTag{piece: h, swept: true})
		})
		if err != nil {
			return err
		}
		if returned < limit {
			(*reads)[c.readIndex].cut = false
			pr.complete += c.bytes + bytes
			continue
		}
		(*reads)[k].cut = true
		c.readIndex, c.last, c.bytes = k, last, c.bytes+bytes
		// The line is monotone and the new last row lies past the old,
		// which lay past the part's start (else the piece was lineless
		// and not read on).
		pr.cutLine += c.onLine(pc.line.share(last))
		pr.cuts = append(pr.cuts, c)
	}
	// The parts still cut short hold what was read of them, summed
	// afresh, so that a part read to its end leaves no remainder.
	pr.cutBytes = 0
	for _, c := range pr.cuts {
		pr.cutBytes += c.bytes
	}
	return nil
}

// sweep returns how a sweep of a piece of budget b reads it (see
// [worker.sweepPiece]): in parts, each with a row limit of twice a
// span's budget.
func (b pieceBudget) sweep() (parts int, limit int64) {
	return max(b.spans, minTabletSpans), b.limit / spanLimitFactor * 2
}

// sweepBudget returns the budget of a sweep of a piece of budget b
// among n pieces of a tablet whose plan reads plan rows: b's, unless
// its parts' limits would read more than sweepShare times the piece's
// even share of the plan; then as many parts, each of as many rows, as
// that share allows (at least minTabletSpans parts of 2·minSpanRows).
//
// A piece of names keeps at least its even share of its tablet's bytes
// in rows of its head's size (see [worker.readPieces]), so a prefix of
// small rows in a tablet of many plans many times the rows its tablet
// does; where its spans find none, its sweep used to read up to twice
// them. A generated shape of names in 195 prefixes over 21 tablets
// (seed 107068213838) read 3.13% of its rows at 1%, sweeps 14,850 of
// them, one piece planning 77 parts of 34 rows; capped, it reads
// 1.39%, with the worst error 3.49 → 3.47 pp and 118 of 125 intervals
// holding the truth, not 113. Over the 60 scans of names at 1% of the
// README's figures (seeds 64110811, 64110900, 64111000) the most read
// fell from 1.66% to 1.58%, 15 scans within the bounds as before, two
// better by more than 0.05 pp and one worse; the 48 scans without names
// did not change. Below thinFraction it is not capped: at 0.1% a
// tablet's plan is a few rows a piece, the capped parts were cut short
// and carried along lines of names that do not know them, and 11 of
// those 60 scans came out worse by more than 0.05 pp (two from 2.7 to
// 6.2–6.5 pp), 5 better; issue 26 bounds only a 1% sample's reads.
func sweepBudget(b pieceBudget, plan float64, n int) pieceBudget {
	most := sweepShare * plan / float64(max(n, 1))
	if parts, limit := b.sweep(); float64(parts)*float64(limit) <= most {
		return b
	}
	b.spans = max(minTabletSpans, min(b.spans, int(most/(2*minSpanRows))))
	b.limit = spanLimitFactor * max(minSpanRows, int64(most/float64(2*b.spans)))
	return b
}

// sweepShare is how many times its even share of its tablet's planned
// reads a sweep of a piece may read (see [sweepBudget]).
const sweepShare = 2

// readOrAbandon runs a read of r's tablet, and hands on what r read when
// it fails.
func (w *worker) readOrAbandon(r *rangeReader, read func() (int64, float64, string, error)) (int64, float64, string, error) {
	returned, bytes, last, err := read()
	if err != nil {
		w.abandon(r)
	}
	return returned, bytes, last, err
}

// evenShareRows is the rows a piece of a tablet of n pieces holds if it
// holds an even share of the tablet's bytes in rows of the size of its
// head (returned rows of headBytes in offset units), the plan's size
// when the head says nothing.
func evenShareRows(plan tabletPlan, n int, headBytes float64, returned int64) float64 {
	even := plan.rows / float64(max(n, 1))
	if returned <= 0 || headBytes <= 0 || plan.rowBytes <= 0 {
		return even
	}
	return even * plan.rowBytes / (headBytes / float64(returned))
}
