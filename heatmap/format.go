package heatmap

import (
	"math"

	"github.com/btviz/btviz/units"
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
	}
	return units.Short(v)
}
