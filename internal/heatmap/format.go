package heatmap

import (
	"math"
	"time"

	"github.com/btviz/btviz/internal/units"
)

// Unit says how a metric's values are written in legends and labels.
type Unit uint8

const (
	// UnitCount is a plain count, written with K, M, G suffixes.
	UnitCount Unit = iota
	// UnitBytes is a size, written in B, kB, MB, GB, TB (powers of 1000,
	// as everywhere in btviz: see package units).
	UnitBytes
	// UnitRatio is a dimensionless ratio, written with up to two decimals.
	UnitRatio
	// UnitShare is a fraction of a whole, written as a percentage.
	UnitShare
	// UnitDuration is a time in nanoseconds, written as "850µs", "1.2ms".
	UnitDuration
	// UnitPercent is a percentage (of a node's CPU), written "73%".
	UnitPercent
)

// Format writes v in the unit, short enough for an axis or a legend.
func (u Unit) Format(v float64) string {
	switch u {
	case UnitBytes:
		return units.Bytes(v)
	case UnitRatio:
		return units.Short(math.Round(v*100) / 100)
	case UnitShare:
		return units.Percent(v)
	case UnitDuration:
		return units.Latency(time.Duration(v))
	case UnitPercent:
		return units.Percent(v / 100)
	}
	return units.Short(v)
}

// ColumnText says how much time a column of the axis covers, as legends
// write it: "3h20m", "400d" ([units.Duration]), and beyond the 292 years
// a [time.Duration] holds, "1,142 years".
func (a TimeAxis) ColumnText() string {
	if years := a.SpanSeconds() / float64(max(a.Columns, 1)) / (12 * MonthSeconds); years >= 2 {
		return units.Thousands(int64(math.Round(years))) + " years"
	}
	return units.Duration(a.ColumnDuration())
}
