package sampler

import (
	"fmt"
	"math"
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
)

// emulatorRangeTarget is about how many ranges an emulator's tablet map is
// merged down to. The emulator samples ~1% of rows, so a 5M-row table
// would give 50,000 "tablets" of a hundred rows each: meaningless as
// tablets, costly per range in the snapshot (a write histogram each) and
// per read in RPCs. A few hundred keep the tablet view readable.
const emulatorRangeTarget = 128

// unitsPerWorker is how many read units a scan aims to give each worker,
// so that uneven ranges still balance and progress moves smoothly.
const unitsPerWorker = 4

// maxUnitBytes caps how many sampled bytes tiny ranges are coalesced into
// one read, so that per-RPC overhead does not dominate a table of many
// small tablets while a unit still finishes in seconds.
const maxUnitBytes = 64 << 20

// plan is what a scan will read: the snapshot's ranges, how they are
// grouped into reads, and the mode.
type plan struct {
	ranges []keyspace.Range
	modeChoice
	// method says how a sampled scan picks what it reads.
	method keyspace.SampleMethod
	// units are the reads of a scan by ranges (full, RowSampleFilter,
	// MaxRows).
	units []unit
	// Under span sampling spans is the finished planner, calls the reads
	// it planned that no worker has yet (none when they were handed out
	// as the samples streamed), firstSpan the index of each range's
	// first span (and len(spans)), and readsLeft, per range, the spans
	// not yet read (the aggregator's).
	spans     *spanPlanner
	calls     []spanRead
	firstSpan []int
	readsLeft []int
	// limits holds each range's row budget in MaxRows mode.
	limits []int64
	// totalBytes is the sum of the ranges' sampled bytes; readBytes the
	// sampled bytes the scan will read (less under span sampling), which
	// progress is measured against.
	totalBytes, readBytes int64
	// readRows is the rows a position sample expects to read, its
	// tablets' readRows (see [tabletPlan]).
	readRows float64
	// spanRows is, per prefix, the rows its pieces' spans aim to read,
	// and spanRowsElse that of a prefix not in it, once the tablets inside
	// prefixes are read (see [spanRowsByPrefix]); pieceSpanRows before.
	spanRows     map[string]float64
	spanRowsElse float64
	// estimatedRows is the rows the map holds by [mapShape.estimatedRows]
	// (-1 when unknown).
	estimatedRows int64
	// rescanFloor is the unexplained bytes that make a sampled range be
	// read again (see [rescanFloor]).
	rescanFloor int64
	// shape is what the pilot measured of the map.
	shape mapShape
	// Under position sampling tablets holds each tablet's reads,
	// wholeTablets its keys before the scan's bounds cut it, pieces its
	// top-level prefixes (see [scanner.discover]), maps the key maps
	// learned from the tablet boundaries, the pilot and the pieces, and
	// seed the positions' seed.
	tablets      []tabletPlan
	wholeTablets [][2]string
	pieces       []tabletPieces
	maps         *keyMaps
	seed         uint64
	// noKinProfile, for tests, leaves the pieces of names without their
	// kin's profile (see [kinProfile]).
	noKinProfile bool
}

// unit is one ReadRows call: the consecutive ranges [first, last).
type unit struct{ first, last int }

// newPlan plans a scan of spans, the tablet map clipped to the scan's
// bounds, of the shape the pilot measured.
func newPlan(spans []span, shape mapShape, opts Options) *plan {
	p := &plan{shape: shape}
	var totalBytes int64
	for _, s := range spans {
		totalBytes += s.bytes
	}
	p.estimatedRows = shape.estimatedRows(spans, totalBytes)
	p.modeChoice = chooseMode(opts, totalBytes, p.estimatedRows)
	p.rescanFloor = rescanFloor(totalBytes)
	if p.mode.IsSample() && p.maxRows == 0 {
		p.method = keyspace.MethodRows
		if shape.tablets {
			p.planPositions(spans, opts.Seed, opts.knownKeys)
			p.noKinProfile = opts.noKinProfile
			return p
		}
		var calls []spanRead
		planner := newSpanPlanner(p.fraction, opts.Seed, shape.delimiters, func(call spanRead) { calls = append(calls, call) })
		planner.delimitersKnown = shape.delimitersKnown
		for _, s := range spans {
			planner.add(s)
		}
		planner.finish()
		if planner.usable() {
			p.useSpans(planner)
			p.calls = calls
			return p
		}
		p.reason += planner.whyNot()
	}
	merged := spans
	if !shape.tablets {
		merged = mergeSpans(spans, emulatorRangeTarget)
	}
	p.setRanges(merged)
	if p.maxRows > 0 {
		p.limits = rowBudgets(p.ranges, p.totalBytes, p.maxRows)
		for i := range p.ranges {
			p.units = append(p.units, unit{i, i + 1}) // a row limit applies per read
		}
		p.budgetFloor()
		return p
	}
	sizes := make([]int64, len(p.ranges))
	for i, r := range p.ranges {
		sizes[i] = r.SampledBytes
	}
	p.units = coalesce(sizes, p.totalBytes, opts.Concurrency)
	return p
}

// planPositions plans a position sample of the tablets (see
// [planTablet]): one read task per tablet, the tablets the snapshot's
// ranges.
func (p *plan) planPositions(tablets []span, seed uint64, known []string) {
	p.method = keyspace.MethodPositions
	p.setRanges(tablets)
	p.wholeTablets = make([][2]string, len(tablets))
	p.maps = newKeyMaps(topPrefixer(p.shape.delimiters))
	p.maps.learnBytes(p.shape.keys...)
	if len(p.shape.keys) > 0 {
		p.maps.learn(p.shape.keys[0]) // where the table's keys begin
	}
	p.maps.learn(known...)
	p.readBytes = 0
	var spans, whole int
	for i, t := range tablets {
		p.wholeTablets[i] = [2]string{t.start, t.end}
		if t.cut {
			p.wholeTablets[i] = [2]string{t.wholeStart, t.wholeEnd}
		}
		p.maps.learn(p.wholeTablets[i][0], p.wholeTablets[i][1])
		p.maps.bound(p.wholeTablets[i][0], p.wholeTablets[i][1])
		plan := planTablet(t.bytes, p.shape.rowBytes, p.fraction)
		p.tablets = append(p.tablets, plan)
		p.units = append(p.units, unit{i, i + 1})
		p.readBytes += plan.readBytes
		p.readRows += plan.readRows
		spans += plan.spans
		if plan.whole {
			whole++
		}
	}
	p.maps.judge()
	p.seed = seed
	p.reason = describePositions(p.fraction, len(tablets), spans, whole, p.why)
}

// topPrefixer returns the function that gives a key's top-level prefix
// under the delimiters: its first segment when that ends with a
// delimiter, else "" (a key without one, or no delimiters).
func topPrefixer(delimiters string) func(string) string {
	split := keyspace.NewSplitter(delimiters)
	return func(key string) string {
		if delimiters == "" {
			return ""
		}
		prefix := key[:split.Next(key, 0)]
		if !isDelimiterEnd(prefix, delimiters) {
			return ""
		}
		return prefix
	}
}

// spanPlan returns the plan of a span sample whose planner took the
// spans as SampleRowKeys streamed them and handed its reads out on the
// way; mode is the options' (an explicit --sample).
func spanPlan(planner *spanPlanner, mode modeChoice) *plan {
	p := &plan{estimatedRows: int64(len(planner.spans)) * emulatorSampleEvery, modeChoice: mode, shape: mapShape{measured: true}}
	p.useSpans(planner)
	return p
}

// useSpans switches the plan to span sampling with the finished planner:
// ranges of whole groups, progress measured in the bytes of the spans
// read.
func (p *plan) useSpans(planner *spanPlanner) {
	p.method, p.spans = keyspace.MethodSpans, planner
	p.fraction = planner.share()
	p.reason = planner.describe(p.why)
	p.setRanges(mergeSpans(planner.blocks(), emulatorRangeTarget))
	p.readBytes = planner.readBytes
	p.firstSpan = firstSpans(planner.spans, p.ranges)
	p.readsLeft = make([]int, len(p.ranges))
	for _, i := range planner.readIndexes {
		p.readsLeft[p.rangeOfSpan(i)]++
	}
}

// setRanges makes the merged spans the snapshot's ranges.
func (p *plan) setRanges(merged []span) {
	p.ranges = toRanges(merged)
	p.totalBytes = 0
	for _, r := range p.ranges {
		p.totalBytes += r.SampledBytes
	}
	p.readBytes = p.totalBytes
}

// rangeOfSpan returns the range holding span i of a span sample.
func (p *plan) rangeOfSpan(i int) int {
	r, found := slices.BinarySearch(p.firstSpan, i)
	if !found {
		r--
	}
	return min(r, len(p.ranges)-1)
}

// firstSpans returns the index of each range's first span, and
// len(spans): the ranges are the spans, merged.
func firstSpans(spans []span, ranges []keyspace.Range) []int {
	first := make([]int, 0, len(ranges)+1)
	j := 0
	for _, r := range ranges {
		for j < len(spans) && spans[j].start != string(r.Start) {
			j++
		}
		first = append(first, j)
	}
	return append(first, len(spans))
}

// mergeSpans merges consecutive spans into about target spans of
// similar row count and bytes. A span as large as a merged one stays on
// its own, so that a byte jump (an oversized row) keeps a range of its
// own for the rescan check.
func mergeSpans(spans []span, target int) []span {
	if len(spans) <= target {
		return spans
	}
	var total int64
	for _, r := range spans {
		total += r.bytes
	}
	maxCount := (len(spans) + target - 1) / target
	maxBytes := total / int64(target)
	var merged []span
	count := 0
	for _, r := range spans {
		big := maxBytes > 0 && r.bytes >= maxBytes
		last := len(merged) - 1
		if last >= 0 && count > 0 && !big && count < maxCount && (maxBytes == 0 || merged[last].bytes < maxBytes) {
			merged[last].end = r.end
			merged[last].bytes += r.bytes
			count++
			continue
		}
		merged = append(merged, r)
		count = 1
		if big {
			count = maxCount // nothing joins it
		}
	}
	return merged
}

// coalesce groups consecutive ranges, of the given sizes (the sampled
// bytes each will read), into reads of up to a target size: maxUnitBytes,
// or less so that every worker gets unitsPerWorker reads.
func coalesce(sizes []int64, totalBytes int64, concurrency int) []unit {
	targetBytes := min(int64(maxUnitBytes), totalBytes/int64(unitsPerWorker*concurrency))
	maxCount := max(1, len(sizes)/(unitsPerWorker*concurrency))
	var units []unit
	var unitBytes int64
	for i, size := range sizes {
		last := len(units) - 1
		if last >= 0 && i-units[last].first < maxCount && unitBytes+size <= targetBytes {
			units[last].last = i + 1
			unitBytes += size
			continue
		}
		units = append(units, unit{i, i + 1})
		unitBytes = size
	}
	return units
}

// budgetFloor says so when a row budget reads more than --max-rows: every
// key range reads at least one row, so that each is estimated (a range
// read not at all would count as empty), and a budget smaller than the
// range count reads about one row a range.
func (p *plan) budgetFloor() {
	var total int64
	for _, limit := range p.limits {
		total += limit
	}
	if total <= p.maxRows+p.maxRows/10 {
		return // rounding
	}
	p.reason = fmt.Sprintf("about %d rows spread over the key ranges (--max-rows %d, and at least one row from each of the %d ranges)", total, p.maxRows, len(p.ranges))
	p.note = fmt.Sprintf("--max-rows %d reads about %d rows: at least one from each of the table's %d key ranges, so that every range is estimated", p.maxRows, total, len(p.ranges))
}

// rowBudgets spreads maxRows over the ranges in proportion to their
// sampled bytes (evenly when no range has any), at least one row each.
func rowBudgets(ranges []keyspace.Range, totalBytes, maxRows int64) []int64 {
	limits := make([]int64, len(ranges))
	for i, r := range ranges {
		share := 1 / float64(len(ranges))
		if totalBytes > 0 {
			share = float64(r.SampledBytes) / float64(totalBytes)
		}
		limits[i] = max(1, int64(math.Round(share*float64(maxRows))))
	}
	return limits
}
