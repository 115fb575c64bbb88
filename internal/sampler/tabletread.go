package sampler

import (
	"context"
	"math/rand/v2"
	"slices"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// maxTruncationFactor bounds how many times its own rows a span cut
// short by its row limit stands for.
const maxTruncationFactor = 64

// readTablet reads tablet i of a position sample (see [planTablet]):
// the probes, then the spans on the warped line, then the weights; a
// tablet whose bytes its spans cannot explain is read again in full.
// name is its key range.
func (w *worker) readTablet(ctx context.Context, i int, name string) error {
	s := w.s
	plan := s.plan.tablets[i]
	if plan.whole {
		return w.readUnit(ctx, unit{i, i + 1}, name)
	}
	w.watch.begin(w.id, name)
	defer w.watch.end(w.id)
	tablet := s.plan.ranges[i]
	whole := s.plan.wholeTablets[i]
	line, err := w.lineOf(ctx, whole[0], whole[1], plan.rows)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(s.plan.seed+uint64(i), positionSeedStream))
	// span returns the keys [start, end) of the line's part [from, to),
	// within the tablet.
	span := func(from, to float64) (string, string) {
		start, end := max(line.at(from), whole[0]), line.at(to)
		if to >= 1 || whole[1] != "" && (end == "" || end > whole[1]) {
			end = whole[1]
		}
		return start, end
	}

	// A tablet cut into pieces knows where its rows are from the reads
	// that found them; another is probed.
	seen := line.observed()
	if len(line.pieces) == 0 {
		if seen, err = w.probe(ctx, plan, line, span); err != nil {
			return err
		}
	}
	warped := newWarp(plan.rows, seen)
	width := float64(plan.budget)
	r := &rangeReader{index: i, estimate: plan.readBytes, weight: 1, pass: passFirst, holding: true}
	if whole != [2]string{string(tablet.Start), string(tablet.End)} {
		r.clip = &bounds{start: string(tablet.Start), end: string(tablet.End)}
	}
	// The spans are drawn stratum by stratum, a stratum a piece of the
	// line (see [tabletLine]; the whole line when it has none), each
	// stratum's spans in proportion to its warped length (see
	// [apportion]), none crossing into the next: a span cut short by its row limit
	// stands for the rest of its width (see below), which is then rows of
	// its own piece. Each stratum's rows are estimated from its spans
	// over the share of its warped length they cover, and the tablet's
	// bytes share out what the strata's estimates make (a combined ratio
	// estimator).
	strata := line.strata(warped)
	var sums ratioSums
	var spanRows int64 // the rows the spans returned
	// A span that hit its row limit was read up to its last row only:
	// its rows stand for the span's whole warped width, factor times
	// their own (the span's rows beyond the limit are taken to be like
	// those before it), so that a span in keys denser than the warp
	// expected does not lose the rest of them.
	var starts []string
	var factors []float64
	var stratumOf []int
	lengths := make([]float64, len(strata))
	for h, st := range strata {
		lengths[h] = st.to - st.from
	}
	counts := apportion(plan.spans, lengths)
	for h, st := range strata {
		if st.to <= st.from {
			continue // no room: no rows expected
		}
		n := counts[h]
		st.coverage = min(1, float64(n)*width/(st.to-st.from))
		strata[h] = st
		for _, x := range stratified(n, st.to-st.from, width, rng) {
			x += st.from
			to := min(x+width, st.to)
			start, end := span(warped.place(x), warped.place(to))
			if end != "" && end <= start {
				sums.add(0, 0, 0) // no key lies in it: no rows
				continue
			}
			rows, logical, bytes := r.rows, r.logical, r.seen
			var returned int64
			var last string
			err := s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
				w.add(r, row)
				returned++
				last = row.Key()
				return true
			}, s.readOptions(false, plan.limit)...)
			if err != nil {
				w.abandon(r)
				return err
			}
			spanRows += returned
			factor := 1.0
			if returned >= plan.limit {
				if readTo := warped.at(line.share(last)); readTo > x {
					factor = min(maxTruncationFactor, (to-x)/(readTo-x))
				}
			}
			starts, factors, stratumOf = append(starts, start), append(factors, factor), append(stratumOf, h)
			scale := factor / st.coverage
			sums.add(scale*float64(r.rows-rows), scale*float64(r.logical-logical), scale*float64(r.seen-bytes))
		}
	}
	if tablet.SampledBytes > 0 && spanRows == 0 {
		return w.sweepTablet(ctx, r, span, plan, tablet.SampledBytes)
	}
	// sums.b is the tablet's bytes as its spans see them: each stratum's
	// spans' bytes over the share of it they cover.
	weights := make([]float64, len(strata))
	for h, st := range strata {
		weights[h] = 1 / max(st.coverage, 1e-12)
		if sums.b > 0 {
			weights[h] *= float64(tablet.SampledBytes) / sums.b
		}
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		for j := range b.rows {
			k := max(readOf(starts, b.rows[j].Key), 0)
			b.rows[j].Weight = weights[stratumOf[k]] * factors[k]
		}
	}
	if !s.opts.StripValues && unexplained(tablet.SampledBytes, sums.b, s.plan.rescanFloor) {
		if !s.mayReread(tablet.SampledBytes) {
			r.unexplained = true // the read cap is spent: the spans stand
		} else {
			for _, b := range r.held {
				b.release()
			}
			r.held, r.memory, r.pass, r.clip = nil, 0, passRescan, nil
			r.estimate = tablet.SampledBytes
			return w.reread(ctx, r)
		}
	}
	if sums.b > 0 {
		r.variance = sums.variance(float64(tablet.SampledBytes))
	}
	w.release(r)
	w.done(r, false)
	return nil
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

// sweepTablet reads a tablet whose spans found no rows, though it holds
// bytes (it used to count as empty, or, above the re-read floor, be read
// again in full: a sixth of a names table for its one large tablet): its
// keys lie where the key map, drawn from the tablet boundaries and the
// pilot, puts next to none — names, which cluster at
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
func (w *worker) sweepTablet(ctx context.Context, r *rangeReader, span func(from, to float64) (string, string), plan tabletPlan, bytes int64) error {
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
	for j := range parts {
		start, end := span(float64(j)/float64(parts), float64(j+1)/float64(parts))
		if end != "" && end <= start {
			continue
		}
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
	w.release(r)
	w.done(r, false)
	return nil
}

// probe reads the first round of a tablet's positions: from the start of
// each of probeCount strata of the line, up to probeRows rows in a
// window that doubles while it finds none, up to the stratum's end, so
// that the line is known to be empty up to the first rows found, and
// the rows found say how dense the keys are there. It returns the parts
// of the line the probes saw, with their rows; the rows themselves only
// count as read.
func (w *worker) probe(ctx context.Context, plan tabletPlan, line tabletLine, span func(from, to float64) (string, string)) ([]observed, error) {
	s := w.s
	var seen []observed
	stratum := 1.0 / probeCount
	first := probeWindowRows / max(plan.rows, 1)
	for j := range probeCount {
		from, end := float64(j)*stratum, float64(j+1)*stratum
		for window := first; from < end; window *= 2 {
			to := min(end, from+window)
			var keys []string
			if start, stop := span(from, to); stop == "" || start < stop {
				err := s.table.ReadRows(ctx, bigtable.NewRange(start, stop), func(row bigtable.Row) bool {
					keys = append(keys, row.Key())
					s.rowsRead.Add(1)
					w.watch.touch(w.id)
					return true
				}, s.readOptions(false, probeRows)...)
				if err != nil {
					return nil, err
				}
			}
			if len(keys) == 0 {
				seen = append(seen, observed{from: from, to: to})
				from = to
				continue
			}
			if len(keys) < probeRows {
				seen = append(seen, observed{from: from, to: to, rows: float64(len(keys))})
				break
			}
			// The window holds more: it is known up to its last row.
			near, far := line.share(keys[0]), line.share(keys[len(keys)-1])
			seen = append(seen, observed{from: from, to: near})
			if far > near {
				seen = append(seen, observed{from: near, to: far, rows: float64(len(keys) - 1)})
			}
			break
		}
	}
	return seen, nil
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
