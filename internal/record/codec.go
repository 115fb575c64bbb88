package record

import (
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc/mem"
)

// frame is one gRPC message as it crossed the proxy: the serialized
// protobuf, never decoded on the forwarding path. It holds one reference
// to its buffers, which forwarding hands to gRPC (see [passThrough]).
type frame struct {
	data mem.BufferSlice
}

// bytes returns the frame's message as one contiguous slice: the buffer
// itself when gRPC received it in one piece, else a copy into scratch
// (grown as needed and returned for reuse).
func (f *frame) bytes(scratch *[]byte) []byte {
	if len(f.data) == 1 {
		return f.data[0].ReadOnlyData()
	}
	n := f.data.Len()
	if cap(*scratch) < n {
		*scratch = make([]byte, n)
	}
	buf := (*scratch)[:n]
	f.data.CopyTo(buf)
	return buf
}

// head returns the first n bytes of the frame's message, copied into
// scratch (grown as needed and returned for reuse).
func (f *frame) head(scratch *[]byte, n int) []byte {
	n = min(n, f.data.Len())
	if cap(*scratch) < n {
		*scratch = make([]byte, n)
	}
	buf := (*scratch)[:n]
	io.ReadFull(f.data.Reader(), buf)
	return buf
}

// request hands the frame, a request of the call c, to c to decode: its
// head only when it is over [MaxDecodedMessageBytes].
func (f *frame) request(c *call, scratch *[]byte) {
	if c == nil {
		return
	}
	if size := f.data.Len(); size > MaxDecodedMessageBytes {
		c.requestHead(f.head(scratch, messageHeadBytes), size)
		return
	}
	c.request(f.bytes(scratch))
}

// response hands the frame, a response of the call c that arrived at at,
// to c to decode, unless it is over [MaxDecodedMessageBytes].
func (f *frame) response(c *call, scratch *[]byte, at time.Time) {
	if f.data.Len() > MaxDecodedMessageBytes {
		c.responseSkipped()
		return
	}
	c.response(f.bytes(scratch), at)
}

// free drops the frame's reference, if it still holds one (it does not
// once gRPC has taken the frame to send).
func (f *frame) free() {
	if f.data != nil {
		f.data.Free()
		f.data = nil
	}
}

// passThrough is the codec of both sides of the proxy: it hands gRPC's
// received buffers to the other side unchanged, so every message is
// forwarded byte for byte whatever its type, and nothing is copied.
//
// Reference counting: Unmarshal takes a reference to the received
// buffers (gRPC frees its own when Unmarshal returns); Marshal gives that
// reference to gRPC, which frees it once the message is written.
type passThrough struct{}

// Marshal returns the frame's buffers, giving gRPC the frame's reference.
func (passThrough) Marshal(v any) (mem.BufferSlice, error) {
	f, ok := v.(*frame)
	if !ok {
		return nil, fmt.Errorf("btviz record: cannot forward a %T, only raw frames", v)
	}
	data := f.data
	f.data = nil
	return data, nil
}

// Unmarshal keeps the received buffers in the frame, with a reference
// of its own.
func (passThrough) Unmarshal(data mem.BufferSlice, v any) error {
	f, ok := v.(*frame)
	if !ok {
		return fmt.Errorf("btviz record: cannot receive into a %T, only raw frames", v)
	}
	data.Ref()
	f.data = data
	return nil
}

// Name is "proto": what a client and server expect on the wire, though
// the codec never looks inside.
func (passThrough) Name() string { return "proto" }
