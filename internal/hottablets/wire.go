package hottablets

import (
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The API declares a hot tablet's start_key and end_key as proto3
// strings, but row keys are bytes: a key that is not UTF-8 (a binary
// key, or a tablet bound cut inside a character) would make the
// generated decoder refuse the whole answer ("string field contains
// invalid UTF-8"). So ListHotTablets' answer is read from the wire here,
// keys as the bytes they are.

// rawCodec encodes requests as protobuf and hands answers back undecoded.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("hottablets: cannot encode %T", v)
	}
	return proto.Marshal(m)
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	b, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("hottablets: cannot decode into %T", v)
	}
	*b = append((*b)[:0], data...)
	return nil
}

func (rawCodec) Name() string { return "proto" }

// wireTablet is one HotTablet message as the wire holds it.
type wireTablet struct {
	tableName        string
	startKey, endKey []byte
	start, end       time.Time
	cpu              float32
}

// errWire is returned (wrapped) for an answer that is not a
// ListHotTabletsResponse.
var errWire = errors.New("the answer is not a ListHotTabletsResponse")

// Field numbers of ListHotTabletsResponse, HotTablet and Timestamp.
const (
	respHotTablets    = 1
	respNextPageToken = 2
	tabletTableName   = 2
	tabletStartTime   = 3
	tabletEndTime     = 4
	tabletStartKey    = 5
	tabletEndKey      = 6
	tabletCPU         = 7
	timestampSeconds  = 1
	timestampNanos    = 2
)

// decodeHotTablets reads a ListHotTabletsResponse: its tablets and next
// page token.
func decodeHotTablets(b []byte) (tablets []wireTablet, next string, err error) {
	err = fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch {
		case num == respHotTablets && typ == protowire.BytesType:
			t, err := decodeTablet(v)
			if err != nil {
				return err
			}
			tablets = append(tablets, t)
		case num == respNextPageToken && typ == protowire.BytesType:
			next = string(v)
		}
		return nil
	})
	return tablets, next, err
}

func decodeTablet(b []byte) (t wireTablet, err error) {
	err = fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		var err error
		switch {
		case num == tabletTableName && typ == protowire.BytesType:
			t.tableName = string(v)
		case num == tabletStartKey && typ == protowire.BytesType:
			t.startKey = append([]byte(nil), v...)
		case num == tabletEndKey && typ == protowire.BytesType:
			t.endKey = append([]byte(nil), v...)
		case num == tabletStartTime && typ == protowire.BytesType:
			t.start, err = decodeTimestamp(v)
		case num == tabletEndTime && typ == protowire.BytesType:
			t.end, err = decodeTimestamp(v)
		case num == tabletCPU && typ == protowire.Fixed32Type:
			t.cpu = math.Float32frombits(uint32(n))
		}
		return err
	})
	return t, err
}

func decodeTimestamp(b []byte) (time.Time, error) {
	var seconds, nanos int64
	err := fields(b, func(num protowire.Number, typ protowire.Type, _ []byte, n uint64) error {
		switch {
		case num == timestampSeconds && typ == protowire.VarintType:
			seconds = int64(n)
		case num == timestampNanos && typ == protowire.VarintType:
			nanos = int64(int32(n))
		}
		return nil
	})
	return time.Unix(seconds, nanos).UTC(), err
}

// fields calls visit for each field of the message b: its number, type,
// bytes (length-delimited fields) and number (varint and fixed fields).
func fields(b []byte, visit func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error) error {
	for len(b) > 0 {
		num, typ, tagLen := protowire.ConsumeTag(b)
		if tagLen < 0 {
			return fmt.Errorf("%w: %v", errWire, protowire.ParseError(tagLen))
		}
		b = b[tagLen:]
		var v []byte
		var n uint64
		var size int
		switch typ {
		case protowire.VarintType:
			n, size = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var x uint32
			x, size = protowire.ConsumeFixed32(b)
			n = uint64(x)
		case protowire.Fixed64Type:
			n, size = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			v, size = protowire.ConsumeBytes(b)
		default:
			size = protowire.ConsumeFieldValue(num, typ, b)
		}
		if size < 0 {
			return fmt.Errorf("%w: %v", errWire, protowire.ParseError(size))
		}
		b = b[size:]
		if err := visit(num, typ, v, n); err != nil {
			return err
		}
	}
	return nil
}
