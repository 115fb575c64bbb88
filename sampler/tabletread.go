package sampler

import (
	"context"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/keyspace"
)

// readTablet reads tablet i of a position sample (see [planTablet]): the
// first round of spans, then the rest on the refined key map, then the
// weights; a tablet whose bytes its spans cannot explain is read again in
// full. name is its key range.
func (w *worker) readTablet(ctx context.Context, i int, name string) error {
	s := w.s
	w.watch.begin(w.id, name)
	defer w.watch.end(w.id)
	plan := s.plan.tablets[i]
	tablet := s.plan.ranges[i]
	if plan.whole {
		return w.readUnit(ctx, unit{i, i + 1}, name)
	}
	r := &rangeReader{index: i, estimate: plan.readBytes, weight: 1, pass: passFirst, holding: true}
	whole := s.plan.wholeTablets[i]
	if whole != [2]string{string(tablet.Start), string(tablet.End)} {
		r.clip = &bounds{start: string(tablet.Start), end: string(tablet.End)}
	}
	keys := &keyMap{alphabets: cloneAlphabets(s.plan.keys.alphabets)}
	rng := rand.New(rand.NewPCG(s.plan.seed+uint64(i), positionSeedStream))
	var sums ratioSums
	read := func(starts []float64) error {
		line := keys.segmentOf(whole[0], whole[1])
		for _, u := range starts {
			start, end := line.at(u), line.at(u+plan.width)
			start = max(start, whole[0])
			if whole[1] != "" && (end == "" || end > whole[1]) {
				end = whole[1]
			}
			if end != "" && end <= start {
				sums.add(0, 0, 0) // a span with no key in it: no rows
				continue
			}
			rows, logical, seen := r.rows, r.logical, r.seen
			err := s.table.ReadRows(ctx, bigtable.NewRange(start, end), func(row bigtable.Row) bool {
				w.add(r, row)
				keys.learn(row.Key())
				return true
			}, s.readOptions(false, plan.limit)...)
			if err != nil {
				return err
			}
			sums.add(float64(r.rows-rows), float64(r.logical-logical), float64(r.seen-seen))
		}
		return nil
	}
	err := read(stratified(plan.first, plan.width, rng))
	if err == nil {
		err = read(stratified(plan.spans-plan.first, plan.width, rng))
	}
	if err != nil {
		w.abandon(r)
		return err
	}
	weight := 1 / plan.coverage()
	if sums.b > 0 {
		weight = float64(tablet.SampledBytes) / sums.b
	}
	w.flushCurrent(r)
	for _, b := range r.held {
		b.setWeight(weight)
	}
	if !s.opts.StripValues && unexplained(tablet.SampledBytes, sums.b/plan.coverage(), s.plan.rescanFloor) {
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

// cloneAlphabets copies a key map's alphabets, so that a tablet's reader
// can refine its own.
func cloneAlphabets(alphabets [][]byte) [][]byte {
	out := make([][]byte, len(alphabets))
	for i, a := range alphabets {
		out[i] = append([]byte(nil), a...)
	}
	return out
}

// inBounds reports whether key lies in b's [start, end).
func (b *bounds) inBounds(key string) bool {
	return keyspace.InRange(key, b.start, b.end)
}
