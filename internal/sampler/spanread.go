package sampler

import (
	"context"

	"cloud.google.com/go/bigtable"
)

// readSpans reads the spans of one call of a span sample, in one
// ReadRows call; name is their key range. The spans are read in full,
// each row weighted by its span.
func (w *worker) readSpans(ctx context.Context, call spanRead, name string) error {
	s := w.s
	w.watch.begin(w.id, name)
	defer w.watch.end(w.id)
	r := &rangeReader{spans: call, weight: 1, pass: passFirst, spanRows: make([]float64, len(call)), spanBytes: make([]float64, len(call))}
	for _, span := range call {
		r.estimate += span.bytes
	}
	err := s.table.ReadRows(ctx, call.rowSet(), func(row bigtable.Row) bool {
		w.add(r, row)
		return true
	}, s.readOptions(false, 0)...)
	w.flushCurrent(r)
	if err != nil {
		return err
	}
	w.creditRest(r)
	var groups []groupEstimate
	for j, span := range call {
		if !span.certain {
			groups = append(groups, groupEstimate{index: span.index, rows: span.weight * r.spanRows[j], bytes: span.weight * r.spanBytes[j]})
		}
	}
	s.events <- event{task: w.seq, spans: call, groups: groups}
	return nil
}

// rowSet returns the call's spans as a RowRangeList, adjacent spans
// joined.
func (call spanRead) rowSet() bigtable.RowRangeList {
	var list bigtable.RowRangeList
	start, end := call[0].start, call[0].end
	for _, span := range call[1:] {
		if end != "" && span.start == end {
			end = span.end
			continue
		}
		list = append(list, bigtable.NewRange(start, end))
		start, end = span.start, span.end
	}
	return append(list, bigtable.NewRange(start, end))
}

// spanWeight returns the weight of a row of a span sample: that of the
// span holding key. Rows come in key order, so the span is the current
// one or a later one.
func (r *rangeReader) spanWeight(key string) float64 {
	for r.cursor < len(r.spans)-1 && r.spans[r.cursor].end != "" && key >= r.spans[r.cursor].end {
		r.cursor++
	}
	return r.spans[r.cursor].weight
}
