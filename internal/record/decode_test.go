package record

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/btviz/btviz/internal/keyspace"
)

const testTable = "projects/p/instances/i/tables/events"

var (
	callStart = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	arrival   = callStart.Add(time.Second)
	trailers  = callStart.Add(1500 * time.Millisecond)
)

// replay runs one call's frames through the decoder, as the proxy would
// hand them over, and returns the Ops it recorded and the recorder's
// counters.
func replay(t *testing.T, opts RecorderOptions, method string, request proto.Message, code codes.Code, responses ...proto.Message) ([]*keyspace.Op, Stats) {
	t.Helper()
	sink := &collectingSink{}
	if opts.Now == nil {
		opts.Now = func() time.Time { return trailers }
	}
	rec := NewRecorder(sink, opts)
	c := newCall(rec, methodSpecs[method], callStart)
	c.request(marshal(t, request))
	for _, response := range responses {
		c.response(marshal(t, response), arrival)
	}
	c.finish(uint32(code))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	ops := sink.all()
	// The call's own Op (the last) carries its latency, request to
	// trailers; the tests below compare the rest.
	for i, op := range ops {
		want := time.Duration(0)
		if i == len(ops)-1 && !op.Part {
			want = trailers.Sub(callStart)
		}
		if op.Latency != want {
			t.Errorf("op %d: latency %v, want %v", i, op.Latency, want)
		}
		op.Latency = 0
	}
	return ops, rec.Stats()
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func keys(ks ...string) []keyspace.Key {
	out := make([]keyspace.Key, len(ks))
	for i, k := range ks {
		out[i] = keyspace.Key(k)
	}
	return out
}

func TestReadRowsRequestRangesBecomeHalfOpen(t *testing.T) {
	request := &btpb.ReadRowsRequest{
		TableName: testTable,
		RowsLimit: 25,
		Rows: &btpb.RowSet{
			RowKeys: [][]byte{[]byte("k1"), []byte("k\x00\xff")},
			RowRanges: []*btpb.RowRange{
				{StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte("a")}, EndKey: &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte("b")}},
				{StartKey: &btpb.RowRange_StartKeyOpen{StartKeyOpen: []byte("c")}, EndKey: &btpb.RowRange_EndKeyClosed{EndKeyClosed: []byte("d")}},
				{StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte("user#")}},
				{EndKey: &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte("m")}},
				{},
			},
		},
	}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodReadRows, request, codes.OK)
	want := []*keyspace.Op{{
		Time: callStart, Table: "events", Method: keyspace.MethodReadRows,
		Keys: keys("k1", "k\x00\xff"),
		Ranges: []keyspace.KeyRange{
			{Start: "a", End: "b"},
			{Start: "c\x00", End: "d\x00"},
			{Start: "user#"},
			{End: "m"},
			{},
		},
		RowLimit: 25,
	}}
	if diff := opsDiff(want, ops); diff != "" {
		t.Errorf("ops:\n%s", diff)
	}
}

func TestReadRowsWithoutRowsReadsTheWholeTable(t *testing.T) {
	for name, rows := range map[string]*btpb.RowSet{"no RowSet": nil, "empty RowSet": {}} {
		ops, _ := replay(t, RecorderOptions{}, keyspace.MethodReadRows, &btpb.ReadRowsRequest{TableName: testTable, Rows: rows}, codes.OK)
		if len(ops) != 1 || !ops[0].IsScan() || len(ops[0].Ranges) != 1 || ops[0].Ranges[0] != (keyspace.KeyRange{}) {
			t.Errorf("%s: got %+v, want one scan of the range [\"\", \"\")", name, ops)
		}
	}
}

// chunk builds a CellChunk; family and qualifier are set when not empty.
func chunk(key, family, qualifier, value string) *btpb.ReadRowsResponse_CellChunk {
	c := &btpb.ReadRowsResponse_CellChunk{RowKey: []byte(key), Value: []byte(value)}
	if family != "" {
		c.FamilyName = wrapperspb.String(family)
	}
	if qualifier != "" {
		c.Qualifier = wrapperspb.Bytes([]byte(qualifier))
	}
	return c
}

func commit(c *btpb.ReadRowsResponse_CellChunk) *btpb.ReadRowsResponse_CellChunk {
	c.RowStatus = &btpb.ReadRowsResponse_CellChunk_CommitRow{CommitRow: true}
	return c
}

func response(chunks ...*btpb.ReadRowsResponse_CellChunk) *btpb.ReadRowsResponse {
	return &btpb.ReadRowsResponse{Chunks: chunks}
}

func TestReadRowsReassemblesChunkedRows(t *testing.T) {
	split := chunk("", "", "", "01234")
	split.ValueSize = 10 // "0123456789" arrives in two chunks: one cell
	reset := &btpb.ReadRowsResponse_CellChunk{RowStatus: &btpb.ReadRowsResponse_CellChunk_ResetRow{ResetRow: true}}
	ops, stats := replay(t, RecorderOptions{}, keyspace.MethodReadRows,
		&btpb.ReadRowsRequest{TableName: testTable, Rows: &btpb.RowSet{RowRanges: []*btpb.RowRange{{}}}}, codes.OK,
		// Message 1: row "a" whole (two cells, the second in the same
		// family); row "bb" begins.
		response(chunk("a", "f", "q1", "xyz"), commit(chunk("", "", "q22", "v")), chunk("bb", "fam", "c", "1234")),
		// Message 2: row "bb" is reset and sent again, with a split cell.
		response(reset, chunk("bb", "fam", "c", "12"), chunk("", "", "d", ""), split),
		// Message 3: the split cell ends, "bb" commits; row "c" whole.
		response(commit(chunk("", "", "", "56789")), commit(chunk("c", "g", "", "v"))),
		// Message 4: nothing committed (a heartbeat).
		&btpb.ReadRowsResponse{LastScannedRowKey: []byte("zz")},
	)
	// a: key 1 + (f q1 xyz = 6) + (f q22 v = 5) = 12
	// bb: key 2 + (fam c 12 = 6) + (fam d "" = 4) + (fam d 0123456789 = 14) = 26
	// c: key 1 + (g "" v = 2) = 3 (the qualifier is empty: none was sent)
	want := []*keyspace.Op{
		{Time: arrival, Table: "events", Method: keyspace.MethodReadRows, Part: true, RowsRead: []keyspace.RowIO{{Key: "a", Bytes: 12}}},
		{Time: callStart, Table: "events", Method: keyspace.MethodReadRows, Ranges: []keyspace.KeyRange{{}},
			RowsRead: []keyspace.RowIO{{Key: "bb", Bytes: 26}, {Key: "c", Bytes: 3}}, CallRows: 3},
	}
	if diff := opsDiff(want, ops); diff != "" {
		t.Errorf("ops:\n%s", diff)
	}
	if stats.Calls != 1 || stats.Parts != 1 || stats.Undecodable != 0 {
		t.Errorf("stats = %+v, want 1 call, 1 part, nothing undecodable", stats)
	}
}

func TestReadRowsStreamGivesOnePartPerMessage(t *testing.T) {
	var responses []proto.Message
	for _, key := range []string{"r1", "r2", "r3"} {
		responses = append(responses, response(commit(chunk(key, "f", "q", "v"))))
	}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodReadRows, &btpb.ReadRowsRequest{TableName: testTable}, codes.DeadlineExceeded, responses...)
	var got []string
	for _, op := range ops {
		got = append(got, string(op.RowsRead[0].Key))
		if op.Part != (op.Code == 0 && op != ops[len(ops)-1]) {
			t.Errorf("op %+v: only the last op is the call's own", op)
		}
	}
	if diff := opsDiff([]string{"r1", "r2", "r3"}, got); diff != "" {
		t.Errorf("rows in op order:\n%s", diff)
	}
	if last := ops[len(ops)-1]; last.Code != uint32(codes.DeadlineExceeded) {
		t.Errorf("the call's op has code %d, want DeadlineExceeded: the rows before it still count", last.Code)
	}
}

func setCell(family, qualifier, value string) *btpb.Mutation {
	return &btpb.Mutation{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{
		FamilyName: family, ColumnQualifier: []byte(qualifier), Value: []byte(value), TimestampMicros: 1000}}}
}

// mutationBytes is what the recording counts for mutations: their size
// on the wire.
func mutationBytes(ms ...*btpb.Mutation) int64 {
	var n int64
	for _, m := range ms {
		n += int64(proto.Size(m))
	}
	return n
}

func TestMutateRowsLeavesOutFailedEntries(t *testing.T) {
	m0 := []*btpb.Mutation{setCell("f", "q", "value-0")}
	m1 := []*btpb.Mutation{setCell("f", "q", "v1")}
	m2 := []*btpb.Mutation{setCell("f", "q", "v2"), {Mutation: &btpb.Mutation_DeleteFromRow_{DeleteFromRow: &btpb.Mutation_DeleteFromRow{}}}}
	request := &btpb.MutateRowsRequest{TableName: testTable, Entries: []*btpb.MutateRowsRequest_Entry{
		{RowKey: []byte("row0"), Mutations: m0},
		{RowKey: []byte("row1"), Mutations: m1},
		{RowKey: []byte("row2"), Mutations: m2},
		{RowKey: []byte("row3"), Mutations: m1},
	}}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodMutateRows, request, codes.OK,
		// Statuses arrive out of order, over two messages; entry 3 is
		// never reported (the stream broke), so it was not applied.
		&btpb.MutateRowsResponse{Entries: []*btpb.MutateRowsResponse_Entry{
			{Index: 2, Status: status.New(codes.OK, "").Proto()},
			{Index: 1, Status: status.New(codes.InvalidArgument, "no such family").Proto()},
		}},
		&btpb.MutateRowsResponse{Entries: []*btpb.MutateRowsResponse_Entry{{Index: 0}}},
	)
	want := []*keyspace.Op{{
		Time: callStart, Table: "events", Method: keyspace.MethodMutateRows,
		Keys:        keys("row0", "row1", "row2", "row3"),
		RowsWritten: []keyspace.RowIO{{Key: "row0", Bytes: mutationBytes(m0...)}, {Key: "row2", Bytes: mutationBytes(m2...)}},
	}}
	if diff := opsDiff(want, ops); diff != "" {
		t.Errorf("ops:\n%s", diff)
	}
}

func TestMutateRowWritesOnlyWhenItSucceeds(t *testing.T) {
	m := []*btpb.Mutation{setCell("f", "q", "v"), setCell("f", "r", "w")}
	request := &btpb.MutateRowRequest{TableName: testTable, RowKey: []byte("k"), Mutations: m, AppProfileId: "profile"}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodMutateRow, request, codes.OK, &btpb.MutateRowResponse{})
	if got, want := ops[0].RowsWritten, []keyspace.RowIO{{Key: "k", Bytes: mutationBytes(m...)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("written = %v, want %v (the app profile is not a mutation)", got, want)
	}
	ops, _ = replay(t, RecorderOptions{}, keyspace.MethodMutateRow, request, codes.NotFound)
	if len(ops[0].RowsWritten) != 0 || ops[0].Code != uint32(codes.NotFound) || !reflect.DeepEqual(ops[0].Keys, keys("k")) {
		t.Errorf("failed MutateRow recorded as %+v, want the key, no row written, code NotFound", ops[0])
	}
}

func TestCheckAndMutateRowWritesTheBranchThatRan(t *testing.T) {
	yes := []*btpb.Mutation{setCell("f", "q", "matched")}
	no := []*btpb.Mutation{setCell("f", "q", "not"), setCell("f", "r", "matched")}
	request := &btpb.CheckAndMutateRowRequest{TableName: testTable, RowKey: []byte("k"), TrueMutations: yes, FalseMutations: no}
	for matched, want := range map[bool]int64{true: mutationBytes(yes...), false: mutationBytes(no...)} {
		ops, _ := replay(t, RecorderOptions{}, keyspace.MethodCheckAndMutateRow, request, codes.OK, &btpb.CheckAndMutateRowResponse{PredicateMatched: matched})
		if got := ops[0].RowsWritten; len(got) != 1 || got[0] != (keyspace.RowIO{Key: "k", Bytes: want}) {
			t.Errorf("predicate matched %v: written %v, want k with %d bytes", matched, got, want)
		}
	}
	onlyTrue := &btpb.CheckAndMutateRowRequest{TableName: testTable, RowKey: []byte("k"), TrueMutations: yes}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodCheckAndMutateRow, onlyTrue, codes.OK, &btpb.CheckAndMutateRowResponse{})
	if len(ops[0].RowsWritten) != 0 || !reflect.DeepEqual(ops[0].Keys, keys("k")) {
		t.Errorf("a branch with no mutations ran: got %+v, want the key and nothing written", ops[0])
	}
}

func TestReadModifyWriteRowReadsTheRowItReturns(t *testing.T) {
	rules := []*btpb.ReadModifyWriteRule{{FamilyName: "counters", ColumnQualifier: []byte("hits"), Rule: &btpb.ReadModifyWriteRule_IncrementAmount{IncrementAmount: 1}}}
	request := &btpb.ReadModifyWriteRowRequest{AuthorizedViewName: testTable + "/authorizedViews/v", RowKey: []byte("counter#global"), Rules: rules}
	row := &btpb.Row{Key: []byte("counter#global"), Families: []*btpb.Family{{Name: "counters", Columns: []*btpb.Column{
		{Qualifier: []byte("hits"), Cells: []*btpb.Cell{{Value: []byte("\x00\x00\x00\x00\x00\x00\x00\x07"), TimestampMicros: 5}}},
	}}}}
	ops, _ := replay(t, RecorderOptions{}, keyspace.MethodReadModifyWriteRow, request, codes.OK, &btpb.ReadModifyWriteRowResponse{Row: row})
	var ruleBytes int64
	for _, r := range rules {
		ruleBytes += int64(proto.Size(r))
	}
	want := []*keyspace.Op{{
		Time: callStart, Table: "events", Method: keyspace.MethodReadModifyWriteRow, Keys: keys("counter#global"),
		RowsWritten: []keyspace.RowIO{{Key: "counter#global", Bytes: ruleBytes}},
		RowsRead:    []keyspace.RowIO{{Key: "counter#global", Bytes: int64(len("counter#global") + len("counters") + len("hits") + 8)}},
	}}
	if diff := opsDiff(want, ops); diff != "" {
		t.Errorf("ops:\n%s", diff)
	}
}

func TestUndecodableFramesAreCountedNotRecorded(t *testing.T) {
	sink := &collectingSink{}
	rec := NewRecorder(sink, RecorderOptions{})
	c := newCall(rec, methodSpecs[keyspace.MethodReadRows], callStart)
	c.request([]byte{0x0a, 0xff}) // field 1, length 255, no bytes
	c.finish(0)
	good := newCall(rec, methodSpecs[keyspace.MethodReadRows], callStart)
	good.request(marshal(t, &btpb.ReadRowsRequest{TableName: testTable}))
	good.response([]byte{0x0a, 0x05, 0x0a}, arrival) // a chunk cut short
	good.response(marshal(t, response(commit(chunk("after", "f", "q", "v")))), arrival)
	good.finish(0)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	stats := rec.Stats()
	if stats.Undecodable != 2 || stats.Calls != 1 {
		t.Errorf("stats = %+v, want 2 undecodable frames and 1 call recorded", stats)
	}
	ops := sink.all()
	if len(ops) != 1 || len(ops[0].RowsRead) != 0 {
		t.Errorf("ops = %+v, want the good call only, with no rows after the broken response", ops)
	}
}

func TestCallsOnOtherInstancesOrNoTableAreNotRecorded(t *testing.T) {
	opts := RecorderOptions{Instance: InstanceName("p", "i")}
	ops, stats := replay(t, opts, keyspace.MethodSampleRowKeys, &btpb.SampleRowKeysRequest{TableName: "projects/p/instances/other/tables/events"}, codes.OK)
	if len(ops) != 0 || stats.Unrecorded != 1 {
		t.Errorf("a call on another instance: ops %v, stats %+v; want none recorded, one counted", ops, stats)
	}
	ops, _ = replay(t, opts, keyspace.MethodSampleRowKeys, &btpb.SampleRowKeysRequest{TableName: "projects/p/instances/i/tables/events"}, codes.OK)
	if len(ops) != 1 || ops[0].Table != "events" || ops[0].Method != keyspace.MethodSampleRowKeys {
		t.Errorf("a call on the instance: ops %+v, want one SampleRowKeys on events", ops)
	}
	ops, stats = replay(t, opts, keyspace.MethodReadRows, &btpb.ReadRowsRequest{TableName: "projects/p/instances/i"}, codes.OK)
	if len(ops) != 0 || stats.Unrecorded != 1 {
		t.Errorf("a call naming no table: ops %v, stats %+v; want none recorded, one counted", ops, stats)
	}
}

func TestTableID(t *testing.T) {
	for name, want := range map[string]string{
		"projects/p/instances/i/tables/t":                       "t",
		"projects/p/instances/i/tables/t/authorizedViews/v":     "t",
		"projects/p/instances/i/materializedViews/mv":           "mv",
		"projects/p/instances/i":                                "",
		"projects/p/instances/i/tables/with#odd\x00bytes/extra": "with#odd\x00bytes",
	} {
		if got := tableID([]byte(name)); got != want {
			t.Errorf("tableID(%q) = %q, want %q", name, got, want)
		}
	}
}

// opsDiff describes how got differs from want, or returns "".
func opsDiff[T any](want, got T) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("want %s\n got %s", show(want), show(got))
}

func show(v any) string {
	if ops, ok := v.([]*keyspace.Op); ok {
		var parts []string
		for _, op := range ops {
			parts = append(parts, fmt.Sprintf("%+v", *op))
		}
		return "[" + strings.Join(parts, ",\n      ") + "]"
	}
	return fmt.Sprintf("%+v", v)
}
