package record

import (
	"fmt"
	"testing"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/protobuf/proto"

	"github.com/btviz/btviz/internal/keyspace"
)

// discardSink takes Ops and drops them.
type discardSink struct{}

func (discardSink) Add(*keyspace.Op)      {}
func (discardSink) Flush(FlushInfo) error { return nil }

// benchmarkCall decodes one call's frames b.N times, as the proxy does
// for each call: a new call, its request, its responses, its end.
func benchmarkCall(b *testing.B, method string, request proto.Message, responses ...proto.Message) {
	rec := NewRecorder(discardSink{}, RecorderOptions{})
	defer rec.Close()
	req, err := proto.Marshal(request)
	if err != nil {
		b.Fatal(err)
	}
	var resps [][]byte
	for _, r := range responses {
		msg, err := proto.Marshal(r)
		if err != nil {
			b.Fatal(err)
		}
		resps = append(resps, msg)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c := newCall(rec, methodSpecs[method], callStart)
		c.request(req)
		for _, r := range resps {
			c.response(r, arrival)
		}
		c.finish(0)
	}
}

// BenchmarkDecodePointRead: a ReadRow of one row with one cell, the
// Go client's request and the emulator's answer.
func BenchmarkDecodePointRead(b *testing.B) {
	benchmarkCall(b, keyspace.MethodReadRows,
		&btpb.ReadRowsRequest{TableName: testTable, RowsLimit: 1, Rows: &btpb.RowSet{RowKeys: [][]byte{[]byte("user#000042#profile")}}},
		response(commit(chunk("user#000042#profile", "f", "q", "0123456789abcdef"))))
}

// BenchmarkDecodeMutateRows: a batch of 100 rows of one cell each, all
// applied.
func BenchmarkDecodeMutateRows(b *testing.B) {
	request := &btpb.MutateRowsRequest{TableName: testTable}
	answer := &btpb.MutateRowsResponse{}
	for i := range 100 {
		request.Entries = append(request.Entries, &btpb.MutateRowsRequest_Entry{
			RowKey: fmt.Appendf(nil, "user#%06d#profile", i), Mutations: []*btpb.Mutation{setCell("f", "q", "fedcba9876543210")}})
		answer.Entries = append(answer.Entries, &btpb.MutateRowsResponse_Entry{Index: int64(i)})
	}
	benchmarkCall(b, keyspace.MethodMutateRows, request, answer)
}

// BenchmarkFrameParser reads a client's side of a connection: HEADERS
// and DATA of a ReadRows call, as the relay reads every call.
func BenchmarkFrameParser(b *testing.B) {
	wire := clientBytes(b)
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for range b.N {
		p := newFrameParser(discardEvents{}, true)
		if err := p.feed(wire); err != nil {
			b.Fatal(err)
		}
	}
}

// discardEvents ignores what a frameParser reads.
type discardEvents struct{}

func (discardEvents) field(uint32, hpack.HeaderField) {}
func (discardEvents) headers(uint32, bool)            {}
func (discardEvents) data(uint32, []byte)             {}
func (discardEvents) endStream(uint32)                {}
func (discardEvents) reset(uint32, uint32)            {}
