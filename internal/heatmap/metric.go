package heatmap

import (
	"errors"
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// ErrUnknownName is wrapped by the errors of [ParseMetric],
// [ParseBucketing], [ParseScale] and [ParsePalette] for a name they do
// not know.
var ErrUnknownName = errors.New("unknown name")

// Metric names what a heatmap cell measures. The names are stable: they
// are the values of btviz's --metric flag.
//
// Storage metrics read what a scan found stored; traffic metrics read
// what a recording saw an application do ([keyspace.Traffic]). writes and
// write-share read the recording when the snapshot holds one (rows
// written), and the scan's cell timestamps otherwise (cells written, the
// offline stand-in): see [Metric.FromTraffic].
type Metric string

const (
	// MetricWrites counts writes over time: rows written in a traffic
	// recording, cells written (by cell timestamp) in a scan.
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
	// MetricOps counts recorded operations over time: each row a point
	// read or mutation named, each key range a scan asked for.
	MetricOps Metric = "ops"
	// MetricReads counts recorded rows read over time.
	MetricReads Metric = "reads"
	// MetricReadBytes and MetricWriteBytes sum the bytes recorded reads
	// returned and mutations sent, over time.
	MetricReadBytes  Metric = "read-bytes"
	MetricWriteBytes Metric = "write-bytes"
	// MetricLatency is the median latency of the recorded calls that
	// touched a key range, request to trailers as the recording proxy saw
	// them, over time; MetricLatencyMax the slowest. A median is read from
	// the merged latency sketches of the range's nodes
	// ([keyspace.LatencySketch]), within its relative error.
	MetricLatency    Metric = "latency"
	MetricLatencyMax Metric = "latency-max"
	// MetricCPU is the node CPU the table's hot tablets used, in percent of
	// a node, by key range and time: each tablet's share of its node's
	// CPU, spread over the key buckets it spans by the rows they hold, and
	// per time column the mean over the column's minutes. It needs hot
	// tablets (Cloud Bigtable's ListHotTablets, or the demo's simulated
	// ones); one cluster is drawn, named in the title.
	MetricCPU Metric = "cpu"
)

// Metrics returns every metric, in the order help texts list them.
func Metrics() []Metric {
	return []Metric{MetricWrites, MetricRows, MetricBytes, MetricVersions, MetricMaxRow, MetricShare, MetricWriteShare,
		MetricOps, MetricReads, MetricReadBytes, MetricWriteBytes, MetricLatency, MetricLatencyMax, MetricCPU}
}

// MetricsFor returns the metrics that have data in snap, in the order the
// metric key cycles them: the storage metrics for a scan, the traffic
// metrics for a recording (operations first, as Key Visualizer opens),
// and both for a scan joined with a recording.
//
// Hot tablets add cpu (after the traffic metrics, else after the
// storage ones); a recording whose calls carry latencies adds latency and
// latency-max after its operations' metrics. A snapshot of hot tablets
// alone has cpu only.
func MetricsFor(snap *keyspace.Snapshot) []Metric {
	if snap.HotTabletsOnly() {
		return []Metric{MetricCPU}
	}
	var cpu []Metric
	if snap.HasHotTablets() {
		cpu = []Metric{MetricCPU}
	}
	storage := []Metric{MetricWrites, MetricRows, MetricBytes, MetricVersions, MetricMaxRow, MetricShare, MetricWriteShare}
	if !snap.HasTraffic() {
		return append(storage, cpu...)
	}
	traffic := []Metric{MetricOps, MetricReads, MetricWrites, MetricReadBytes, MetricWriteBytes, MetricWriteShare}
	if HasLatency(snap) {
		traffic = append(traffic, MetricLatency, MetricLatencyMax)
	}
	traffic = append(traffic, cpu...)
	if snap.TrafficOnly() {
		return traffic
	}
	return append(traffic, MetricRows, MetricBytes, MetricVersions, MetricMaxRow, MetricShare)
}

// HasLatency reports whether snap holds recorded call latencies.
func HasLatency(snap *keyspace.Snapshot) bool {
	return snap.HasTraffic() && snap.Root != nil && snap.Root.Traffic != nil && snap.Root.Traffic.Latency != nil
}

// DefaultMetric is the metric a view of snap opens on: operations for a
// traffic recording, cpu for hot tablets alone, writes for a scan.
func DefaultMetric(snap *keyspace.Snapshot) Metric {
	switch {
	case snap.HasTraffic():
		return MetricOps
	case snap.HotTabletsOnly():
		return MetricCPU
	}
	return MetricWrites
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
func (m Metric) Timed() bool {
	switch m {
	case MetricWrites, MetricWriteShare, MetricOps, MetricReads, MetricReadBytes, MetricWriteBytes, MetricLatency, MetricLatencyMax, MetricCPU:
		return true
	}
	return false
}

// Traffic reports whether the metric needs a traffic recording.
func (m Metric) Traffic() bool {
	switch m {
	case MetricOps, MetricReads, MetricReadBytes, MetricWriteBytes, MetricLatency, MetricLatencyMax:
		return true
	}
	return false
}

// Latency reports whether the metric reads recorded latencies.
func (m Metric) Latency() bool { return m == MetricLatency || m == MetricLatencyMax }

// HotTablets reports whether the metric needs hot tablets.
func (m Metric) HotTablets() bool { return m == MetricCPU }

// Unavailable says why snap cannot draw the metric ("" when it can): a
// traffic metric of a scan, latency of a recording made before latencies
// were kept, cpu without hot tablets.
func (m Metric) Unavailable(snap *keyspace.Snapshot) string {
	switch {
	case m.HotTablets() && !snap.HasHotTablets():
		return "metric cpu needs hot tablets (--hot-tablets DURATION on a Cloud Bigtable instance, or a snapshot that holds them)"
	case m.Traffic() && !snap.HasTraffic():
		return "metric " + string(m) + " needs a traffic recording (btviz record writes one)"
	case m.Latency() && !HasLatency(snap):
		return "metric " + string(m) + " needs call latencies, which this recording does not hold (it was made by a btviz that did not keep them); record again"
	case snap.HotTabletsOnly() && m != MetricCPU:
		return "this snapshot holds hot tablets alone, with no scan or recording: its one metric is cpu"
	}
	return ""
}

// FromTraffic reports whether, on snap, the metric reads the recording's
// traffic rather than what a scan stored: the traffic metrics always,
// writes and write-share when snap holds a recording.
func (m Metric) FromTraffic(snap *keyspace.Snapshot) bool {
	return m.Traffic() || ((m == MetricWrites || m == MetricWriteShare) && snap.HasTraffic())
}

// OnCallTime reports whether, on snap, the metric's time axis is the
// time of calls (a recording's, or the hot tablets' samples) rather than
// the write time of stored cells.
func (m Metric) OnCallTime(snap *keyspace.Snapshot) bool {
	return m.FromTraffic(snap) || m.HotTablets()
}

// DescriptionFor is [Metric.DescriptionOn] for the metric as it reads
// snap, with what the cpu metric shows named: the cluster, and
// "simulated" for the demo's hot tablets.
func (m Metric) DescriptionFor(snap *keyspace.Snapshot) string {
	if m != MetricCPU || snap == nil || snap.HotTablets == nil {
		return m.DescriptionOn(snap != nil && m.FromTraffic(snap))
	}
	text := "node CPU %"
	if snap.HotTablets.Simulated() {
		text = "simulated node CPU %"
	}
	if c := snap.HotTablets.Shown(); c != "" {
		text += " (cluster " + c + ")"
	}
	return text
}

// Description says in a few words what a cell of the metric holds, as
// legends and titles show it, for a scan (writes are cells written).
func (m Metric) Description() string { return m.DescriptionOn(false) }

// DescriptionOn is [Metric.Description] when the metric reads a traffic
// recording (traffic set: writes are rows written) or a scan.
func (m Metric) DescriptionOn(traffic bool) string {
	switch m {
	case MetricWrites:
		if traffic {
			return "rows written"
		}
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
	case MetricOps:
		return "operations"
	case MetricReads:
		return "rows read"
	case MetricReadBytes:
		return "bytes read"
	case MetricWriteBytes:
		return "bytes written"
	case MetricLatency:
		return "median latency"
	case MetricLatencyMax:
		return "max latency"
	case MetricCPU:
		return "node CPU %"
	}
	return string(m)
}

// Unit returns the unit the metric's values are in.
func (m Metric) Unit() Unit {
	switch m {
	case MetricBytes, MetricMaxRow, MetricReadBytes, MetricWriteBytes:
		return UnitBytes
	case MetricVersions:
		return UnitRatio
	case MetricShare, MetricWriteShare:
		return UnitShare
	case MetricLatency, MetricLatencyMax:
		return UnitDuration
	case MetricCPU:
		return UnitPercent
	}
	return UnitCount
}

// additive reports whether the metric of merged key ranges is the sum of
// their metrics (true) or not (versions per column, largest row,
// latencies). Node CPU adds up: a bucket of two tablets' keys used the
// CPU of both.
func (m Metric) additive() bool {
	return m != MetricVersions && m != MetricMaxRow && !m.Latency()
}

// valid reports whether m is one of [Metrics].
func (m Metric) valid() bool {
	_, err := ParseMetric(string(m))
	return err == nil
}

// measure is a metric as it reads one snapshot: from the recording's
// traffic or from what the scan stored.
type measure struct {
	metric  Metric
	traffic bool
	// cpu is set for the hot tablets' metric; minutes are the minutes
	// their samples cover ([keyspace.Snapshot.CPUMinutes]), on the grid of
	// their CPU, over which a key range's mean is taken.
	cpu     bool
	minutes *keyspace.TimeHist
}

// on resolves the metric for snap.
func (m Metric) on(snap *keyspace.Snapshot) measure {
	ms := measure{metric: m, traffic: m.FromTraffic(snap), cpu: m.HotTablets()}
	if ms.cpu {
		ms.minutes = snap.CPUMinutes()
	}
	return ms
}

// amounts is what a measure reads of a key range: its stored rows, its
// traffic (nil without a recording), its latencies and its hot tablets'
// CPU (percent-minutes) and, for the whole table, the measure's histogram
// (for write shares per column).
type amounts struct {
	stats   *keyspace.Stats
	traffic *keyspace.OpCounts
	latency *keyspace.LatencySketch
	cpu     float64
	hist    *keyspace.TimeHist
}

// scalar returns the metric of a key range, where table holds the whole
// table's amounts (for shares).
func (ms measure) scalar(a, table amounts) float64 {
	switch {
	case ms.cpu:
		if ms.minutes == nil || ms.minutes.Total() <= 0 {
			return 0
		}
		return a.cpu / ms.minutes.Total()
	case ms.metric == MetricLatency && a.latency != nil:
		return float64(a.latency.Median())
	case ms.metric == MetricLatencyMax && a.latency != nil:
		return a.latency.MaxNs
	case ms.metric.Latency():
		return 0
	}
	if ms.traffic {
		t, all := a.traffic, table.traffic
		if t == nil {
			return 0
		}
		switch ms.metric {
		case MetricOps:
			return t.Ops
		case MetricReads:
			return t.RowsRead
		case MetricReadBytes:
			return t.BytesRead
		case MetricWriteBytes:
			return t.BytesWritten
		case MetricWrites:
			return t.RowsWritten
		case MetricWriteShare:
			if all == nil {
				return 0
			}
			return share(t.RowsWritten, all.RowsWritten)
		}
		return 0
	}
	stats := a.stats
	switch ms.metric {
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
		return share(stats.Rows, table.stats.Rows)
	case MetricWriteShare:
		return share(stats.Cells, table.stats.Cells)
	}
	return 0
}

// hist returns the time histogram the measure reads of a unit (nil when
// the unit has none).
func (ms measure) hist(u *unit) *keyspace.TimeHist {
	if ms.cpu {
		return u.cpu
	}
	if !ms.traffic {
		return u.writes
	}
	if u.traffic == nil {
		return nil
	}
	h := &u.traffic.Time
	switch ms.metric {
	case MetricOps:
		return &h.Ops
	case MetricReads:
		return &h.RowsRead
	case MetricReadBytes:
		return &h.BytesRead
	case MetricWriteBytes:
		return &h.BytesWritten
	}
	return &h.RowsWritten
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}
