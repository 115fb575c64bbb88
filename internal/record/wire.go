package record

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// errMalformed reports a message that is not valid protobuf wire format.
var errMalformed = errors.New("malformed protobuf message")

// fields walks the top-level fields of one serialized protobuf message.
// It reads the wire format directly (google.golang.org/protobuf's
// protowire), so that decoding a frame allocates nothing but the keys it
// keeps: see the field numbers in cloud.google.com/go/bigtable's
// apiv2/bigtablepb, which the decoder tests check against.
//
//	for it := fieldsOf(msg); it.next(); {
//		switch it.num { case 1: … it.bytes() … }
//	}
//	if it.err != nil { … }
//
// The walk keeps offsets into msg, not slices of it: moving to the next
// field writes no pointer, which the garbage collector would otherwise
// have to be told of while it runs (a MutateRows call has hundreds of
// fields).
type fields struct {
	msg []byte
	at  int // where the next field starts
	num protowire.Number
	typ protowire.Type
	// start and end delimit the current field's encoded value in msg:
	// the payload of a length-delimited field, the raw bytes of any
	// other.
	start, end int
	// varint is the current field's value when it is a varint.
	varint uint64
	err    error
}

func fieldsOf(msg []byte) fields { return fields{msg: msg} }

// next moves to the next field; it returns false at the end of the
// message or on malformed input (then err is set).
func (f *fields) next() bool {
	at := f.at
	if at >= len(f.msg) || f.err != nil {
		return false
	}
	// Nearly every field of a Bigtable message has a one-byte tag and a
	// one-byte length or value: read those here, the rest in full.
	if at+1 < len(f.msg) {
		tag, second := f.msg[at], f.msg[at+1]
		if tag >= 1<<3 && tag < 0x80 && second < 0x80 {
			switch typ := protowire.Type(tag & 7); typ {
			case protowire.BytesType:
				if end := at + 2 + int(second); end <= len(f.msg) {
					f.num, f.typ, f.start, f.end, f.at = protowire.Number(tag>>3), typ, at+2, end, end
					return true
				}
			case protowire.VarintType:
				f.num, f.typ, f.varint, f.start, f.end, f.at = protowire.Number(tag>>3), typ, uint64(second), at+1, at+2, at+2
				return true
			}
		}
	}
	return f.nextSlow()
}

// nextSlow is [fields.next] for any field.
func (f *fields) nextSlow() bool {
	rest := f.msg[f.at:]
	num, typ, n := protowire.ConsumeTag(rest)
	if n < 0 {
		f.fail()
		return false
	}
	f.num, f.typ = num, typ
	rest = rest[n:]
	at := f.at + n
	start := at
	switch typ {
	case protowire.BytesType:
		var v []byte
		v, n = protowire.ConsumeBytes(rest)
		start = at + n - len(v)
	case protowire.VarintType:
		f.varint, n = protowire.ConsumeVarint(rest)
	default:
		n = protowire.ConsumeFieldValue(num, typ, rest)
	}
	if n < 0 {
		f.fail()
		return false
	}
	f.start, f.end, f.at = start, at+n, at+n
	return true
}

// fail marks the message malformed and ends the walk.
func (f *fields) fail() {
	f.err, f.at = errMalformed, len(f.msg)
}

// bytes returns the payload of a length-delimited field, or nil (and
// marks the message malformed) for a field of another wire type.
func (f *fields) bytes() []byte {
	if f.typ != protowire.BytesType {
		f.fail()
		return nil
	}
	return f.msg[f.start:f.end:f.end]
}

// inner walks the message that is the payload of the current field, a
// length-delimited one; its offsets are the outer message's.
func (f *fields) inner() fields {
	if f.typ != protowire.BytesType {
		f.fail()
		return fields{}
	}
	return fields{msg: f.msg[:f.end], at: f.start}
}

// uint returns the value of a varint field (0, marking the message
// malformed, for another wire type).
func (f *fields) uint() uint64 {
	if f.typ != protowire.VarintType {
		f.fail()
		return 0
	}
	return f.varint
}

// countFields returns how many top-level fields of msg have number num
// (those before any malformed one), so that a decoder can size its
// slices once.
func countFields(msg []byte, num protowire.Number) int {
	n := 0
	for it := fieldsOf(msg); it.next(); {
		if it.num == num {
			n++
		}
	}
	return n
}
