package heatmap

import (
	"errors"
	"fmt"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// ErrNoTablets is returned (wrapped) by [Build] for [BucketTablets] on a
// snapshot without a tablet map.
var ErrNoTablets = errors.New("snapshot has no tablet map")

// tabletUnits lists one unit per SampleRowKeys range that meets the scope.
// A range wholly inside the scope brings its own statistics; one cut by
// the scope's bounds, and any range when the measure reads traffic (which
// ranges do not keep), is estimated from the tree nodes inside it.
func tabletUnits(snap *keyspace.Snapshot, sc scope, grid timeGrid, ms measure) ([]unit, error) {
	if len(snap.Ranges) == 0 {
		return nil, fmt.Errorf("%w of table %s (no SampleRowKeys ranges were recorded); use prefix, even or heat bucketing", ErrNoTablets, escape.Quote(snap.Table))
	}
	var units []unit
	for i := range snap.Ranges {
		r := &snap.Ranges[i]
		start, end := string(r.Start), string(r.End)
		if !overlaps(start, end, sc.start, sc.end) {
			continue
		}
		if start >= sc.start && !keyspace.EndBefore(sc.end, end) && !ms.traffic && !ms.cpu {
			units = append(units, unit{kind: unitTablet, start: start, end: end, stats: &r.Stats, writes: &r.Writes})
			continue
		}
		cut := scope{anchor: sc.anchor, start: max(start, sc.start), end: minEnd(end, sc.end), clipped: true}
		stats := &keyspace.Stats{}
		writes := grid.empty()
		var traffic *keyspace.NodeTraffic
		var cpu *keyspace.TimeHist
		for _, u := range collectUnits(cut, func(*unit, int) bool { return false }) {
			stats.Merge(u.stats)
			switch {
			case ms.cpu:
				if cpu == nil {
					h := grid.empty()
					cpu = &h
				}
				grid.accumulate(cpu.Counts, u.cpu)
			case ms.traffic:
				traffic = mergeTraffic(traffic, u.traffic)
			default:
				grid.accumulate(writes.Counts, u.writes)
			}
		}
		units = append(units, unit{kind: unitTablet, start: cut.start, end: cut.end, stats: stats, writes: &writes, traffic: traffic, cpu: cpu})
	}
	return units, nil
}

// minEnd returns the earlier of two range ends ("" is the end of the
// table).
func minEnd(a, b string) string {
	if keyspace.EndBefore(a, b) {
		return a
	}
	return b
}

// mergeTraffic returns sum with t added, starting a fresh sum when sum is
// nil.
func mergeTraffic(sum, t *keyspace.NodeTraffic) *keyspace.NodeTraffic {
	if t == nil {
		return sum
	}
	if sum == nil {
		sum = &keyspace.NodeTraffic{}
	}
	sum.Merge(t)
	return sum
}
