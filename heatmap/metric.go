package heatmap

import (
	"errors"
	"fmt"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
)

// ErrUnknownName is wrapped by the errors of [ParseMetric],
// [ParseBucketing], [ParseScale] and [ParsePalette] for a name they do
// not know.
var ErrUnknownName = errors.New("unknown name")

// Metric names what a heatmap cell measures. The names are stable: they
// are the values of btviz's --metric flag.
type Metric string

const (
	// MetricWrites counts cells written (by cell timestamp); the only
	// metric, with [MetricWriteShare], that has a time axis.
	MetricWrites Metric = "writes"
	// MetricRows counts rows.
	MetricRows Metric = "rows"
	// MetricBytes sums logical bytes (keys, column names, values,
	// timestamps).
	MetricBytes Metric = "bytes"
	// MetricVersions is the mean number of versions per column
	// (cells / columns).
	MetricVersions Metric = "versions"
	// MetricMaxRow is the size of the largest row.
	MetricMaxRow Metric = "max-row"
	// MetricShare is the bucket's share of the table's rows.
	MetricShare Metric = "share"
	// MetricWriteShare is the bucket's share of the table's writes; on the
	// time axis, of the writes in each time column, which keeps a
	// diagonal crisp when the write rate changes over time.
	MetricWriteShare Metric = "write-share"
)

// Metrics returns every metric, in the order help texts list them.
func Metrics() []Metric {
	return []Metric{MetricWrites, MetricRows, MetricBytes, MetricVersions, MetricMaxRow, MetricShare, MetricWriteShare}
}

// ParseMetric returns the metric named name. Its error lists the valid
// names and wraps [ErrUnknownName].
func ParseMetric(name string) (Metric, error) {
	for _, m := range Metrics() {
		if string(m) == name {
			return m, nil
		}
	}
	return "", fmt.Errorf("%w: metric %q; valid metrics are %s", ErrUnknownName, name, units.OrList(Metrics()))
}

// Timed reports whether the metric has a value per time column.
func (m Metric) Timed() bool { return m == MetricWrites || m == MetricWriteShare }

// Description says in a few words what a cell of the metric holds, as
// legends and titles show it.
func (m Metric) Description() string {
	switch m {
	case MetricWrites:
		return "cells written"
	case MetricRows:
		return "rows"
	case MetricBytes:
		return "logical bytes"
	case MetricVersions:
		return "versions per column"
	case MetricMaxRow:
		return "largest row"
	case MetricShare:
		return "share of rows"
	case MetricWriteShare:
		return "share of writes"
	}
	return string(m)
}

// Unit returns the unit the metric's values are in.
func (m Metric) Unit() Unit {
	switch m {
	case MetricBytes, MetricMaxRow:
		return UnitBytes
	case MetricVersions:
		return UnitRatio
	case MetricShare, MetricWriteShare:
		return UnitShare
	}
	return UnitCount
}

// additive reports whether the metric of merged key ranges is the sum of
// their metrics (true) or not (versions per column, largest row).
func (m Metric) additive() bool { return m != MetricVersions && m != MetricMaxRow }

// valid reports whether m is one of [Metrics].
func (m Metric) valid() bool {
	_, err := ParseMetric(string(m))
	return err == nil
}

// scalar returns the metric of a key range with the given stats, where
// table holds the whole table's stats (for shares).
func (m Metric) scalar(stats, table *keyspace.Stats) float64 {
	switch m {
	case MetricWrites:
		return stats.Cells
	case MetricRows:
		return stats.Rows
	case MetricBytes:
		return stats.Bytes
	case MetricVersions:
		return stats.VersionsPerColumn()
	case MetricMaxRow:
		return float64(stats.MaxRowBytes)
	case MetricShare:
		return share(stats.Rows, table.Rows)
	case MetricWriteShare:
		return share(stats.Cells, table.Cells)
	}
	return 0
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}
