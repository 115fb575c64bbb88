package record

import "github.com/btviz/btviz/internal/keyspace"

// Field numbers of google.bigtable.v2.ReadRowsResponse and its CellChunk.
const (
	readRowsResponseChunks = 1

	chunkRowKey    = 1
	chunkFamily    = 2 // google.protobuf.StringValue
	chunkQualifier = 3 // google.protobuf.BytesValue
	chunkValue     = 6
	chunkValueSize = 7
	chunkResetRow  = 8
	chunkCommitRow = 9

	wrapperValue = 1 // the value field of the protobuf wrapper types
)

// rowAssembler follows ReadRows' cell chunks as the client library does,
// without keeping any value: it knows which row is in progress and how
// many bytes it has returned so far, drops a row on reset_row and hands
// it over on commit_row. A row may span several response messages.
//
// The bytes of a row are its key once plus, for each cell, its family
// name, qualifier and value: what the row's data cost on the wire.
type rowAssembler struct {
	key         string
	inRow       bool
	bytes       int64
	familyLen   int64
	qualLen     int64
	inSplitCell bool // the last chunk said more of its value follows
}

// response decodes one ReadRowsResponse and appends the rows it
// committed to rows.
func (a *rowAssembler) response(msg []byte, rows []keyspace.RowIO) ([]keyspace.RowIO, error) {
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return rows, it.err
		}
		if it.num != readRowsResponseChunks {
			continue
		}
		var err error
		if rows, err = a.chunk(it.bytes(), rows); err != nil {
			return rows, err
		}
	}
}

// chunk applies one CellChunk.
func (a *rowAssembler) chunk(msg []byte, rows []keyspace.RowIO) ([]keyspace.RowIO, error) {
	var (
		value             []byte
		valueSize         uint64
		reset, commit     bool
		family, qualifier []byte
		hasFam, hasQual   bool
	)
	for it := fieldsOf(msg); ; {
		if !it.next() {
			if it.err != nil {
				return rows, it.err
			}
			break
		}
		switch it.num {
		case chunkRowKey:
			if key := it.bytes(); len(key) > 0 && (!a.inRow || string(key) != a.key) {
				a.key, a.inRow = string(key), true
				a.bytes, a.familyLen, a.qualLen, a.inSplitCell = int64(len(key)), 0, 0, false
			}
		case chunkFamily:
			family, hasFam = wrapped(&it), true
		case chunkQualifier:
			qualifier, hasQual = wrapped(&it), true
		case chunkValue:
			value = it.bytes()
		case chunkValueSize:
			valueSize = it.uint()
		case chunkResetRow:
			reset = it.uint() != 0
		case chunkCommitRow:
			commit = it.uint() != 0
		}
	}
	if reset {
		a.inRow, a.bytes, a.inSplitCell = false, 0, false
		return rows, nil
	}
	if !a.inRow {
		return rows, errMalformed // a cell with no row: the client would fail the read too
	}
	if hasFam {
		a.familyLen = int64(len(family))
	}
	if hasQual {
		a.qualLen = int64(len(qualifier))
	}
	if !a.inSplitCell { // a new cell, as the client library counts them
		a.bytes += a.familyLen + a.qualLen
	}
	a.bytes += int64(len(value))
	a.inSplitCell = valueSize > 0
	if commit {
		rows = append(rows, keyspace.RowIO{Key: keyspace.Key(a.key), Bytes: a.bytes})
		a.inRow, a.bytes, a.inSplitCell = false, 0, false
	}
	return rows, nil
}

// wrapped returns the value of the google.protobuf.StringValue or
// BytesValue that is field's payload, marking field malformed if the
// wrapper is.
func wrapped(field *fields) []byte {
	var value []byte
	it := fieldsOf(field.bytes())
	for it.next() {
		if it.num == wrapperValue {
			value = it.bytes()
		}
	}
	if it.err != nil {
		field.fail()
	}
	return value
}
