package heatmap

import (
	"math"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// MonthSeconds is the length of an average Gregorian month in seconds
// (30.436875 days): the unit of the years a long column counts
// ([TimeAxis.ColumnText]) and of the month steps of time ticks.
const MonthSeconds = 30.436875 * 24 * 3600

// TimeAxis is the time dimension of a [Matrix]: Columns equal columns
// covering [Start, End), the span of the snapshot's cell timestamps on
// its time grid. Columns is 0 for a matrix without a time axis.
type TimeAxis struct {
	Start, End time.Time
	Columns    int
}

// Span returns End − Start, saturated at the longest [time.Duration]
// (about 292 years); spans beyond that are still drawn correctly.
func (a TimeAxis) Span() time.Duration { return a.End.Sub(a.Start) }

// SpanSeconds returns End − Start in seconds, exact enough for drawing
// at any span.
func (a TimeAxis) SpanSeconds() float64 { return SecondsBetween(a.Start, a.End) }

// SecondsBetween returns b − a in seconds without the saturation of
// [time.Time.Sub], so that axes of thousands of years divide correctly.
func SecondsBetween(a, b time.Time) float64 {
	return float64(b.Unix()-a.Unix()) + float64(b.Nanosecond()-a.Nanosecond())/1e9
}

// ColumnDuration returns the time one column covers, saturated as
// [TimeAxis.Span] is.
func (a TimeAxis) ColumnDuration() time.Duration {
	if a.Columns <= 0 {
		return 0
	}
	return a.Span() / time.Duration(a.Columns)
}

// ColumnStart returns the time column j begins at.
func (a TimeAxis) ColumnStart(j int) time.Time {
	if a.Columns <= 0 {
		return a.Start
	}
	return addSeconds(a.Start, a.SpanSeconds()*float64(j)/float64(a.Columns))
}

// addSeconds returns t + s seconds, at any distance.
func addSeconds(t time.Time, s float64) time.Time {
	whole := math.Floor(s)
	return time.Unix(t.Unix()+int64(whole), int64(t.Nanosecond())+int64((s-whole)*1e9)).In(t.Location())
}

// ColumnAt returns the column holding time t, clamped to the axis.
func (a TimeAxis) ColumnAt(t time.Time) int {
	span := a.SpanSeconds()
	if a.Columns <= 0 || span <= 0 {
		return 0
	}
	j := int(math.Min(math.Max(SecondsBetween(a.Start, t)/span*float64(a.Columns), -1), float64(a.Columns)))
	return min(max(j, 0), a.Columns-1)
}

// timeGrid is the part of the snapshot's time grid its cells occupy:
// buckets of width micros starting at absolute bucket first.
type timeGrid struct {
	first   int64
	buckets int
	micros  int64
}

// newTimeGrid returns the occupied part of snap's time grid that ms
// reads: the hot tablets', the traffic recording's or the cell
// timestamps'. A span
// beyond the [keyspace.MaxTimeBuckets] every grid keeps to has no time
// axis, so that no file can make a grid cost more than that.
func newTimeGrid(snap *keyspace.Snapshot, ms measure) timeGrid {
	first, last, micros := snap.TimeSpan()
	switch {
	case ms.cpu:
		first, last, micros = snap.CPUSpan()
	case ms.traffic:
		first, last, micros = snap.TrafficSpan()
	}
	if micros <= 0 || last <= first || last-first > keyspace.MaxTimeBuckets {
		return timeGrid{}
	}
	return timeGrid{first: first, buckets: int(last - first), micros: micros}
}

// axis returns the time axis of columns columns over the grid.
func (g timeGrid) axis(columns int) TimeAxis {
	return TimeAxis{
		Start:   gridTime(g.first, g.micros),
		End:     gridTime(g.first+int64(g.buckets), g.micros),
		Columns: columns,
	}
}

// gridTime returns the start of absolute bucket i of a grid of buckets
// micros wide, clamped to the range of int64 microseconds rather than
// wrapped around it.
func gridTime(i, micros int64) time.Time {
	switch {
	case micros > 0 && i > math.MaxInt64/micros:
		return time.UnixMicro(math.MaxInt64).UTC()
	case micros > 0 && i < math.MinInt64/micros:
		return time.UnixMicro(math.MinInt64).UTC()
	}
	return time.UnixMicro(i * micros).UTC()
}

// empty returns a zero histogram covering the grid densely.
func (g timeGrid) empty() keyspace.TimeHist {
	return keyspace.TimeHist{First: g.first, Counts: make([]float64, g.buckets)}
}

// accumulate adds h (none when nil) into dense, a histogram covering the
// grid.
func (g timeGrid) accumulate(dense []float64, h *keyspace.TimeHist) {
	if h == nil {
		return
	}
	for j, count := range h.Counts {
		if k := h.First + int64(j) - g.first; k >= 0 && k < int64(len(dense)) {
			dense[k] += count
		}
	}
}

// rebinner spreads grid buckets over columns by overlap: a column covers
// buckets/columns grid buckets, and each grid bucket gives every column
// the share of its count that their overlap is of its width. Every column
// spans the same time, so a steady write rate draws a flat row whether
// the grid is coarser or finer than the columns: no stripes from columns
// that caught one grid bucket more than their neighbours.
type rebinner struct {
	// Grid bucket g gives fractions[k] of its count to column columns[k]
	// for k in offsets[g] ≤ k < offsets[g+1].
	offsets   []int
	columns   []int
	fractions []float64
}

func newRebinner(buckets, columns int) rebinner {
	r := rebinner{offsets: make([]int, buckets+1)}
	// On a common integer scale, grid bucket g is [g·columns,
	// (g+1)·columns) and column j is [j·buckets, (j+1)·buckets); the
	// overlaps are exact integers, so equal overlaps give equal fractions.
	for g := range buckets {
		lo, hi := g*columns, (g+1)*columns
		for j := lo / buckets; j < columns && j*buckets < hi; j++ {
			overlap := min(hi, (j+1)*buckets) - max(lo, j*buckets)
			if overlap > 0 {
				r.columns = append(r.columns, j)
				r.fractions = append(r.fractions, float64(overlap)/float64(columns))
			}
		}
		r.offsets[g+1] = len(r.columns)
	}
	return r
}

// apply adds the dense grid counts into out, one value per column.
func (r rebinner) apply(dense, out []float64) {
	for g, count := range dense {
		if count == 0 {
			continue
		}
		for k := r.offsets[g]; k < r.offsets[g+1]; k++ {
			out[r.columns[k]] += count * r.fractions[k]
		}
	}
}
