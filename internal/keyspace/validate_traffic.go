package keyspace

import (
	"math"
	"strconv"

	"github.com/btviz/btviz/internal/escape"
)

// maxFileMethods bounds a traffic list of data-API methods.
const maxFileMethods = 256

// trafficGrid checks the recording's table-wide values and its time grid:
// the root's histograms, which span every other node's, cover at most
// [MaxTimeBuckets] buckets of a width whose arithmetic cannot overflow.
// It also refuses node traffic in a snapshot that holds no recording.
func (v *validator) trafficGrid(path string) error {
	t, root := v.snap.Traffic, v.snap.Root
	if t == nil {
		if root.Traffic != nil {
			return problem(path+".root.traffic", "set, but the snapshot holds no recording (%s.traffic)", path)
		}
		return nil
	}
	path += ".traffic"
	if t.Duration < 0 {
		return problem(path+".duration_ns", "%d is negative", t.Duration)
	}
	if t.BucketMicros <= 0 || t.BucketMicros > maxTimeBucketMicros {
		return problem(path+".bucket_micros", "time bucket width %d µs is not between 1 and 2^62", t.BucketMicros)
	}
	if err := methods(path+".methods", t.Methods); err != nil {
		return err
	}
	for _, list := range []struct {
		name string
		rows []HotRow
	}{{"top_reads", t.TopReads}, {"top_writes", t.TopWrites}} {
		if len(list.rows) > maxFileRowList {
			return problem(path+"."+list.name, "%d rows, more than %d", len(list.rows), maxFileRowList)
		}
		for i, r := range list.rows {
			err := counts(path+"."+list.name+"["+strconv.Itoa(i)+"]", field{"count", r.Count}, field{"error", r.Error}, field{"bytes", r.Bytes})
			if err != nil {
				return err
			}
		}
	}
	if len(t.TopScans) > maxFileRowList {
		return problem(path+".top_scans", "%d scans, more than %d", len(t.TopScans), maxFileRowList)
	}
	for i, s := range t.TopScans {
		scanPath := path + ".top_scans[" + strconv.Itoa(i) + "]"
		if err := counts(scanPath, field{"count", s.Count}, field{"error", s.Error}, field{"rows", s.Rows}); err != nil {
			return err
		}
		if s.End != "" && s.End <= s.Start {
			return problem(scanPath+".end", "%v does not come after the start %v", s.End, s.Start)
		}
	}
	if m := t.Merged; m != nil {
		if err := mergedRecordings(path+".merged", m); err != nil {
			return err
		}
	}
	if root.Traffic == nil {
		return nil
	}
	var seen bool
	v.trafficFirst, v.trafficLast, seen = root.Traffic.span()
	timePath := v.path + ".root.traffic.time"
	if v.trafficLast-v.trafficFirst > MaxTimeBuckets {
		return problem(timePath, "the recording's histograms span %d buckets, more than the %d of a time axis", v.trafficLast-v.trafficFirst, MaxTimeBuckets)
	}
	width := t.BucketMicros
	if seen && (v.trafficFirst < floorDiv(math.MinInt64, width) || v.trafficLast-1 > floorDiv(math.MaxInt64, width)) {
		return problem(timePath, "buckets [%d, %d) of %d µs lie beyond any time", v.trafficFirst, v.trafficLast, width)
	}
	return nil
}

// nodeTraffic checks one node's recorded traffic: counts, key bounds,
// methods, and histograms inside the recording's span.
func (v *validator) nodeTraffic(path string, t *NodeTraffic) error {
	if v.snap.Traffic == nil {
		return problem(path, "set, but the snapshot holds no recording (%s.traffic)", v.path)
	}
	c := &t.OpCounts
	err := counts(path, field{"ops", c.Ops}, field{"point_reads", c.PointReads}, field{"scans", c.Scans},
		field{"rows_read", c.RowsRead}, field{"bytes_read", c.BytesRead}, field{"rows_written", c.RowsWritten}, field{"bytes_written", c.BytesWritten})
	if err != nil {
		return err
	}
	if t.LastKey != "" && t.LastKey < t.FirstKey {
		return problem(path+".last_key", "%v comes before first_key %v", t.LastKey, t.FirstKey)
	}
	if err := methods(path+".methods", t.Methods); err != nil {
		return err
	}
	for i, name := range []string{"ops", "rows_read", "bytes_read", "rows_written", "bytes_written"} {
		if err := histWithin(path+".time."+name, t.hists()[i], v.trafficFirst, v.trafficLast, "the recording's time"); err != nil {
			return err
		}
	}
	if t.Latency != nil {
		return v.nodeLatency(path+".latency", t.Latency)
	}
	return nil
}

// nodeLatency checks a node's latency sketches: known bounds on their
// levels, bins and counts, and time buckets inside the recording's span.
func (v *validator) nodeLatency(path string, l *NodeLatency) error {
	if len(l.Kinds) > maxFileMethods {
		return problem(path+".kinds", "%d kinds of call, more than %d", len(l.Kinds), maxFileMethods)
	}
	for i := range l.Kinds {
		k := &l.Kinds[i]
		kindPath := path + ".kinds[" + strconv.Itoa(i) + "]"
		k.Kind = cutText(k.Kind)
		if i > 0 && l.Kinds[i-1].Kind >= k.Kind {
			return problem(kindPath+".kind", "%s is not after %s: kinds are sorted and appear once", escape.Quote(k.Kind), escape.Quote(l.Kinds[i-1].Kind))
		}
		if err := latencySketch(kindPath+".sketch", &k.Sketch); err != nil {
			return err
		}
	}
	h := &l.Time
	if len(h.Cells) > MaxTimeBuckets {
		return problem(path+".time.cells", "%d cells, more than the %d buckets of a time axis", len(h.Cells), MaxTimeBuckets)
	}
	// Cells cover LatencyCellBuckets traffic buckets each. A call that
	// names no key (SampleRowKeys) has a latency but no count over time,
	// so cells may lie before or after the counts: the builder keeps every
	// call, counted or not, within MaxTimeBuckets buckets, so a cell lies
	// within that many of the counts. A recording whose calls named no key
	// at all has no counts: its cells are bounded by the grid's arithmetic.
	lo, hi := floorDiv(math.MinInt64/LatencyCellBuckets, v.snap.Traffic.BucketMicros), floorDiv(math.MaxInt64/LatencyCellBuckets, v.snap.Traffic.BucketMicros)
	if v.trafficLast > v.trafficFirst {
		lo, hi = floorDiv(v.trafficLast-MaxTimeBuckets, LatencyCellBuckets), floorDiv(v.trafficFirst+MaxTimeBuckets-1, LatencyCellBuckets)+1
	}
	if first, last, ok := h.Span(); ok && last-first > MaxTimeBuckets/LatencyCellBuckets+1 {
		return problem(path+".time.cells", "cells [%d, %d) span more than the %d buckets of a time axis", first, last, MaxTimeBuckets)
	}
	for j := range h.Cells {
		c := &h.Cells[j]
		cellPath := path + ".time.cells[" + strconv.Itoa(j) + "]"
		switch {
		case c.Bucket < lo || c.Bucket >= hi:
			return problem(cellPath+".bucket", "%d lies outside the recording's time, cells [%d, %d)", c.Bucket, lo, hi)
		case j > 0 && c.Bucket <= h.Cells[j-1].Bucket:
			return problem(cellPath+".bucket", "%d is not after %d: cells are sorted and appear once", c.Bucket, h.Cells[j-1].Bucket)
		}
		if err := latencySketch(cellPath, &c.LatencySketch); err != nil {
			return err
		}
	}
	return nil
}

// latencySketch checks one latency sketch.
func latencySketch(path string, s *LatencySketch) error {
	switch {
	case s.Level < 0 || s.Level > maxLatencyLevel:
		return problem(path+".level", "%d is not between 0 and %d", s.Level, maxLatencyLevel)
	case s.Offset < 0 || s.Offset > maxLatencyIndex:
		return problem(path+".offset", "%d is not between 0 and %d", s.Offset, maxLatencyIndex)
	case len(s.Counts) > LatencyWholeBins:
		return problem(path+".counts", "%d bins, more than %d", len(s.Counts), LatencyWholeBins)
	case math.IsNaN(s.MaxNs) || s.MaxNs < 0 || s.MaxNs > maxFileCount:
		return problem(path+".max_ns", "%v is not a latency between 0 and %g ns", s.MaxNs, float64(maxFileCount))
	}
	for j, c := range s.Counts {
		if math.IsNaN(c) || c < 0 || c > maxFileCount {
			return problem(path+".counts["+strconv.Itoa(j)+"]", "%v is not a count between 0 and %g", c, float64(maxFileCount))
		}
	}
	return nil
}

// methods checks a list of method counts.
func methods(path string, list []MethodCount) error {
	if len(list) > maxFileMethods {
		return problem(path, "%d methods, more than %d", len(list), maxFileMethods)
	}
	for i, m := range list {
		if err := counts(path+"["+strconv.Itoa(i)+"]", field{"calls", m.Calls}, field{"errors", m.Errors}); err != nil {
			return err
		}
	}
	return nil
}

// mergedRecordings checks what a merged recording says it was made of.
func mergedRecordings(path string, m *MergedRecordings) error {
	switch {
	case m.Recordings < 0 || m.Recordings > maxFileTables:
		return problem(path+".recordings", "%d is not between 0 and %d", m.Recordings, maxFileTables)
	case len(m.Names) > maxFileTables || len(m.ClockOffsets) > maxFileTables || len(m.Notes) > maxFileTables:
		return problem(path, "more than %d recordings named", maxFileTables)
	}
	for i := range m.Names {
		m.Names[i] = cutText(m.Names[i])
	}
	for i := range m.Notes {
		m.Notes[i] = cutText(m.Notes[i])
	}
	for i := range m.ClockOffsets {
		o := &m.ClockOffsets[i]
		o.Name = cutText(o.Name)
		if math.IsNaN(o.Correlation) || math.Abs(o.Correlation) > 1 || math.IsNaN(o.AtZero) || math.Abs(o.AtZero) > 1 {
			return problem(path+".clock_offsets["+strconv.Itoa(i)+"]", "a correlation outside [-1, 1]")
		}
	}
	return nil
}
