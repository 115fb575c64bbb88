package record

// Field numbers of the write requests and responses.
const (
	mutateRowKey       = 2 // MutateRowRequest, CheckAndMutateRowRequest, ReadModifyWriteRowRequest
	mutateRowMutations = 3 // MutateRowRequest

	mutateRowsEntries     = 2 // MutateRowsRequest
	entryRowKey           = 1 // MutateRowsRequest.Entry
	entryMutations        = 2
	mutateRowsRespEntries = 1 // MutateRowsResponse
	respEntryIndex        = 1 // MutateRowsResponse.Entry
	respEntryStatus       = 2
	statusCode            = 1 // google.rpc.Status

	checkTrueMutations  = 4 // CheckAndMutateRowRequest
	checkFalseMutations = 5
	checkMatched        = 1 // CheckAndMutateRowResponse

	rmwRules = 3 // ReadModifyWriteRowRequest
	rmwRow   = 1 // ReadModifyWriteRowResponse
)

// Field numbers of google.bigtable.v2.Row and what it holds.
const (
	rowKey          = 1
	rowFamilies     = 2
	familyName      = 1
	familyColumns   = 2
	columnQualifier = 1
	columnCells     = 2
	cellValue       = 2
)

// entrySpan is one MutateRowsRequest.Entry as decoded: where its row key
// lies in the request, and the bytes of its mutations as sent.
type entrySpan struct {
	keyStart, keyEnd uint32 // a gRPC message is shorter than 4 GiB
	mutationBytes    int64
}

// decodeEntry reads one MutateRowsRequest.Entry, the field entry is at.
func decodeEntry(entry *fields) (entrySpan, error) {
	var e entrySpan
	for it := entry.inner(); ; {
		if !it.next() {
			return e, it.err
		}
		switch it.num {
		case entryRowKey:
			if it.bytes() != nil {
				e.keyStart, e.keyEnd = uint32(it.start), uint32(it.end)
			}
		case entryMutations:
			e.mutationBytes += int64(len(it.bytes()))
		}
	}
}

// decodeEntryStatus reads one MutateRowsResponse.Entry: the index of a
// request entry and whether the server applied it.
func decodeEntryStatus(msg []byte) (index int64, ok bool, err error) {
	var code uint64
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return index, code == 0, it.err
		}
		switch it.num {
		case respEntryIndex:
			index = int64(it.uint())
		case respEntryStatus:
			code = 0 // a later status replaces an earlier one
			st := fieldsOf(it.bytes())
			for st.next() {
				if st.num == statusCode {
					code = st.uint()
				}
			}
			if st.err != nil {
				return index, false, st.err
			}
		}
	}
}

// rowBytes returns the bytes of a google.bigtable.v2.Row as
// ReadModifyWriteRow returns it, counted like a row ReadRows returns:
// its key once, and each cell's family, qualifier and value.
func rowBytes(msg []byte) (key string, bytes int64, err error) {
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return key, bytes + int64(len(key)), it.err
		}
		switch it.num {
		case rowKey:
			key = string(it.bytes())
		case rowFamilies:
			n, err := familyBytes(it.bytes())
			if err != nil {
				return key, bytes, err
			}
			bytes += n
		}
	}
}

// familyBytes counts the cells of one Family of a Row: each cell's
// family name, qualifier and value.
func familyBytes(msg []byte) (int64, error) {
	var name, cells, rest int64
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return cells*name + rest, it.err
		}
		switch it.num {
		case familyName:
			name = int64(len(it.bytes()))
		case familyColumns:
			columnCells, columnRest, err := columnBytes(it.bytes())
			if err != nil {
				return 0, err
			}
			cells += columnCells
			rest += columnRest
		}
	}
}

// columnBytes counts the cells of one Column: how many, and the bytes of
// their qualifiers and values.
func columnBytes(msg []byte) (cells, bytes int64, err error) {
	var qualifier, values int64
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return cells, cells*qualifier + values, it.err
		}
		switch it.num {
		case columnQualifier:
			qualifier = int64(len(it.bytes()))
		case columnCells:
			cells++
			cell := fieldsOf(it.bytes())
			for cell.next() {
				if cell.num == cellValue {
					values += int64(len(cell.bytes()))
				}
			}
			if cell.err != nil {
				return 0, 0, cell.err
			}
		}
	}
}
