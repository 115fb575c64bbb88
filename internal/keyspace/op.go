package keyspace

import "time"

// Method names of the Bigtable data API that btviz's traffic recording
// tells apart. Any other method is recorded under its own name.
const (
	MethodReadRows           = "ReadRows"
	MethodSampleRowKeys      = "SampleRowKeys"
	MethodMutateRow          = "MutateRow"
	MethodMutateRows         = "MutateRows"
	MethodCheckAndMutateRow  = "CheckAndMutateRow"
	MethodReadModifyWriteRow = "ReadModifyWriteRow"
)

// Op is one recorded data-API call on one table, as the recording proxy
// saw it: the input of the traffic builder, as [Row] is the input of the
// storage [Builder]. A call that streams many rows back (a ReadRows scan)
// arrives as several Ops so that no Op holds more than one response's
// rows: Parts (Part set) bring the rows of the responses as they come and
// only add those rows; the call's own Op comes last, with the request
// (Keys, Ranges), the last response's rows, the status code and CallRows,
// and counts as the operation.
type Op struct {
	// Time is when the call started (for a Part, when its rows arrived).
	Time time.Time
	// Table is the table's ID (the last element of its resource name).
	Table string
	// Method is the data-API method name ([MethodReadRows], …).
	Method string
	// Part marks the continuation of an Op already recorded: its rows
	// count, the call does not count again.
	Part bool
	// Keys are the row keys the call named one by one: the keys of a
	// point read, the row of a MutateRow, CheckAndMutateRow or
	// ReadModifyWriteRow.
	Keys []Key
	// Ranges are the key ranges a read asked for; a read with ranges is a
	// scan. A read of the whole table has one range with both bounds
	// empty.
	Ranges []KeyRange
	// RowLimit is the row limit a read asked for (0: none).
	RowLimit int64
	// RowsRead are the rows the call returned, with the bytes returned
	// for each (key, family, qualifier and value bytes of its cells).
	RowsRead []RowIO
	// CallRows is how many rows the whole call returned, its Parts' and
	// its own, on the call's own Op (0 on a Part).
	CallRows int64
	// RowsWritten are the rows the call changed, with the bytes of the
	// mutations sent for each. A MutateRows entry the server refused is
	// not in it.
	RowsWritten []RowIO
	// Code is the gRPC status code the call ended with (0 is OK). A Part
	// carries no code.
	Code uint32
	// Latency is how long the call took as the recording proxy saw it,
	// from its request to its trailers (0: not measured; a Part carries
	// none).
	Latency time.Duration
}

// KeyRange is the key range [Start, End); an empty End is the end of the
// table.
type KeyRange struct {
	Start Key `json:"start"`
	End   Key `json:"end"`
}

// RowIO is one row an operation read or wrote and how many bytes crossed
// the wire for it.
type RowIO struct {
	Key   Key
	Bytes int64
}

// IsScan reports whether the op is a read of key ranges rather than of
// named rows.
func (op *Op) IsScan() bool { return len(op.Ranges) > 0 }
