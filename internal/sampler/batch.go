package sampler

import (
	"slices"
	"strings"
	"sync"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/keyspace"
)

// Batch sizes: rows travel from the readers to the builder in batches so
// that channel operations are per batch, not per row, and the cells of a
// batch share one backing array so that converting a row allocates
// nothing once the batch has been used before.
const (
	batchRows  = 256
	batchCells = 512
)

// cellOverheadBytes is what a cell adds to a row's logical size beyond
// family, qualifier and value: its 8-byte timestamp, as keyspace counts.
const cellOverheadBytes = 8

// batch holds converted rows of one key range on their way to the
// builder. Values are never kept: a cell records its value's length.
type batch struct {
	rows  []keyspace.Row
	cells []keyspace.Cell
	// memory approximates the bytes the batch holds, to bound buffering.
	memory int64
}

var batchPool = sync.Pool{New: func() any {
	return &batch{rows: make([]keyspace.Row, 0, batchRows), cells: make([]keyspace.Cell, 0, batchCells)}
}}

func newBatch() *batch { return batchPool.Get().(*batch) }

// release returns b to the pool; b must not be used afterwards.
func (b *batch) release() {
	clear(b.rows) // drop the keys and names the rows point to
	b.rows, b.cells, b.memory = b.rows[:0], b.cells[:0], 0
	batchPool.Put(b)
}

// full reports whether the batch should be handed on: it holds batchRows
// rows, or its cells fill the shared array (a row with more cells than
// are left grows it, once, rather than be split from its batch).
func (b *batch) full() bool {
	return len(b.rows) >= batchRows || len(b.cells) >= cap(b.cells)
}

// rowSize is what converting a row measured.
type rowSize struct {
	logical int64 // key + family + qualifier + value + 8 per cell
	values  int64 // value bytes only, what the emulator's offsets count
}

// add converts row into the batch with the given weight. families is
// scratch space for the row's family names, which are visited in sorted
// order so that equal rows convert equally.
func (b *batch) add(row bigtable.Row, weight float64, families *[]string) rowSize {
	first := len(b.cells)
	var size rowSize
	key := ""
	if len(row) == 1 { // the common case: no names to sort
		for family, items := range row {
			key = b.addCells(family, items, &size)
		}
	} else {
		names := (*families)[:0]
		for family := range row {
			names = append(names, family)
		}
		slices.Sort(names)
		*families = names
		for _, family := range names {
			if k := b.addCells(family, row[family], &size); k != "" {
				key = k
			}
		}
	}
	size.logical += int64(len(key))
	cells := b.cells[first:len(b.cells):len(b.cells)]
	b.rows = append(b.rows, keyspace.Row{Key: key, Weight: weight, Cells: cells})
	b.memory += rowOverheadBytes + int64(len(key)) + int64(len(cells))*cellOverheadInMemory
	return size
}

// addCells converts the cells of one family, adds their sizes to size and
// returns the row key ("" when there are none).
func (b *batch) addCells(family string, items []bigtable.ReadItem, size *rowSize) (key string) {
	for i := range items {
		item := &items[i]
		key = item.Row
		qualifier := item.Column
		if len(qualifier) > len(family) && qualifier[len(family)] == ':' && qualifier[:len(family)] == family {
			qualifier = qualifier[len(family)+1:]
		} else if _, q, ok := strings.Cut(qualifier, ":"); ok {
			qualifier = q
		}
		value := int64(len(item.Value))
		b.cells = append(b.cells, keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: int64(item.Timestamp), ValueBytes: value})
		size.values += value
		size.logical += int64(len(family)+len(qualifier)+cellOverheadBytes) + value
	}
	return key
}

// In-memory costs of a converted row, for bounding buffers: a Row value
// with its slice header, and a Cell with its strings' headers (the
// strings' bytes are shared with the client's row).
const (
	rowOverheadBytes     = 64
	cellOverheadInMemory = 48
)

// setWeight gives every row of the batch weight w.
func (b *batch) setWeight(w float64) {
	for i := range b.rows {
		b.rows[i].Weight = w
	}
}
