package sampler

import (
	"context"
	"fmt"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
)

// ReadPlan is what a [Scan] with the same options asks the server for,
// so that a benchmark can compare a scan with a bare ReadRows loop over
// the same rows: the calls, each one ReadRows request, made Concurrency
// at a time. A scan may add calls (the re-reads of a sampled scan's
// oversized ranges); the plan has its first reads only.
type ReadPlan struct {
	Calls       []ReadCall
	Concurrency int
}

// ReadCall is one ReadRows request of a [ReadPlan].
type ReadCall struct {
	Rows    bigtable.RowSet
	Options []bigtable.ReadOption
}

// PlanReads returns the reads a Scan of table with opts would make. On an
// emulator, whose SampleRowKeys answer is random, they are those of a
// scan with the same answer: the same number of calls over similar
// ranges, not the same ranges.
func PlanReads(ctx context.Context, conn *connect.Conn, table string, opts Options) (*ReadPlan, error) {
	opts, keyRange, err := opts.normalize(conn.Target.IsEmulator())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Table(ctx, table); err != nil {
		return nil, err
	}
	var spans []span
	split := spanSplitter{start: keyRange.start, end: keyRange.end, emit: func(sp span) { spans = append(spans, sp) }}
	if err := streamRowKeys(ctx, conn, table, split.add); err != nil {
		return nil, err
	}
	split.close()
	s := &scanner{conn: conn, table: conn.Client.Open(table), opts: opts, emulator: conn.Target.IsEmulator()}
	s.plan = newPlan(spans, s.measure(ctx, spans), opts)
	if s.plan.method == keyspace.MethodPositions {
		return nil, fmt.Errorf("%w: a sample inside tablets places its reads as it goes; it has no plan to read ahead", ErrBadOptions)
	}
	reads := &ReadPlan{Concurrency: opts.Concurrency}
	for _, u := range s.plan.units {
		start, end := string(s.plan.ranges[u.first].Start), string(s.plan.ranges[u.last-1].End)
		var limit int64
		if s.plan.maxRows > 0 {
			limit = s.plan.limits[u.first]
		}
		reads.Calls = append(reads.Calls, ReadCall{Rows: bigtable.NewRange(start, end), Options: s.readOptions(s.plan.method == keyspace.MethodRows, limit)})
	}
	for _, call := range s.plan.calls {
		reads.Calls = append(reads.Calls, ReadCall{Rows: call.rowSet(), Options: s.readOptions(false, 0)})
	}
	return reads, nil
}
