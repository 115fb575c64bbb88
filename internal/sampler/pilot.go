package sampler

import (
	"cmp"
	"context"
	"slices"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// The scan plans from what SampleRowKeys answers, not from who answers:
// an emulator samples about one row in a hundred, Cloud Bigtable answers
// tablet boundaries with many thousands of rows between them. Bytes alone
// do not tell them apart (a hundred rows of 1 MB weigh what a tablet of a
// million rows of 100 B does), so before it plans a scan reads the first
// rows of the first span (the pilot) for the size of a row, and judges the
// map by the rows its median span holds: tablets from tabletRows on.
const (
	// pilotRows is how many rows the pilot reads: enough for a mean row
	// size good to a few percent, cheap on any server.
	pilotRows = 150
	// tabletRows is the fewest rows a median span holds for the map to be
	// taken as tablets: four times the emulator's hundred (the median of
	// even ten of its geometric spans is above it with odds under 10⁻⁶),
	// far below most real tablets. Only an emulator's answer is judged by it
	// (see mapShape.judge).
	tabletRows = 400
	// checkRows is the most rows, keys only, that checking one of an
	// emulator's spans judged tablets reads (see
	// [scanner.medianSpanHoldsTablet]): twice the emulator's hundred, and
	// half of tabletRows, which a tablet holds.
	checkRows = 200
)

// mapShape is what the scan knows of the table before it reads it,
// beyond the spans: whether they are tablets, how large a row is, and how
// fast the first read went.
type mapShape struct {
	// tablets is set when the spans are tablets (see tabletRows).
	tablets bool
	// rowBytes is the mean row size, in the units of SampleRowKeys'
	// offsets (see scanner.comparable); 0 when the pilot saw no bytes.
	// typicalRowBytes is the median, which one huge row among the pilot's
	// does not move: the map is judged by it.
	rowBytes, typicalRowBytes float64
	// rowsPerSecond is the pilot's read rate, 0 when unknown.
	rowsPerSecond float64
	// keys are the pilot's row keys, for the key map.
	keys []string
	// measured is set once the pilot ran.
	measured bool
	// delimiters are the scan's key delimiters, final when
	// delimitersKnown (see decideDelimiters).
	delimiters      string
	delimitersKnown bool
}

// pilot reads the first pilotRows rows of the range in key order, span
// after span until it has them (one span on tablets, a few of an
// emulator's), for the size of a row, the map's judgement and the key
// delimiters: rows every mode reads alike.
func (s *scanner) pilot(ctx context.Context, spans []span) mapShape {
	shape := mapShape{measured: true}
	var bytes int64
	var sizes []int64
	began := time.Now()
	for _, sp := range spans {
		err := s.table.ReadRows(ctx, bigtable.NewRange(sp.start, sp.end), func(row bigtable.Row) bool {
			b := newBatch()
			size := b.add(row, 1, &[]string{})
			b.release()
			bytes += s.comparable(size)
			sizes = append(sizes, s.comparable(size))
			shape.keys = append(shape.keys, row.Key())
			return true
		}, bigtable.LimitRows(int64(pilotRows-len(sizes))))
		if err != nil || len(sizes) >= pilotRows {
			break
		}
	}
	if len(sizes) == 0 {
		return shape
	}
	if elapsed := time.Since(began).Seconds(); elapsed > 0 {
		shape.rowsPerSecond = float64(len(sizes)) / elapsed
	}
	shape.rowBytes = float64(bytes) / float64(len(sizes))
	slices.Sort(sizes)
	shape.typicalRowBytes = float64(sizes[len(sizes)/2])
	return shape
}

// measure runs the pilot on spans (at least one) and judges them, and
// decides the scan's delimiters from the pilot's rows if it has not yet
// (--delimiters gives them): the first rows of the range in key order,
// whatever the mode, so that --full, --sample and --max-rows split a
// table's keys alike.
func (s *scanner) measure(ctx context.Context, spans []span) mapShape {
	shape := s.pilot(ctx, spans)
	s.judge(ctx, &shape, spans)
	if !s.delimitersKnown && len(shape.keys) > 0 {
		s.delimiters, s.delimitersKnown = s.opts.Delimiters, true
		if s.delimiters == "" {
			s.delimiters = keyspace.DetectDelimiters(shape.keys)
		}
	}
	shape.delimiters, shape.delimitersKnown = s.delimiters, s.delimitersKnown
	return shape
}

// judge decides whether spans are tablets. Cloud Bigtable answers
// nothing else: spans from an endpoint that is not an emulator are
// tablets, however few rows they hold (50 tablets of 500 KB rows hold
// 200 rows each). Only an emulator's answer can be row samples, and it is
// judged by what it answered: tablets when the median span holds
// tabletRows rows or more at the pilot's median row size, and without a
// row size (no bytes seen) samples.
func (shape *mapShape) judge(spans []span, emulator bool) {
	if !emulator || shape.typicalRowBytes <= 0 {
		shape.tablets = !emulator
		return
	}
	shape.tablets = float64(medianSpan(spans).bytes)/shape.typicalRowBytes >= tabletRows
}

// medianSpan returns the median of spans (at least one) by bytes, among
// the spans not cut by the scan's bounds when there are any.
func medianSpan(spans []span) span {
	whole := wholeByBytes(spans)
	return whole[len(whole)/2]
}

// wholeByBytes returns the spans not cut by the scan's bounds (all of
// them when every one is), sorted by bytes.
func wholeByBytes(spans []span) []span {
	whole := slices.DeleteFunc(slices.Clone(spans), func(sp span) bool { return sp.cut })
	if len(whole) == 0 {
		whole = slices.Clone(spans)
	}
	slices.SortStableFunc(whole, func(a, b span) int { return cmp.Compare(a.bytes, b.bytes) })
	return whole
}

// judge judges spans by shape (see [mapShape.judge]) and checks an
// emulator's spans judged tablets by the rows of its median span (see
// [scanner.medianSpanHoldsTablet]).
// The check reads once per scan: whether an emulator answers samples or
// tablets does not change between the first spans and the whole map.
func (s *scanner) judge(ctx context.Context, shape *mapShape, spans []span) {
	shape.judge(spans, s.emulator)
	if shape.tablets && s.emulator {
		if !s.spansChecked {
			s.spansChecked, s.spansAreTablets = true, s.medianSpanHoldsTablet(ctx, spans)
		}
		shape.tablets = s.spansAreTablets
	}
}

// medianSpanHoldsTablet counts the rows of an emulator's median span, by
// bytes, up to checkRows (keys only), and reports whether it holds that
// many: the judgement by the pilot's row size holds only where the rows
// are like the first ones. A table of several datasets judged by the
// first one's rows (13-digit sensor keys of 11 value bytes before users'
// rows of 300) took samples of a hundred rows for tablets of thousands,
// one scan in three, and raised tablet-skew on an emulator (issue 27).
//
// One span is not enough: the span that holds the end of the small rows
// and the start of the large ones weighs like the large ones' spans but
// holds more rows, and it was the median and held 200 in one scan of 400
// on that table (a geometric span of the emulator's holds 200 rows or
// more 13% of the time). So a median span that holds checkRows is
// confirmed by its two neighbours by bytes, and the spans are tablets
// when both hold as many too: samples would need two more such spans
// (once in about 20,000 scans). Only an emulator whose spans weigh what
// tablets would pays these reads (internal/emulator/cloudlike's, every
// scan: three).
func (s *scanner) medianSpanHoldsTablet(ctx context.Context, spans []span) bool {
	whole := wholeByBytes(spans)
	m := len(whole) / 2
	for _, i := range []int{m, m - 1, m + 1} {
		if i < 0 || i >= len(whole) {
			continue
		}
		rows := 0
		err := s.table.ReadRows(ctx, bigtable.NewRange(whole[i].start, whole[i].end), func(bigtable.Row) bool {
			rows++
			return true
		}, bigtable.RowFilter(keysOnly), bigtable.LimitRows(checkRows))
		if err == nil && rows < checkRows { // a failed read keeps the judgement by bytes
			return false
		}
	}
	return true
}

// estimatedRows returns the rows spans hold: the emulator's hundred a
// sample, or the bytes over the pilot's row size on tablets; -1 when
// unknown.
func (shape mapShape) estimatedRows(spans []span, totalBytes int64) int64 {
	switch {
	case !shape.tablets:
		return int64(len(spans)) * emulatorSampleEvery
	case shape.rowBytes > 0:
		return int64(float64(totalBytes) / shape.rowBytes)
	}
	return -1
}
