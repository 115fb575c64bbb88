package emulator

import (
	"context"
	"fmt"
	"sync"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/keyspace"
)

const (
	// batchMaxRows and batchMaxBytes bound one ApplyBulk call: large enough
	// to amortise the round trip, small enough to keep the client's memory
	// flat while the oversized row is written.
	batchMaxRows  = 2000
	batchMaxBytes = 16 << 20
	// batchesInFlight is how many ApplyBulk calls one table has outstanding.
	batchesInFlight = 2
	// mutationMaxBytes bounds one mutation of a large row: the 126 MB row
	// goes out in pieces of about 8 MiB, each within gRPC's message limit.
	mutationMaxBytes = 8 << 20
)

// bulkWriter writes a scenario's rows, as its [demo.Put] receives them, to
// its table in batches through [bigtable.Table.ApplyBulk], a few batches in flight at a
// time. Call close to flush and wait; it returns the first error.
type bulkWriter struct {
	ctx    context.Context
	table  *bigtable.Table
	name   string
	window window
	// onWritten is called with the number of new rows each finished batch
	// wrote; it may be called from several goroutines at once.
	onWritten func(rows int)

	keys      []string
	mutations []*bigtable.Mutation
	newRows   int // rows first seen in the pending batch
	bytes     int
	rows      int // rows put so far
	filler    filler

	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	err   error
}

func newBulkWriter(ctx context.Context, table *bigtable.Table, name string, w window, onWritten func(int)) *bulkWriter {
	return &bulkWriter{
		ctx:       ctx,
		table:     table,
		name:      name,
		window:    w,
		onWritten: onWritten,
		slots:     make(chan struct{}, batchesInFlight),
	}
}

// put adds one row, materializing each cell's value at its size. A row
// larger than [mutationMaxBytes] goes out as several mutations of the
// same key, which Bigtable applies to the one row.
func (w *bulkWriter) put(key string, cells ...keyspace.Cell) error {
	if err := w.failed(); err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("table %q: a row key must not be empty", w.name)
	}
	if len(cells) == 0 {
		return fmt.Errorf("table %q row %q: a row needs at least one cell", w.name, key)
	}
	w.rows++
	w.newRows++
	for first := 0; first < len(cells); {
		mutation := bigtable.NewMutation()
		size := len(key)
		next := first
		for ; next < len(cells) && (next == first || size+cellBytes(cells[next]) <= mutationMaxBytes); next++ {
			c := cells[next]
			if err := w.window.check(key, c); err != nil {
				return fmt.Errorf("table %q: %w", w.name, err)
			}
			mutation.Set(c.Family, c.Qualifier, bigtable.Timestamp(c.Timestamp), w.filler.value(c.ValueBytes))
			size += cellBytes(c)
		}
		first = next
		w.keys = append(w.keys, key)
		w.mutations = append(w.mutations, mutation)
		w.bytes += size
		if len(w.keys) >= batchMaxRows || w.bytes >= batchMaxBytes {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellBytes is what one cell adds to a mutation: family, qualifier, value
// and the timestamp's 8 bytes and some framing.
func cellBytes(c keyspace.Cell) int {
	return len(c.Family) + len(c.Qualifier) + int(c.ValueBytes) + 16
}

// flush hands the pending batch to a goroutine, waiting for a free slot.
func (w *bulkWriter) flush() error {
	if len(w.keys) == 0 {
		return w.failed()
	}
	keys, mutations, newRows := w.keys, w.mutations, w.newRows
	w.keys, w.mutations, w.newRows, w.bytes = nil, nil, 0, 0
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("write to table %q: %w", w.name, err)
	}

	select {
	case w.slots <- struct{}{}:
	case <-w.ctx.Done():
		return fmt.Errorf("write to table %q: %w", w.name, w.ctx.Err())
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer func() { <-w.slots }()
		if err := w.write(keys, mutations, newRows); err != nil {
			w.fail(err)
		}
	}()
	return w.failed()
}

// write applies a batch and reports its new rows; a panic in it is
// returned as the bug it is ([bug.Error]).
func (w *bulkWriter) write(keys []string, mutations []*bigtable.Mutation, newRows int) (err error) {
	defer bug.Catch(&err)
	if err := w.apply(keys, mutations); err != nil {
		return err
	}
	if w.onWritten != nil {
		w.onWritten(newRows)
	}
	return nil
}

func (w *bulkWriter) apply(keys []string, mutations []*bigtable.Mutation) error {
	rowErrs, err := w.table.ApplyBulk(w.ctx, keys, mutations)
	if err != nil {
		return fmt.Errorf("write %d rows to table %q: %w", len(keys), w.name, err)
	}
	failed, first := 0, -1
	for i, rowErr := range rowErrs {
		if rowErr != nil {
			failed++
			if first < 0 {
				first = i
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("write to table %q: %d of %d rows failed, first %q: %w",
			w.name, failed, len(keys), keys[first], rowErrs[first])
	}
	return nil
}

func (w *bulkWriter) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

func (w *bulkWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// close flushes what is pending, waits for every batch and returns the first
// error. It returns the number of rows put.
func (w *bulkWriter) close() (rows int, err error) {
	flushErr := w.flush()
	w.wg.Wait()
	if err := w.failed(); err != nil {
		return w.rows, err
	}
	return w.rows, flushErr
}
