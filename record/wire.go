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
type fields struct {
	rest []byte
	num  protowire.Number
	typ  protowire.Type
	// value is the current field's encoded value: the payload of a
	// length-delimited field, the raw bytes of any other.
	value []byte
	// varint is the current field's value when it is a varint.
	varint uint64
	err    error
}

func fieldsOf(msg []byte) fields { return fields{rest: msg} }

// next moves to the next field; it returns false at the end of the
// message or on malformed input (then err is set).
func (f *fields) next() bool {
	if len(f.rest) == 0 || f.err != nil {
		return false
	}
	num, typ, n := protowire.ConsumeTag(f.rest)
	if n < 0 {
		f.err = errMalformed
		return false
	}
	f.rest = f.rest[n:]
	f.num, f.typ = num, typ
	switch typ {
	case protowire.BytesType:
		f.value, n = protowire.ConsumeBytes(f.rest)
	case protowire.VarintType:
		f.varint, n = protowire.ConsumeVarint(f.rest)
		f.value = nil
	default:
		n = protowire.ConsumeFieldValue(num, typ, f.rest)
		if n >= 0 {
			f.value = f.rest[:n]
		}
	}
	if n < 0 {
		f.err = errMalformed
		return false
	}
	f.rest = f.rest[n:]
	return true
}

// bytes returns the payload of a length-delimited field, or nil (and
// marks the message malformed) for a field of another wire type.
func (f *fields) bytes() []byte {
	if f.typ != protowire.BytesType {
		f.err = errMalformed
		f.rest = nil
		return nil
	}
	return f.value
}

// uint returns the value of a varint field (0, marking the message
// malformed, for another wire type).
func (f *fields) uint() uint64 {
	if f.typ != protowire.VarintType {
		f.err = errMalformed
		f.rest = nil
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
