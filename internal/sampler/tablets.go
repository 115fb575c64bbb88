package sampler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// keySample is one answer of SampleRowKeys: a key and the approximate
// bytes stored before it. The last sample has an empty key and the total.
type keySample struct {
	key    string
	offset int64
}

// sampleRowKeys calls the data API's SampleRowKeys RPC directly, because
// the official client drops the byte offsets.
func sampleRowKeys(ctx context.Context, conn *connect.Conn, table string) ([]keySample, error) {
	var samples []keySample
	err := streamRowKeys(ctx, conn, table, func(s keySample) bool {
		samples = append(samples, s)
		return true
	})
	return samples, err
}

// streamRowKeys calls SampleRowKeys and hands each answer to each as it
// arrives, until the stream ends or each returns false.
func streamRowKeys(ctx context.Context, conn *connect.Conn, table string, each func(keySample) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream when each stops early
	name := conn.TableName(table)
	ctx = withRouting(ctx, name, conn.Target.AppProfile)
	stream, err := conn.Data.SampleRowKeys(ctx, &btpb.SampleRowKeysRequest{TableName: name, AppProfileId: conn.Target.AppProfile})
	if err != nil {
		return explainRPC(ctx, conn, table, err)
	}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return explainRPC(ctx, conn, table, err)
		}
		if !each(keySample{key: string(resp.RowKey), offset: resp.OffsetBytes}) {
			return nil
		}
	}
}

// withRouting adds the request-routing header Cloud Bigtable expects on
// calls made through the raw stub (the official client adds it itself).
func withRouting(ctx context.Context, tableName, appProfile string) context.Context {
	params := "table_name=" + url.QueryEscape(tableName) + "&app_profile_id=" + url.QueryEscape(appProfile)
	return metadata.AppendToOutgoingContext(ctx, "x-goog-request-params", params)
}

// explainRPC names the table and the target in an RPC error; a missing
// table becomes [connect.Conn.Table]'s error, which lists what exists.
func explainRPC(ctx context.Context, conn *connect.Conn, table string, err error) error {
	if status.Code(err) == codes.NotFound {
		if _, tableErr := conn.Table(ctx, table); tableErr != nil {
			return tableErr
		}
	}
	return fmt.Errorf("sampling row keys of table %s in %s: %w", escape.Quote(table), conn.Target.Where(), err)
}

// span is a key range [start, end) with its sampled bytes: the light form
// of a [keyspace.Range] a scan works with until it has merged an
// emulator's tens of thousands of sample spans down to a few hundred.
// cut is set when the scan's bounds cut the span: its bytes are then
// those of the whole uncut span.
type span struct {
	start, end string
	bytes      int64
	cut        bool
	// wholeStart and wholeEnd are a cut span's keys before the cut.
	wholeStart, wholeEnd string
}

// toRanges turns spans into the snapshot's ranges.
func toRanges(spans []span) []keyspace.Range {
	ranges := make([]keyspace.Range, len(spans))
	for i, s := range spans {
		ranges[i] = keyspace.Range{Start: keyspace.Key(s.start), End: keyspace.Key(s.end), SampledBytes: s.bytes}
	}
	return ranges
}

// spansFromSamples turns consecutive samples into spans [previous key,
// key) holding the bytes between their offsets (see [spanSplitter]).
func spansFromSamples(samples []keySample) []span {
	return splitSamples(samples, "", "")
}

// splitSamples returns the spans samples delimit within [start, end).
func splitSamples(samples []keySample, start, end string) []span {
	spans := make([]span, 0, len(samples)+1)
	split := spanSplitter{start: start, end: end, emit: func(s span) { spans = append(spans, s) }}
	for _, s := range samples {
		if !split.add(s) {
			break
		}
	}
	split.close()
	return spans
}

// spanSplitter turns SampleRowKeys answers, taken in order, into the
// spans they delimit within [start, end) (an empty end is the end of the
// table), handing each to emit as soon as it is known: [previous key,
// key) with the bytes between their offsets. The first and last span are
// cut at the bounds and then keep the bytes of the whole span, as
// SampleRowKeys says nothing finer (span.cut is set). Duplicate keys
// are skipped; a missing end-of-table sample leaves a last span of
// unknown (zero) size; a range no span overlaps gets one empty span.
type spanSplitter struct {
	start, end string
	emit       func(span)

	prevKey    string
	prevOffset int64
	emitted    bool
	done       bool // the spans have reached end
}

// add takes the next sample. It returns false once the spans have
// reached the end bound: the samples after it are not needed.
func (p *spanSplitter) add(s keySample) bool {
	if p.done {
		return false
	}
	final := s.key == ""
	if !final && s.key <= p.prevKey {
		return true // a repeated or empty first key: no span of its own
	}
	p.span(span{start: p.prevKey, end: s.key, bytes: max(0, s.offset-p.prevOffset)})
	p.prevKey, p.prevOffset = s.key, s.offset
	p.done = p.done || final
	return !p.done
}

// close ends the samples.
func (p *spanSplitter) close() {
	if !p.done {
		p.span(span{start: p.prevKey}) // no end-of-table sample
		p.done = true
	}
	if !p.emitted {
		p.emit(span{start: p.start, end: p.end})
		p.emitted = true
	}
}

// span clips r to the bounds and emits what is left.
func (p *spanSplitter) span(r span) {
	switch {
	case p.done:
		return
	case r.end != "" && r.end <= p.start:
		return // ends at or before start
	case p.end != "" && r.start >= p.end:
		p.done = true
		return
	}
	whole := r
	r.cut = r.start < p.start
	r.start = max(r.start, p.start)
	if p.end != "" && (r.end == "" || r.end >= p.end) {
		r.cut = r.cut || r.end != p.end
		r.end = p.end
		p.done = true
	}
	if r.cut {
		r.wholeStart, r.wholeEnd = whole.start, whole.end
	}
	p.emitted = true
	p.emit(r)
}

// clipSpans keeps the spans that overlap [start, end) and cuts the first
// and last at the bounds (see [spanSplitter]).
func clipSpans(spans []span, start, end string) []span {
	var clipped []span
	split := spanSplitter{start: start, end: end, emit: func(s span) { clipped = append(clipped, s) }}
	for _, r := range spans {
		split.span(r)
	}
	split.done = true
	split.close()
	return clipped
}

// tableSizesConcurrency bounds the SampleRowKeys calls [TableSizes] makes
// at once.
const tableSizesConcurrency = 4

// TableSizes returns each table's size in bytes as SampleRowKeys reports
// it (stored bytes on Cloud Bigtable, value bytes on an emulator), for the
// table picker. It fails with the first table that cannot be sampled.
func TableSizes(ctx context.Context, conn *connect.Conn, tables []string) (map[string]int64, error) {
	sizes := make(map[string]int64, len(tables))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	slots := make(chan struct{}, tableSizesConcurrency)
	for _, table := range tables {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			size, err := tableSize(ctx, conn, table)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			sizes[table] = size
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return sizes, nil
}

// tableSize returns the size SampleRowKeys gives table; a panic in it is
// returned as the bug it is ([bug.Error]).
func tableSize(ctx context.Context, conn *connect.Conn, table string) (size int64, err error) {
	defer bug.Catch(&err)
	samples, err := sampleRowKeys(ctx, conn, table)
	if err != nil || len(samples) == 0 {
		return 0, err
	}
	return samples[len(samples)-1].offset, nil
}
