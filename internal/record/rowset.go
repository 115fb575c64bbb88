package record

import "github.com/btviz/btviz/internal/keyspace"

// Field numbers of google.bigtable.v2.RowSet and RowRange.
const (
	rowSetKeys   = 1
	rowSetRanges = 2

	rangeStartClosed = 1
	rangeStartOpen   = 2
	rangeEndOpen     = 3
	rangeEndClosed   = 4
)

// decodeRowSet reads a RowSet into the named keys and the ranges, each
// range converted to [Start, End): an open start and a closed end move
// one key on (the key followed by a zero byte, the smallest key after
// it), an absent bound is empty. An empty RowSet reads the whole table:
// one range with both bounds empty.
func decodeRowSet(msg []byte, op *keyspace.Op) error {
	for it := fieldsOf(msg); ; {
		if !it.next() {
			if it.err != nil {
				return it.err
			}
			break
		}
		switch it.num {
		case rowSetKeys:
			op.Keys = append(op.Keys, keyspace.Key(it.bytes()))
		case rowSetRanges:
			r, err := decodeRowRange(it.bytes())
			if err != nil {
				return err
			}
			op.Ranges = append(op.Ranges, r)
		}
	}
	if len(op.Keys) == 0 && len(op.Ranges) == 0 {
		op.Ranges = append(op.Ranges, keyspace.KeyRange{})
	}
	return nil
}

// decodeRowRange converts one RowRange to [Start, End), as the emulator
// reads it. Within each oneof the last bound on the wire wins, as in any
// protobuf decoder.
func decodeRowRange(msg []byte) (keyspace.KeyRange, error) {
	var r keyspace.KeyRange
	for it := fieldsOf(msg); ; {
		if !it.next() {
			return r, it.err
		}
		switch it.num {
		case rangeStartClosed:
			r.Start = keyspace.Key(it.bytes())
		case rangeStartOpen:
			r.Start = keyspace.Key(string(it.bytes()) + "\x00")
		case rangeEndOpen:
			r.End = keyspace.Key(it.bytes())
		case rangeEndClosed:
			r.End = keyspace.Key(string(it.bytes()) + "\x00")
		}
	}
}
