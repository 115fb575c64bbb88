package sampler

import (
	"context"
	"math/rand/v2"
	"slices"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/keyspace"
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
	line := s.plan.keys.segmentOf(whole[0], whole[1])
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

	seen, err := w.probe(ctx, plan, line, span)
	if err != nil {
		return err
	}
	warped := newWarp(plan.rows, seen)
	length := warped.length()
	width := float64(plan.budget)
	r := &rangeReader{index: i, estimate: plan.readBytes, weight: 1, pass: passFirst, holding: true}
	if whole != [2]string{string(tablet.Start), string(tablet.End)} {
		r.clip = &bounds{start: string(tablet.Start), end: string(tablet.End)}
	}
	var sums ratioSums
	// A span that hit its row limit was read up to its last row only:
	// its rows stand for the whole span's warped width, factor times
	// their own (the span's rows beyond the limit are taken to be like
	// those before it), so that a span in keys denser than the warp
	// expected does not lose the rest of them.
	var starts []string
	var factors []float64
	for _, x := range stratified(plan.spans, length, width, rng) {
		start, end := span(warped.place(x), warped.place(x+width))
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
		factor := 1.0
		if returned >= plan.limit {
			if readTo := warped.at(line.share(last)); readTo > x {
				factor = min(maxTruncationFactor, width/(readTo-x))
			}
		}
		starts, factors = append(starts, start), append(factors, factor)
		sums.add(factor*float64(r.rows-rows), factor*float64(r.logical-logical), factor*float64(r.seen-bytes))
	}
	coverage := min(1, float64(plan.spans)*width/length)
	weight := 1 / coverage
	if sums.b > 0 {
		weight = float64(tablet.SampledBytes) / sums.b
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		for j := range b.rows {
			k, _ := slices.BinarySearch(starts, b.rows[j].Key)
			if k == len(starts) || starts[k] != b.rows[j].Key {
				k--
			}
			b.rows[j].Weight = weight * factors[max(k, 0)]
		}
	}
	if !s.opts.StripValues && unexplained(tablet.SampledBytes, sums.b/coverage, s.plan.rescanFloor) {
		for _, b := range r.held {
			b.release()
		}
		r.held, r.memory, r.pass, r.clip = nil, 0, passRescan, nil
		r.estimate = tablet.SampledBytes
		return w.reread(ctx, r)
	}
	if sums.b > 0 {
		r.variance = sums.variance(float64(tablet.SampledBytes))
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
func (w *worker) probe(ctx context.Context, plan tabletPlan, line segment, span func(from, to float64) (string, string)) ([]observed, error) {
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
