package sampler

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// maxTruncationFactor bounds how many times its own rows a span cut
// short by its row limits stands for.
const maxTruncationFactor = 4

// cutFactor returns how many times its own rows a span [from, to) of a
// line stands for when its row limit cut it short after returned rows,
// the last at readTo: (returned−1)/returned times the span's width over
// the width read, at least 1 and at most maxTruncationFactor. The rows'
// places along the line are taken to fall at random (a Poisson process):
// the width that holds n rows then varies about its mean, and the width
// over it, a convex function of it, comes out too large on average, by
// n/(n−1) (an estimate from a span cut at 16 rows was 6.7% high).
// Counting one row less makes the span's estimate unbiased, whether it
// was cut or not, but for the bounds: the floor of 1 adds about 0.2%
// where a span's limit is its mean (see TestCutSpansAreUnbiased).
func cutFactor(from, to, readTo float64, returned int64) float64 {
	if readTo <= from || returned < 1 {
		return 1
	}
	f := (to - from) / (readTo - from) * float64(returned-1) / float64(returned)
	return min(maxTruncationFactor, max(1, f))
}

// spanContinuations is how many more reads a span whose row limit cut it
// short gets, each of spanContinuationFactor times its limit, before the
// rest of it is taken to be like what it read: a span that fell on a
// cluster of keys its line gave little room to (a user's rows, among
// names) would otherwise stand for the whole span at the cluster's
// density, a user read in full made sixty times larger (a hot-key-range
// on a user no hotter than the rest). A span reads on only while its
// tablet's (or piece's) spans have read less than continueWithin times
// their budget, so that a sample reads about its fraction (at 1%, at
// most 1.5% of the rows with the probes and the reads that cut tablets
// into pieces).
const (
	spanContinuations      = 1
	spanContinuationFactor = 3
	continueWithin         = 1.2
)

// readSpan reads the rows of [start, end) into each, up to limit, and
// when the limit cuts it short goes on from its last row, up to
// spanContinuations times with spanContinuationFactor times the limit;
// it reports whether the span was still cut short.
func (w *worker) readSpan(ctx context.Context, start, end string, limit int64, each func(bigtable.Row)) (cut bool, err error) {
	return w.readOn(ctx, start, end, limit, spanContinuations, each)
}

// readOn reads the rows of [start, end) into each, up to limit, and
// while the limit cuts it short goes on from its last row, up to
// rounds times, with spanContinuationFactor times the limit each time;
// it reports whether the read was still cut short.
func (w *worker) readOn(ctx context.Context, start, end string, limit int64, rounds int, each func(bigtable.Row)) (cut bool, err error) {
	for round := 0; ; round++ {
		var returned int64
		var last string
		err := w.s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
			each(row)
			returned++
			last = row.Key()
			return true
		}, w.s.readOptions(false, limit)...)
		if err != nil || returned < limit {
			return false, err
		}
		if round == rounds {
			return true, nil
		}
		start, limit = last+"\x00", limit*spanContinuationFactor
	}
}

// readTablet reads tablet i of a position sample (see [planTablet]): in
// full when it is small, else on its one line (see [worker.readLine])
// or piece by piece (see [worker.readPieces]). name is its key range.
func (w *worker) readTablet(ctx context.Context, i int, name string) error {
	s := w.s
	if pieces := s.plan.pieces[i]; len(pieces) > 1 && !s.plan.tablets[i].whole {
		if err := s.refined(ctx); err != nil {
			return err
		}
		if !s.sounding(i) {
			if err := s.soundingDone(ctx); err != nil {
				return err
			}
		}
		w.watch.begin(w.id, name)
		defer w.watch.end(w.id)
		err := w.readPieces(ctx, i, s.plan.pieces[i])
		if err == nil && s.sounding(i) {
			s.sounded() // a failure stops the scan, and the tablets waiting with it
		}
		return err
	}
	var keys [][]string
	defer func() { s.learned(keys) }()
	if s.plan.tablets[i].whole {
		return w.readUnit(ctx, unit{i, i + 1}, name)
	}
	w.watch.begin(w.id, name)
	defer w.watch.end(w.id)
	return w.readLine(ctx, i, s.plan.pieces[i][0], &keys)
}

// tabletReader returns the reader of tablet i's rows, held back until
// their weights are known, clipped to the scan's bounds when they cut
// the tablet.
func (w *worker) tabletReader(i int) *rangeReader {
	s := w.s
	tablet := s.plan.ranges[i]
	r := &rangeReader{index: i, estimate: s.plan.tablets[i].readBytes, weight: 1, pass: passFirst, holding: true}
	if whole := s.plan.wholeTablets[i]; whole != [2]string{string(tablet.Start), string(tablet.End)} {
		r.clip = &bounds{start: string(tablet.Start), end: string(tablet.End)}
	}
	return r
}

// spanKeys returns the keys [start, end) of the part [from, to) of a
// line whose keys lie in [lineFrom, lineTo) (an empty lineTo, the end of
// the table), starting no earlier than after, where the last read ended:
// reads never overlap. A part whose keys round to one key, or to the
// empty key (the least of all, not the end of the table), is empty.
func spanKeys(at func(float64) string, from, to float64, lineFrom, lineTo, after string) (start, end string, empty bool) {
	start = max(at(from), lineFrom, after)
	if from <= 0 {
		// The line's first key, not the key its first place rounds to,
		// which can lie past it.
		start = max(lineFrom, after)
	}
	end = at(to)
	switch {
	case to >= 1:
		end = lineTo
	case end == "":
		return start, start, true // the least key: nothing lies below it
	case lineTo != "" && end > lineTo:
		end = lineTo
	}
	return start, end, end != "" && end <= start
}

// readLine reads tablet i, a piece of one prefix (or a line on the
// pooled map): spans on its line, then the weights; a tablet whose bytes
// its spans cannot explain is read again in full (or, the read cap
// spent, marked), or swept, and one whose spans found no rows is swept
// (see [judgeLine]).
func (w *worker) readLine(ctx context.Context, i int, pc piece, keys *[][]string) error {
	s := w.s
	plan := s.plan.tablets[i]
	tablet := s.plan.ranges[i]
	line := pc.line
	rng := rand.New(rand.NewPCG(s.plan.seed+uint64(i), positionSeedStream))
	r := w.tabletReader(i)
	names := s.plan.namesPiece(pc)
	// The spans are spread over the line one in every n-th of it, from a
	// random place of that n-th (see [stratified]), each as wide as its
	// budget of the tablet's rows, the line being the keys' order as the
	// key map knows it. Every point of the line falls in a span with the
	// same chance, the coverage, so every row does: the tablet's rows are
	// estimated from the spans' over the coverage, and its bytes share
	// out what the spans saw (a ratio estimator).
	//
	// A span that hit its row limit was read up to its last row only:
	// its rows stand for the span's whole width, factor (at least 1)
	// times their own (the span's rows beyond the limit are taken to be
	// like those before it), so that a span in keys denser than the map
	// expected does not lose the rest of them.
	width := min(float64(plan.budget)/max(plan.rows, 1), 1/float64(plan.spans))
	coverage := float64(plan.spans) * width
	units := make([][3]float64, plan.spans) // each span's rows, logical and offset bytes, scaled
	counts := newSpanCounts(plan.spans)     // each span's rows as read, for [dispersion]
	var spanRows int64
	var starts []string
	var factors []float64
	after := "" // where the last read ended
	for _, pt := range stratified(plan.spans, width, rng) {
		start, end, empty := spanKeys(line.at, pt.from, pt.to, pc.from, pc.to, after)
		counts.placed(pt, empty, after, line.at)
		if empty {
			continue // no key lies in it: no rows
		}
		after = end
		rows, logical, bytes := r.rows, r.logical, r.seen
		var returned int64
		var run []string // the span's first key, and every key of names
		var last string
		rounds := 0
		if float64(spanRows) < continueWithin*float64(int64(plan.spans)*plan.budget) {
			rounds = spanContinuations // while the tablet has budget left
		}
		cut, err := w.readOn(ctx, start, end, plan.limit, rounds, func(row bigtable.Row) {
			w.add(r, row)
			if returned == 0 || names { // a names map wants every name it can get
				run = append(run, row.Key())
			}
			returned++
			last = row.Key()
		})
		if err != nil {
			w.abandon(r)
			return err
		}
		spanRows += returned
		if returned > 0 {
			*keys = append(*keys, run)
		}
		factor := 1.0
		if cut {
			factor = cutFactor(pt.from, pt.to, line.share(last), returned)
		}
		counts.read(pt, returned, cut)
		starts, factors = append(starts, start), append(factors, factor)
		scale := factor / coverage
		u := &units[pt.unit]
		u[0] += scale * float64(r.rows-rows)
		u[1] += scale * float64(r.logical-logical)
		u[2] += scale * float64(r.seen-bytes)
	}
	var sums ratioSums
	for _, u := range units {
		sums.add(u[0], u[1], u[2])
	}
	top := sums.b + keyspace.Z95*spanSpread(units)
	verdict := judgeLine(tablet.SampledBytes, top, spanRows, names, s.opts.StripValues, s.plan.rescanFloor)
	if verdict == sweepLine {
		if s.opts.debugSweep != nil {
			s.opts.debugSweep(i, spanRows)
		}
		return w.sweepTablet(ctx, r, line, pc, plan, tablet.SampledBytes)
	}
	// sums.b is the tablet's bytes as its spans see them.
	weight := 1 / max(coverage, 1e-12)
	if sums.b > 0 {
		weight *= float64(tablet.SampledBytes) / sums.b
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		for j := range b.rows {
			k := max(readOf(starts, b.rows[j].Key), 0)
			b.rows[j].Weight = weight * factors[k]
		}
	}
	if verdict == rereadLine {
		if !s.mayReread(tablet.SampledBytes) {
			r.unexplained = true // the read cap is spent: the spans stand
		} else {
			return w.rereadTablet(ctx, r, tablet.SampledBytes)
		}
	}
	if sums.b > 0 {
		r.variance = sums.variance(float64(tablet.SampledBytes))
	}
	r.addPrefixVariance(pc.prefix, r.variance)
	if pc.prefix != "" {
		// A tablet swept or read again in full above is not measured:
		// its spans missed what it holds, and their spread says little.
		s.measuredSpans(i, pc.prefix, counts.whole(), false)
	}
	w.release(r)
	w.done(r, false)
	return nil
}

// lineVerdict is what becomes of a tablet read on one line once its
// spans are read (see [worker.readLine]).
type lineVerdict int

const (
	keepLine   lineVerdict = iota // the spans' rows stand for the tablet
	sweepLine                     // swept (see [worker.sweepTablet])
	rereadLine                    // read again in full (see [unexplained])
)

// judgeLine returns what becomes of a tablet of bytes (in offset units)
// whose spans read spanRows rows and put it at top bytes at the top of
// their 95% interval: its spans' bytes can fall short of the tablet's by
// chance when its keys cluster where the line gives them little room,
// so only what no span could have missed by chance (see [unexplained],
// at floor) is read again in full, an oversized row most likely. A
// tablet whose spans read no rows is swept, and so is one they cannot
// explain when they read fewer than fewSpanRows rows, or lie on a line
// of names (names) and fall short by less than rescanMinUnexplainedBytes
// (see [fewSpanRows]). A scan without values (strip) sees no bytes and
// re-reads nothing.
func judgeLine(bytes int64, top float64, spanRows int64, names, strip bool, floor int64) lineVerdict {
	if bytes <= 0 {
		return keepLine
	}
	if spanRows == 0 {
		return sweepLine
	}
	if strip || !unexplained(bytes, top, floor) {
		return keepLine
	}
	if spanRows < fewSpanRows || names && float64(bytes)-top < rescanMinUnexplainedBytes {
		return sweepLine
	}
	return rereadLine
}

// spanCounts gathers the row counts of a line's spans for [dispersion]
// (see [scanner.measuredSpans]): a span's count measures its width's
// density only when it was read over its whole width.
type spanCounts struct {
	counts     []float64
	unmeasured []bool // cut short, or not read over its whole width
	// reached marks a span read at all: not one whose keys round to one
	// key, nor one of a kin's places that lies outside the piece's
	// stretch of the line (see [plan.kinPositions]).
	reached []bool
}

// newSpanCounts returns the counts of n spans.
func newSpanCounts(n int) spanCounts {
	return spanCounts{counts: make([]float64, n), unmeasured: make([]bool, n), reached: make([]bool, n)}
}

// placed records where part pt of a span was placed on a line (at):
// a part whose keys round to one (empty), or whose start the last read,
// which ended at after, took, does not count its width.
func (c *spanCounts) placed(pt part, empty bool, after string, at func(float64) string) {
	if empty || after != "" && pt.from > 0 && after > at(pt.from) {
		c.unmeasured[pt.unit] = true
	}
}

// read records the rows part pt returned, and whether its row limit
// still cut it short.
func (c *spanCounts) read(pt part, returned int64, cut bool) {
	c.counts[pt.unit] += float64(returned)
	c.unmeasured[pt.unit] = c.unmeasured[pt.unit] || cut
	c.reached[pt.unit] = true
}

// whole returns the counts of the spans read over their whole widths.
func (c spanCounts) whole() []float64 {
	var whole []float64
	for j, n := range c.counts {
		if !c.unmeasured[j] {
			whole = append(whole, n)
		}
	}
	return whole
}

// spanSpread returns the standard error of the sum of the spans' offset
// bytes (each unit's third value), the spans taken as a sample of the
// line's.
func spanSpread(units [][3]float64) float64 {
	n := float64(len(units))
	if n < 2 {
		return 0
	}
	var sum, squares float64
	for _, u := range units {
		sum += u[2]
		squares += u[2] * u[2]
	}
	mean := sum / n
	return math.Sqrt(max(0, n*(squares-n*mean*mean)/(n-1)))
}

// rereadTablet drops what r's spans read and reads its tablet again in
// full: the spans cannot explain its bytes (an oversized row).
func (w *worker) rereadTablet(ctx context.Context, r *rangeReader, bytes int64) error {
	for _, b := range r.held {
		b.release()
	}
	r.held, r.memory, r.pass, r.clip = nil, 0, passRescan, nil
	r.estimate = bytes
	r.prefixes = nil
	return w.reread(ctx, r)
}

// rowSizes sums the sizes of rows read, for the variance of a count of
// rows estimated from their bytes.
type rowSizes struct{ n, sum, squares float64 }

func (z *rowSizes) add(size float64) { z.n, z.sum, z.squares = z.n+1, z.sum+size, z.squares+size*size }

func (z *rowSizes) merge(o rowSizes) {
	z.n, z.sum, z.squares = z.n+o.n, z.sum+o.sum, z.squares+o.squares
}

// countVariance returns the variance of bytes / mean row size as a count
// of rows, the rows read taken as a sample of those rows: the count
// squared times the squared coefficient of variation of the mean size.
func (z rowSizes) countVariance(bytes float64) float64 {
	if z.n < 2 || z.sum <= 0 {
		return 0
	}
	mean := z.sum / z.n
	sampleVar := max(0, (z.squares-z.n*mean*mean)/(z.n-1))
	count := bytes / mean
	return count * count * sampleVar / (z.n * mean * mean)
}

// fewSpanRows is how many rows a tablet's spans must read for their
// bytes, short of the tablet's, to say that rows they could not miss by
// chance hold the rest (an oversized row), so that it is read again in
// full; below it, the tablet is swept (see [worker.sweepTablet]), as one
// whose spans read none. The spread of a few spans' bytes says nothing:
// a tablet of names of 33.6 MB whose spans read 4 rows at 0.1% was read
// again in full, 12% of its table (issue 26's generated shape seed
// 64110870; swept, the scan reads 0.25%). What a sweep gives up is the
// re-read's word on an oversized row: a sweep takes the tablet's bytes
// as its offsets give them, and finds such a row only where its parts'
// limits reach it.
//
// On a line of names (see [plan.namesPiece]) the spans cannot tell the
// two apart either, however many rows they read: the line places names
// by the first names it knows (see [scanner.markNames]), not where each
// name's users cluster, and their spread understates a clustered
// count's. There a shortfall under rescanMinUnexplainedBytes is swept
// too; one at or above it (below the 100 MB at which a row is flagged as
// large) is still read again in full (or, the read cap spent, marked).
// The offsets count stored bytes on Cloud Bigtable: a row that compresses
// well falls under it there and is swept.
//
// A tablet of 51,257 rows of names inside one prefix (issue 26's
// generated shape seed 64111231) had 4 spans that read 19 rows at 1%
// (the plan's 180) and put it at 2.2 MB of its 19.3 MB, 3.4 MB at the top
// of their 95% interval; read again in full, the scan read 6.60% of its
// table, swept 1.23%. What this gives up, on such a line, is the word on
// a row of under 64 MB: a sweep spreads the bytes its parts did not reach
// over the rows they read. Telling a cluster the spans missed from a row
// (a re-read at a few times the coverage before a full one, say) would
// keep it; that is not built.
const fewSpanRows = 8

// sweepTablet reads a tablet whose spans found no rows, or too few bytes
// on fewer than [fewSpanRows] rows or on a line of names (see
// [judgeLine]), though it holds bytes (it used to count as empty, or,
// above the re-read floor, be read again in full: a sixth of a names
// table for its one large tablet): its keys lie where the key map puts
// next to none — names, which cluster at
// points of the line, rather than numbers, which spread over it. The
// spans' rows are dropped (they were read all the same), and the line is
// cut into as many equal parts as the tablet has spans, each read from
// its start up to the next part's start, with a row limit of twice a
// span's budget: parts between the clusters come back empty, each
// cluster gives its first rows.
//
// A part read to its end holds exactly the rows read. The tablet's bytes
// the complete parts do not account for lie in the parts cut short by
// their limit: those are shared among them in proportion to the bytes
// each read, and their rows stand for that many bytes. The variance is
// the parts' (a ratio estimate over parts, see [ratioSums]). A sweep
// takes the offsets at their word: the bytes past its limits may be one
// oversized row as well as many small ones, which only a read in full
// would tell.
func (w *worker) sweepTablet(ctx context.Context, r *rangeReader, line segment, pc piece, plan tabletPlan, bytes int64) error {
	s := w.s
	w.flushCurrent(r)
	for _, b := range r.held {
		b.release()
	}
	r.held, r.memory = nil, 0
	r.estimate, r.holding = bytes, true
	r.rows, r.seen, r.logical = 0, 0, 0
	parts, limit := max(plan.spans, minTabletSpans), 2*plan.budget
	var starts []string
	var seen []float64 // the bytes each part read
	var cut []bool     // whether its limit cut it short
	var units ratioSums
	var cutRows rowSizes // the rows of the parts cut short
	after := ""
	for j := range parts {
		start, end, empty := spanKeys(line.at, float64(j)/float64(parts), float64(j+1)/float64(parts), pc.from, pc.to, after)
		if empty {
			continue
		}
		after = end
		rows, logical, before := r.rows, r.logical, r.seen
		var returned int64
		var part rowSizes
		err := s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
			at := r.seen
			w.add(r, row)
			part.add(float64(r.seen - at))
			returned++
			return true
		}, s.readOptions(false, limit)...)
		if err != nil {
			w.abandon(r)
			return err
		}
		starts = append(starts, start)
		seen = append(seen, float64(r.seen-before))
		cut = append(cut, returned >= limit)
		if returned >= limit {
			cutRows.merge(part)
		}
		if returned > 0 {
			units.add(float64(r.rows-rows), float64(r.logical-logical), float64(r.seen-before))
		}
	}
	var complete, cutSeen float64
	for j := range seen {
		if cut[j] {
			cutSeen += seen[j]
		} else {
			complete += seen[j]
		}
	}
	scale := 1.0
	if rest := float64(bytes) - complete; cutSeen > 0 && rest > cutSeen {
		scale = rest / cutSeen
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		for i := range b.rows {
			if k := readOf(starts, b.rows[i].Key); k >= 0 && cut[k] {
				b.rows[i].Weight = scale
			}
		}
	}
	r.variance = units.variance(float64(bytes))
	if rest := float64(bytes) - complete; cutSeen > 0 && rest > cutSeen {
		// The rows of the bytes past the limits are those bytes over the
		// mean size of the rows read there.
		r.variance.rows += cutRows.countVariance(rest)
	}
	r.addPrefixVariance(pc.prefix, r.variance)
	w.release(r)
	w.done(r, false)
	return nil
}

// probe reads keys of piece pc of a tablet, for its key map: in each of
// count equal strata of its line, the first probeRows rows from a random
// place on, in a window that doubles while it finds none, up to the
// stratum's end. They are keys drawn from the piece's rows about in
// proportion to them, as far as the line already follows them (keys
// after a stretch of the line with none are drawn more often). It
// returns each probe's keys and the sizes of their rows in the offsets'
// units (see [scanner.comparable]). The rows count as read, nowhere else.
func (w *worker) probe(ctx context.Context, plan tabletPlan, pc piece, count int, rng *rand.Rand) ([][]string, []float64, error) {
	s := w.s
	line := s.plan.lineOf(pc)
	var found [][]string
	var sizes []float64
	stratum := 1.0 / float64(count)
	first := probeWindowRows / max(plan.rows, 1)
	after := ""
	for j := range count {
		from, end := (float64(j)+rng.Float64())*stratum, float64(j+1)*stratum
		for window := first; from < end; window *= 2 {
			to := min(end, from+window)
			start, stop, empty := spanKeys(line.at, from, to, pc.from, pc.to, after)
			from = to
			if empty {
				continue
			}
			after = stop
			var keys []string
			err := s.table.ReadRows(ctx, bigtable.NewRange(start, stop), func(row bigtable.Row) bool {
				b := newBatch()
				size := b.add(row, 1, &w.families)
				b.release()
				keys = append(keys, row.Key())
				sizes = append(sizes, float64(s.comparable(size)))
				s.rowsRead.Add(1)
				w.watch.touch(w.id)
				return true
			}, s.readOptions(false, probeRows)...)
			if err != nil {
				return nil, nil, err
			}
			if len(keys) > 0 {
				found = append(found, keys)
				break
			}
		}
	}
	return found, sizes, nil
}

// inBounds reports whether key lies in b's [start, end).
func (b *bounds) inBounds(key string) bool {
	return keyspace.InRange(key, b.start, b.end)
}

// readOf returns which of the reads that started at starts (sorted) read
// the row key: the last that started at or before it; -1 when none did.
func readOf(starts []string, key string) int {
	k, found := slices.BinarySearch(starts, key)
	if !found {
		k--
	}
	return k
}
