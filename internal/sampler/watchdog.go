package sampler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
)

// watchdog notices a server that went away mid-scan. The official client
// retries an unreachable server until the context ends, so a killed
// emulator would hang the scan; when a reader has had no row for
// StallTimeout, the watchdog asks the server for one key over the raw
// stub, which does not retry. If that fails too, the scan stops with the
// error. A slow but live server answers the probe and the readers go on.
type watchdog struct {
	s       *scanner
	readers []readerActivity
}

// readerActivity is what one reader tells the watchdog: the key range it
// reads, whether it is reading, and a count of rows (and reads begun)
// that moves while it makes progress. Counting, rather than taking the
// time of every row, keeps the per-row cost to one uncontended atomic
// add; the padding keeps readers off each other's cache lines.
type readerActivity struct {
	name    atomic.Pointer[string]
	reading atomic.Bool
	rows    atomic.Int64
	_       [40]byte
}

func newWatchdog(s *scanner, workers int) *watchdog {
	return &watchdog{s: s, readers: make([]readerActivity, workers)}
}

func (w *watchdog) begin(id int, name string) {
	w.readers[id].name.Store(&name)
	w.readers[id].rows.Add(1)
	w.readers[id].reading.Store(true)
}

func (w *watchdog) touch(id int) { w.readers[id].rows.Add(1) }
func (w *watchdog) end(id int)   { w.readers[id].reading.Store(false) }

// run checks the readers until ctx ends: every quarter of StallTimeout
// it notes which readers made progress, and probes the server when one
// has made none for StallTimeout.
func (w *watchdog) run(ctx context.Context) {
	timeout := w.s.opts.StallTimeout
	ticker := time.NewTicker(max(timeout/4, time.Millisecond))
	defer ticker.Stop()
	seen := make([]int64, len(w.readers))
	moved := make([]time.Time, len(w.readers))
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		now := time.Now()
		stalled := -1
		for id := range w.readers {
			r := &w.readers[id]
			if rows := r.rows.Load(); rows != seen[id] || !r.reading.Load() {
				seen[id], moved[id] = rows, now
			} else if now.Sub(moved[id]) > timeout && stalled < 0 {
				stalled = id
			}
		}
		if stalled < 0 {
			continue
		}
		err := w.probe(ctx, timeout)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			w.s.fail(fmt.Errorf("reading range %s: no row for %v and %s stopped answering: %w",
				*w.readers[stalled].name.Load(), timeout, w.s.conn.Target.Where(), err))
			return
		}
		for id := range moved {
			moved[id] = time.Now() // the server answers: the reader is just slow
		}
	}
}

// probe reads one key (never empty, which Bigtable refuses) with a filter
// that returns nothing: the cheapest request that still reaches the table.
func (w *watchdog) probe(ctx context.Context, timeout time.Duration) error {
	s := w.s
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	name := s.conn.TableName(s.tableName)
	ctx = withRouting(ctx, name, s.conn.Target.AppProfile)
	stream, err := s.conn.Data.ReadRows(ctx, &btpb.ReadRowsRequest{
		TableName: name, AppProfileId: s.conn.Target.AppProfile,
		Rows:      &btpb.RowSet{RowKeys: [][]byte{[]byte(s.bounds.start + "\x00")}},
		Filter:    &btpb.RowFilter{Filter: &btpb.RowFilter_BlockAllFilter{BlockAllFilter: true}},
		RowsLimit: 1,
	})
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
