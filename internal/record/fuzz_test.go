package record

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// The fuzz targets of the bytes that come from the network: one
// direction of an HTTP/2 connection (h2frames.go), the gRPC messages of a
// call (messages.go), the protobuf wire format of every request and
// response the recorder decodes (wire.go, call.go), and ReadRows' chunks
// reassembled into rows (chunks.go). Their seed corpus under
// testdata/fuzz/ was captured through the proxy from the official Go
// client against the official emulator (TestCaptureFuzzCorpus, in the
// slow tier), beside
// the hand-made seeds below.

// FuzzFrameParser feeds one direction of a connection to the frame
// parser whole and in pieces of every size the input picks: the parser
// must not panic, must hold no non-DATA payload larger than its bound,
// and must read every cut the same.
func FuzzFrameParser(f *testing.F) {
	f.Add(clientBytes(f), true, uint8(1))
	f.Add([]byte(clientPreface), true, uint8(0))
	f.Fuzz(func(t *testing.T, wire []byte, fromClient bool, piece uint8) {
		whole := &eventLog{}
		p := newFrameParser(whole, fromClient)
		wholeErr := p.feed(wire)
		cut := &eventLog{}
		q := newFrameParser(cut, fromClient)
		var cutErr error
		size := int(piece) + 1
		for rest := wire; len(rest) > 0 && cutErr == nil; {
			n := min(size, len(rest))
			cutErr = q.feed(rest[:n])
			rest = rest[n:]
			if len(q.payload) > maxBufferedPayload {
				t.Fatalf("the parser holds a payload of %d bytes", len(q.payload))
			}
		}
		if (wholeErr == nil) != (cutErr == nil) {
			t.Fatalf("whole: %v; in pieces of %d: %v", wholeErr, size, cutErr)
		}
		if wholeErr == nil && strings.Join(whole.lines, "\n") != strings.Join(cut.lines, "\n") {
			t.Fatalf("in pieces of %d bytes the events differ:\n%s\nwhole:\n%s", size, strings.Join(cut.lines, "\n"), strings.Join(whole.lines, "\n"))
		}
	})
}

// FuzzMessageAssembler cuts a stream's DATA into gRPC messages whole and
// in pieces: every cut gives the same messages, and no message over the
// size the proxy decodes is held whole.
func FuzzMessageAssembler(f *testing.F) {
	f.Add(grpcMessages([]byte("first"), nil, bytes.Repeat([]byte("x"), 300)), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		read := func(size int) []message {
			var m messageAssembler
			var out []message
			for rest := data; len(rest) > 0; {
				p := rest[:min(size, len(rest))]
				rest = rest[len(p):]
				for {
					msg, ok := m.next(&p)
					if !ok {
						break
					}
					if len(msg.bytes) > MaxDecodedMessageBytes || msg.oversized && len(msg.bytes) > messageHeadBytes {
						t.Fatalf("a message of %d bytes is held as %d", msg.size, len(msg.bytes))
					}
					msg.bytes = bytes.Clone(msg.bytes)
					out = append(out, msg)
				}
			}
			return out
		}
		whole, cut := read(len(data)), read(int(piece)+1)
		if len(whole) != len(cut) {
			t.Fatalf("%d messages whole, %d in pieces", len(whole), len(cut))
		}
		for i := range whole {
			if !bytes.Equal(whole[i].bytes, cut[i].bytes) || whole[i].size != cut[i].size || whole[i].compressed != cut[i].compressed {
				t.Fatalf("message %d differs whole and in pieces", i)
			}
		}
	})
}

// grpcMessages frames messages as a gRPC stream's DATA carries them.
func grpcMessages(messages ...[]byte) []byte {
	var out []byte
	for _, m := range messages {
		out = append(out, 0)
		out = binary.BigEndian.AppendUint32(out, uint32(len(m)))
		out = append(out, m...)
	}
	return out
}

// splitMessages reads a sequence of gRPC-framed messages (as
// grpcMessages writes them); a last one cut short is taken as it is.
func splitMessages(data []byte) [][]byte {
	var out [][]byte
	for len(data) >= grpcPrefixLen {
		n := int(binary.BigEndian.Uint32(data[1:grpcPrefixLen]))
		data = data[grpcPrefixLen:]
		n = min(n, len(data))
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// FuzzDecodeCall decodes a call of any data-API method the recorder
// knows from its request, its responses (gRPC-framed, as a stream
// carries them) and its status: the decoder must not panic, and what it
// records must be an Op the recording builder takes, with keys and
// counts that make sense.
func FuzzDecodeCall(f *testing.F) {
	f.Add("ReadRows", []byte{}, []byte{}, uint8(0))
	f.Fuzz(func(t *testing.T, method string, request, responses []byte, code uint8) {
		spec, ok := methodSpecs[method]
		if !ok {
			return
		}
		sink := &collectingSink{}
		rec := NewRecorder(sink, RecorderOptions{})
		c := newCall(rec, spec, time.Unix(1_800_000_000, 0))
		c.request(request)
		for _, msg := range splitMessages(responses) {
			c.response(msg, time.Unix(1_800_000_001, 0))
		}
		c.finish(uint32(code))
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		b := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: time.Unix(1_800_000_000, 0)}, keyspace.Options{})
		for _, op := range sink.all() {
			if op.Table == "" || op.Method != method {
				t.Fatalf("an Op of table %q and method %q from a call of %s", op.Table, op.Method, method)
			}
			for _, r := range append(append([]keyspace.RowIO(nil), op.RowsRead...), op.RowsWritten...) {
				if r.Bytes < 0 {
					t.Fatalf("a row of %d bytes", r.Bytes)
				}
			}
			for _, r := range op.Ranges {
				if r.End != "" && r.End < r.Start {
					t.Fatalf("a range [%q, %q)", r.Start, r.End)
				}
			}
			b.Add(op)
		}
		var out bytes.Buffer
		if err := keyspace.EncodeRecording(&out, b.Recording(time.Unix(1_800_000_002, 0), true)); err != nil {
			t.Fatal(err)
		}
		if _, err := keyspace.DecodeFile(&out); err != nil {
			t.Fatalf("the recording of a decoded call does not read back: %v", err)
		}
	})
}

// FuzzReadRowsChunks reassembles rows from ReadRows responses (gRPC
// framed, one after another, as a stream carries them): the assembler
// must not panic, every row it commits has a key and no fewer bytes than
// its key, and a response that does not decode stops it, as it stops the
// client library.
func FuzzReadRowsChunks(f *testing.F) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, responses []byte) {
		var a rowAssembler
		for _, msg := range splitMessages(responses) {
			rows, err := a.response(msg, nil)
			for _, r := range rows {
				if r.Key == "" || r.Bytes < int64(len(r.Key)) {
					t.Fatalf("a committed row %q of %d bytes", r.Key, r.Bytes)
				}
			}
			if err != nil {
				return
			}
		}
	})
}

// FuzzFields walks any bytes as a protobuf message, and each field's
// payload as one: every value the walk hands out lies inside the message.
func FuzzFields(f *testing.F) {
	f.Add([]byte{0x0a, 0x03, 'a', 'b', 'c', 0x10, 0x96, 0x01})
	f.Fuzz(func(t *testing.T, msg []byte) {
		var walk func(it fields, depth int)
		walk = func(it fields, depth int) {
			for it.next() {
				if it.start < 0 || it.start > it.end || it.end > len(msg) || it.at > len(msg) {
					t.Fatalf("field %d at [%d, %d) of a %d-byte message", it.num, it.start, it.end, len(msg))
				}
				if it.typ == 2 && depth < 4 {
					walk(it.inner(), depth+1)
					if b := it.bytes(); len(b) != it.end-it.start {
						t.Fatalf("bytes of %d for a field of %d", len(b), it.end-it.start)
					}
				}
			}
		}
		walk(fieldsOf(msg), 0)
		countFields(msg, 1)
	})
}
