package sampler

import (
	"context"
	"math"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/keyspace"
)

// pieceBudget is how one piece of a tablet is read: whole (a tiny
// prefix), or in spans of budget rows each, with a row limit; rows is
// what it is expected to hold.
type pieceBudget struct {
	rows          float64
	whole         bool
	spans         int
	budget, limit int64
}

// confidentModel is the largest relative variance of a model's
// prediction that the budgets of a tablet's pieces follow (a 20% error);
// a piece predicted less surely gets an even share of the rest.
const confidentModel = 0.04

// pieceSpanRows is how many rows a span of a piece aims to read: fewer
// than a tablet's (spanRows), for more spans in a piece, whose line (the
// end of a prefix, or a small one) its key map knows less well than a
// tablet's inside a prefix, and whose estimate has no tablet's bytes to
// lean on.
const pieceSpanRows = 16

// minPieceSpans is the fewest spans a piece not read whole gets, so that
// its estimate has a variance of its own.
const minPieceSpans = 2

// budgetPieces shares the rows a tablet's plan reads among its pieces in
// proportion to the rows each is expected to hold: what the model
// predicts (see [densityModel]), and for the others an even share of
// the rest of the tablet. Each gets at least minPieceSpans spans of
// minSpanRows rows, and a piece its spans would about cover is read
// whole.
func budgetPieces(plan tabletPlan, pieces tabletPieces, rowBytes float64) []pieceBudget {
	budgets := make([]pieceBudget, len(pieces))
	var known float64
	unknown := 0
	confident := func(pc piece) bool { return pc.model.relVar > 0 && pc.model.relVar <= confidentModel && rowBytes > 0 }
	for h, pc := range pieces {
		if confident(pc) {
			budgets[h].rows = pc.model.bytes / rowBytes
			known += budgets[h].rows
		} else {
			unknown++
		}
	}
	rest := max(plan.rows-known, 0)
	total := float64(int64(plan.spans) * plan.budget)
	for h := range budgets {
		b := &budgets[h]
		if !confident(pieces[h]) {
			b.rows = rest / float64(max(unknown, 1))
		}
		rows := max(total*b.rows/max(plan.rows, 1), minPieceSpans*minSpanRows)
		b.spans = max(minPieceSpans, int(math.Round(rows/pieceSpanRows)))
		b.budget = max(minSpanRows, int64(math.Ceil(rows/float64(b.spans))))
		b.limit = spanLimitFactor * b.budget
		b.whole = b.rows <= float64(int64(b.spans)*b.budget)
	}
	return budgets
}

// wholeLimit is the row limit of a piece read whole: if the piece holds
// more, it is read in spans after all.
func (b pieceBudget) wholeLimit() int64 {
	return 2*int64(b.spans)*b.budget + minSpanRows
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
	// parts its limit cut short.
	swept              bool
	complete, cutBytes float64
}

// estimate returns the piece's bytes by its spans (Horvitz–Thompson:
// every point of its line falls in a span with the chance coverage) and
// their variance: the spans' between one another, and at least that of
// a Poisson count of rows of mean size meanBytes (of one row when it
// read none, so that a piece whose spans missed every row is not taken
// to be empty for certain).
func (pr *pieceRead) estimate(meanBytes float64) pieceEstimate {
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
	rows := max(pr.rows/c, 1/c)
	poisson := meanBytes * meanBytes * rows * max(0, 1-c) / c
	return pieceEstimate{bytes: bytes, variance: max(between, poisson, 1e-9)}
}

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
// tiny pieces whole, the others in spans (at least minPieceSpans each)
// on their own lines; then it splits the tablet's bytes among the pieces
// by model and spans ([splitTablet]), and a piece whose spans read no row
// though it holds bytes is read from its first row for rows to carry
// them. Each row stands for its piece's bytes over the bytes its reads
// returned; each piece's variance goes to its prefix.
func (w *worker) readPieces(ctx context.Context, i int, pieces tabletPieces) error {
	s := w.s
	plan := s.plan.tablets[i]
	tablet := s.plan.ranges[i]
	rng := rand.New(rand.NewPCG(s.plan.seed+uint64(i), positionSeedStream))
	budgets := budgetPieces(plan, pieces, plan.rowBytes)
	r := w.tabletReader(i)
	r.tagging = true
	reads := make([]readTag, 0, 4*len(pieces))
	found := make([]pieceRead, len(pieces))
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
		if tag.span && pr.units.r < continueWithin*float64(int64(budgets[h].spans)*budgets[h].budget) {
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
		b := budgets[h]
		pr := &found[h]
		// A piece inside the tablet (a whole prefix) is read from its
		// first row first: a tiny one is then counted exactly, and of a
		// larger one the rows read are its head, known exactly, and the
		// spans are spread over the rest of its line.
		if b.whole || h > 0 && h < len(pieces)-1 {
			from, stop := pc.from, pc.to
			if pc.stop != "" && (pc.to == "" || pc.stop < pc.to) {
				stop = pc.stop
			}
			limit := b.wholeLimit()
			if !b.whole {
				limit = b.budget
			}
			returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
				return read(h, from, stop, limit, readTag{piece: h, head: true})
			})
			if err != nil {
				return err
			}
			if returned < limit {
				pr.exact, pr.exactBytes = true, bytes
				continue
			}
			pr.head = bytes
			// The head's share of the piece's line says how many rows the
			// piece holds, as far as the line is even.
			if u := pc.line.share(last); u > 0 && u < 1 {
				b.rows = float64(returned) / u * (1 - u)
			}
			pc.from = last + "\x00"
			pc.line = s.plan.lineOf(pc)
			pieces[h].from, pieces[h].line = pc.from, pc.line // for the sweep
		}
		width := 1 / float64(2*b.spans)
		if b.rows > 0 {
			width = min(float64(b.budget)/b.rows, 1/float64(b.spans))
		}
		// The spans' keys, in order (none overlaps the one before), then
		// read span by span in a random order until the piece has read
		// its budget: the spans read are then a random few of the
		// systematic ones, and every point of the line still falls in one
		// with the same chance, so many times width as spans were read.
		// A piece whose line puts fewer rows in a span than it holds (its
		// rows were not known) would otherwise read several times its
		// budget.
		type spanKeysOf struct {
			pt         part
			start, end string
		}
		byUnit := make([][]spanKeysOf, b.spans)
		after := ""
		for _, pt := range systematic(b.spans, width, rng) {
			start, end, empty := spanKeys(pc.line.at, pt.from, pt.to, pc.from, pc.to, after)
			if !empty {
				after = end
				byUnit[pt.unit] = append(byUnit[pt.unit], spanKeysOf{pt, start, end})
			}
		}
		order := rng.Perm(b.spans)
		budget := continueWithin * float64(int64(b.spans)*b.budget)
		var spanReads []int
		units := 0
		for _, u := range order {
			if units >= minPieceSpans && pr.units.r >= budget {
				break
			}
			units++
			value := 0.0
			for _, sk := range byUnit[u] {
				k := len(reads)
				returned, bytes, last, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
					return read(h, sk.start, sk.end, b.limit, readTag{piece: h, span: true})
				})
				if err != nil {
					return err
				}
				factor := 1.0
				if cut {
					if readTo := pc.line.share(last); readTo > sk.pt.from {
						factor = min(maxTruncationFactor, max(1, (sk.pt.to-sk.pt.from)/(readTo-sk.pt.from)))
					}
				}
				reads[k].weight = factor
				spanReads = append(spanReads, k)
				value += factor * bytes
				pr.rows += factor * float64(returned)
				pr.bytes += factor * bytes
			}
			pr.values = append(pr.values, value)
		}
		pr.coverage = float64(units) * width
		for _, k := range spanReads {
			reads[k].weight /= pr.coverage
		}
	}

	// A piece whose spans read no row though they were placed on its
	// line holds its rows where its line puts next to none (names its
	// prefix's key map knows too few of): it is swept (see
	// [worker.sweepPiece]).
	for h, pc := range pieces {
		if pr := &found[h]; !pr.exact && pr.units.r == 0 {
			if err := w.sweepPiece(ctx, r, h, pc, budgets[h], pr, &reads, read); err != nil {
				return err
			}
		}
	}

	// The tablet's bytes split among the pieces.
	est := make([]pieceEstimate, len(pieces))
	var spansSee, seeVariance float64 // the tablet's bytes as the reads see them
	for h := range pieces {
		pr := &found[h]
		if pr.swept {
			spansSee += pr.complete + pr.cutBytes
			continue
		}
		e := pr.estimate(plan.rowBytes)
		spansSee += e.bytes
		seeVariance += e.variance
		est[h] = combine(e, pieces[h].model)
	}
	total := float64(tablet.SampledBytes)
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
	// reads' 95% interval.
	if !s.opts.StripValues && unexplained(tablet.SampledBytes, spansSee+keyspace.Z95*math.Sqrt(seeVariance), s.plan.rescanFloor) {
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
		piece := variance{rows: v.rows + rho*rho*variances[h], bytes: v.bytes + lambda*lambda*variances[h]}
		if pc.prefix != "" {
			r.addPrefixVariance(pc.prefix, piece)
		} else {
			for prefix := range pr.prefixes {
				r.addPrefixVariance(prefix, piece)
			}
		}
		r.variance.add(variance{rows: v.rows + (rho-meanRho)*(rho-meanRho)*variances[h], bytes: v.bytes})
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
// [splitPieces]).
func (w *worker) sweepPiece(ctx context.Context, r *rangeReader, h int, pc piece, b pieceBudget, pr *pieceRead, reads *[]readTag,
	read func(h int, start, end string, limit int64, tag readTag) (int64, float64, string, error)) error {
	parts, limit := max(b.spans, minTabletSpans), 2*b.budget
	pr.swept = true
	after := ""
	for j := range parts {
		start, end, empty := spanKeys(pc.line.at, float64(j)/float64(parts), float64(j+1)/float64(parts), pc.from, pc.to, after)
		if empty {
			continue
		}
		after = end
		k := len(*reads)
		returned, bytes, _, err := w.readOrAbandon(r, func() (int64, float64, string, error) {
			return read(h, start, end, limit, readTag{piece: h, swept: true})
		})
		if err != nil {
			return err
		}
		if returned >= limit {
			(*reads)[k].cut = true
			pr.cutBytes += bytes
		} else {
			pr.complete += bytes
		}
	}
	return nil
}

// readOrAbandon runs a read of r's tablet, and hands on what r read when
// it fails.
func (w *worker) readOrAbandon(r *rangeReader, read func() (int64, float64, string, error)) (int64, float64, string, error) {
	returned, bytes, last, err := read()
	if err != nil {
		w.abandon(r)
	}
	return returned, bytes, last, err
}
