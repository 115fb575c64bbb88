package record

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// walked is one field as a walk over a message saw it.
type walked struct {
	num    protowire.Number
	typ    protowire.Type
	value  []byte // a length-delimited field's payload
	varint uint64
}

// walkReference walks msg with protowire alone: the fields it reads, and
// whether the message was well formed.
func walkReference(msg []byte) ([]walked, bool) {
	var out []walked
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return out, false
		}
		msg = msg[n:]
		f := walked{num: num, typ: typ}
		switch typ {
		case protowire.BytesType:
			f.value, n = protowire.ConsumeBytes(msg)
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(msg)
		default:
			n = protowire.ConsumeFieldValue(num, typ, msg)
		}
		if n < 0 {
			return out, false
		}
		msg = msg[n:]
		out = append(out, f)
	}
	return out, true
}

// walkFields walks msg with fields.
func walkFields(msg []byte) ([]walked, bool) {
	var out []walked
	it := fieldsOf(msg)
	for it.next() {
		f := walked{num: it.num, typ: it.typ}
		switch it.typ {
		case protowire.BytesType:
			f.value = it.bytes()
		case protowire.VarintType:
			f.varint = it.uint()
		}
		out = append(out, f)
	}
	return out, it.err == nil
}

// TestFieldsWalkEveryEncoding walks a message of one- and many-byte
// tags, lengths and varints, every fixed-width type, an empty payload
// and field number zero, and every prefix of it (most cut a field
// short), and checks each walk against protowire's.
func TestFieldsWalkEveryEncoding(t *testing.T) {
	var msg []byte
	for _, num := range []protowire.Number{1, 15, 16, 2047, 2048, protowire.MaxValidNumber} {
		for _, payload := range []string{"", "k", strings.Repeat("x", 127), strings.Repeat("y", 128), strings.Repeat("z", 300)} {
			msg = protowire.AppendTag(msg, num, protowire.BytesType)
			msg = protowire.AppendString(msg, payload)
		}
		for _, v := range []uint64{0, 1, 127, 128, 1 << 40, 1<<64 - 1} {
			msg = protowire.AppendTag(msg, num, protowire.VarintType)
			msg = protowire.AppendVarint(msg, v)
		}
		msg = protowire.AppendTag(msg, num, protowire.Fixed32Type)
		msg = protowire.AppendFixed32(msg, 0xdeadbeef)
		msg = protowire.AppendTag(msg, num, protowire.Fixed64Type)
		msg = protowire.AppendFixed64(msg, 0xfeedfacecafebeef)
	}
	for cut := 0; cut <= len(msg); cut++ {
		prefix := msg[:cut]
		want, wantOK := walkReference(prefix)
		got, gotOK := walkFields(prefix)
		if gotOK != wantOK || len(got) != len(want) {
			t.Fatalf("%d of %d bytes: walked %d fields (well formed %v), want %d (%v)", cut, len(msg), len(got), gotOK, len(want), wantOK)
		}
		for i := range want {
			if got[i].num != want[i].num || got[i].typ != want[i].typ || got[i].varint != want[i].varint || !bytes.Equal(got[i].value, want[i].value) {
				t.Fatalf("%d of %d bytes: field %d = %+v, want %+v", cut, len(msg), i, got[i], want[i])
			}
		}
	}
	for _, bad := range [][]byte{
		{0x02, 0x00},       // field number 0, length-delimited
		{0x00, 0x05},       // field number 0, varint
		{0x0b, 0x00},       // a start-group tag, which nothing here sends
		{0x0a, 0x05, 0x01}, // a payload cut short
	} {
		if _, ok := walkFields(bad); ok {
			t.Errorf("% x walked as well formed", bad)
		}
		if _, ok := walkReference(bad); ok {
			t.Errorf("% x: the reference walk took it as well formed", bad)
		}
	}
}

// TestInnerFieldsKeepOuterOffsets: a walk of a field's payload reports
// offsets into the outer message, which the MutateRows decoder keeps.
func TestInnerFieldsKeepOuterOffsets(t *testing.T) {
	var entry []byte
	entry = protowire.AppendTag(entry, entryRowKey, protowire.BytesType)
	entry = protowire.AppendString(entry, "user#42")
	msg := protowire.AppendTag([]byte("\x08\x01"), mutateRowsEntries, protowire.BytesType)
	msg = protowire.AppendBytes(msg, entry)
	it := fieldsOf(msg)
	for it.next() && it.num != mutateRowsEntries {
	}
	e, err := decodeEntry(&it)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(msg[e.keyStart:e.keyEnd]); got != "user#42" {
		t.Errorf("key at [%d, %d) of the request = %q, want user#42", e.keyStart, e.keyEnd, got)
	}
}
