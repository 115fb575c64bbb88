package heatmap

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Unit says how a metric's values are written in legends and labels.
type Unit uint8

const (
	// UnitCount is a plain count, written with K, M, G suffixes.
	UnitCount Unit = iota
	// UnitBytes is a size, written in B, KB, MB, GB, TB (powers of 1024).
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
		return formatBytes(v)
	case UnitRatio:
		return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
	case UnitShare:
		return formatPercent(v)
	}
	return formatCount(v)
}

func formatCount(v float64) string {
	if v == 0 {
		return "0"
	}
	if math.Abs(v) < 1000 {
		if v == math.Trunc(v) {
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
		return trimZeros(strconv.FormatFloat(v, 'f', decimalsFor(v), 64))
	}
	return withSuffix(v, 1000, []string{"K", "M", "G", "T", "P"}, "")
}

func formatBytes(v float64) string {
	if math.Abs(v) < 1024 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + " B"
	}
	return withSuffix(v, 1024, []string{"KB", "MB", "GB", "TB", "PB"}, " ")
}

// withSuffix scales v down by base until it is below base and writes it
// with three significant digits and the matching suffix.
func withSuffix(v, base float64, suffixes []string, sep string) string {
	i := -1
	for math.Abs(v) >= base && i < len(suffixes)-1 {
		v /= base
		i++
	}
	// Rounding may carry to base (999.96K); move up a unit then.
	if math.Abs(v) >= base-0.05 && i < len(suffixes)-1 {
		v /= base
		i++
	}
	return trimZeros(strconv.FormatFloat(v, 'f', decimalsFor(v), 64)) + sep + suffixes[i]
}

// decimalsFor gives three significant digits for values below 1000.
func decimalsFor(v float64) int {
	switch a := math.Abs(v); {
	case a >= 100:
		return 0
	case a >= 10:
		return 1
	case a >= 1:
		return 2
	}
	return 3
}

func formatPercent(v float64) string {
	p := v * 100
	switch a := math.Abs(p); {
	case p == 0:
		return "0%"
	case a >= 10:
		return strconv.FormatFloat(p, 'f', 0, 64) + "%"
	case a >= 1:
		return trimZeros(strconv.FormatFloat(p, 'f', 1, 64)) + "%"
	case a >= 0.01:
		return trimZeros(strconv.FormatFloat(p, 'f', 2, 64)) + "%"
	}
	return "<0.01%"
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// formatDuration writes d with at most two units: 7d, 3h20m, 11m15s, 45s,
// 250ms.
func formatDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	type unit struct {
		size time.Duration
		name string
	}
	units := []unit{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "µs"}}
	for i, u := range units {
		if d < u.size && i < len(units)-1 {
			continue
		}
		whole := d / u.size
		out := fmt.Sprintf("%d%s", whole, u.name)
		if rest := d - whole*u.size; i+1 < len(units) && rest >= units[i+1].size {
			out += fmt.Sprintf("%d%s", rest/units[i+1].size, units[i+1].name)
		}
		return out
	}
	return d.String()
}
