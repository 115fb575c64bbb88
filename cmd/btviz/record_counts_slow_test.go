//go:build slow

package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
)

// The ledger table of TestE2ERecordingFileCountsWhatWasSent: two
// accounts and an audit log of known rows, one cell each.
const (
	ledgerTable   = "ledger"
	ledgerFamily  = "f"
	ledgerCounter = "n"
	ledgerColumn  = "q"
	ledgerTS      = bigtable.Timestamp(1_700_000_000_000_000)
)

// TestE2ERecordingFileCountsWhatWasSent runs a known workload with the
// official Go client through the btviz binary's `btviz record` to the
// official emulator, stops it with Ctrl+C, reads the file it wrote with
// keyspace's reader, and compares every prefix node's traffic — operations,
// point reads, scans, rows and bytes read and written, calls by RPC kind
// — and the table's calls and errors by RPC kind with a tally the test
// keeps of what it sent and what the client got back, exactly.
func TestE2ERecordingFileCountsWhatWasSent(t *testing.T) {
	host := ledgerEmulator(t)
	ctx := context.Background()

	out := filepath.Join(t.TempDir(), "ledger.btviz")
	rec := startRecorder(t, host, out)
	client, admin, err := emulator.Dial(ctx, rec.addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	sent := newTally("acct#", "acct#ann#", "acct#bob#", "audit#", "counter#")
	runLedgerWorkload(t, ctx, client.Open(ledgerTable), sent)
	client.Close()
	rec.ctrlC(t)

	file, err := keyspace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if file.Recording == nil || !file.Recording.Complete || file.Recording.Undecoded != 0 {
		t.Fatalf("%s: %+v; want a complete recording with every call decoded", out, file.Recording)
	}
	snap := file.Recording.Table(ledgerTable)
	if snap == nil {
		t.Fatalf("%s holds tables %v, not %s", out, file.Recording.TableNames(), ledgerTable)
	}
	for _, prefix := range sent.prefixes {
		want := sent.nodes[prefix]
		var n *keyspace.Node
		if path := snap.Root.Lookup(prefix); path != nil {
			n = path[len(path)-1]
		}
		if n == nil || n.Kind != keyspace.KindPrefix || n.Traffic == nil {
			t.Errorf("prefix %q: no prefix node with traffic in the recording", prefix)
			continue
		}
		if n.Traffic.OpCounts != want.counts {
			t.Errorf("prefix %q: recorded\n  %+v\nsent\n  %+v", prefix, n.Traffic.OpCounts, want.counts)
		}
		if got := methodCounts(n.Traffic.Methods); !maps.Equal(got, want.methods) {
			t.Errorf("prefix %q: calls by RPC kind recorded %v, sent %v", prefix, got, want.methods)
		}
	}
	if got := methodCounts(snap.Traffic.Methods); !maps.Equal(got, sent.table) {
		t.Errorf("table calls by RPC kind recorded %v, sent %v", got, sent.table)
	}
	if testing.Verbose() {
		for _, prefix := range sent.prefixes {
			t.Logf("%-10q %+v", prefix, sent.nodes[prefix].counts)
		}
		t.Logf("table: %v", sent.table)
	}
}

// seedLedger creates the ledger table on the emulator at addr, directly
// (not through the proxy), and loads its rows.
func seedLedger(t *testing.T, ctx context.Context, addr string) {
	t.Helper()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if err := admin.CreateTable(ctx, ledgerTable); err != nil {
		t.Fatal(err)
	}
	for _, family := range []string{ledgerFamily, ledgerCounter} {
		if err := admin.CreateColumnFamily(ctx, ledgerTable, family); err != nil {
			t.Fatal(err)
		}
	}
	table := client.Open(ledgerTable)
	put := func(key string, size int) {
		m := bigtable.NewMutation()
		m.Set(ledgerFamily, ledgerColumn, ledgerTS, []byte(strings.Repeat("v", size)))
		if err := table.Apply(ctx, key, m); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 100 {
		put(fmt.Sprintf("acct#ann#%04d", i), 10)
	}
	for i := range 20 {
		put(fmt.Sprintf("acct#bob#%04d", i), 20)
	}
	for i := range 50 {
		put(fmt.Sprintf("audit#%05d", i), 5)
	}
}

// runLedgerWorkload makes the workload's calls on table and tallies each
// in sent: point reads (one of a missing row), prefix scans with a limit,
// a scan across two accounts, a full-table scan, a row list, single and
// batch writes (one entry refused), conditional writes down both
// branches, increments, SampleRowKeys and a call the server refuses.
func runLedgerWorkload(t *testing.T, ctx context.Context, table *bigtable.Table, sent *tally) {
	t.Helper()
	read := func(key string) {
		row, err := table.ReadRow(ctx, key)
		sent.call(keyspace.MethodReadRows, err)
		sent.named(keyspace.MethodReadRows, key)
		if row != nil {
			sent.read(row)
		}
	}
	for i := range 40 {
		read(fmt.Sprintf("acct#ann#%04d", i*7%100))
	}
	for i := range 5 {
		read(fmt.Sprintf("acct#bob#%04d", i*3))
	}
	read("acct#ann#9999")
	scan := func(r bigtable.RowRange, asked keyspace.KeyRange, opts ...bigtable.ReadOption) {
		err := table.ReadRows(ctx, r, func(row bigtable.Row) bool { sent.read(row); return true }, opts...)
		sent.call(keyspace.MethodReadRows, err)
		sent.scanned(keyspace.MethodReadRows, asked)
	}
	for i := range 8 {
		prefix := fmt.Sprintf("acct#ann#00%d", i)
		scan(bigtable.PrefixRange(prefix), keyspace.KeyRange{Start: keyspace.Key(prefix), End: keyspace.Key(keyspace.PrefixEnd(prefix))}, bigtable.LimitRows(5))
	}
	scan(bigtable.NewRange("acct#ann#0095", "acct#bob#0003"), keyspace.KeyRange{Start: "acct#ann#0095", End: "acct#bob#0003"})
	scan(bigtable.InfiniteRange(""), keyspace.KeyRange{})
	list := []string{"acct#bob#0001", "acct#nobody", "audit#00042"}
	err := table.ReadRows(ctx, bigtable.RowList(list), func(row bigtable.Row) bool { sent.read(row); return true })
	sent.call(keyspace.MethodReadRows, err)
	for _, key := range list {
		sent.named(keyspace.MethodReadRows, key)
	}

	setCell := func(value string) (*bigtable.Mutation, float64) {
		m := bigtable.NewMutation()
		m.Set(ledgerFamily, ledgerColumn, ledgerTS, []byte(value))
		return m, setCellBytes(ledgerFamily, value)
	}
	for i := range 15 {
		key := fmt.Sprintf("audit#%05d", 100+i)
		m, size := setCell("entry")
		err := table.Apply(ctx, key, m)
		sent.call(keyspace.MethodMutateRow, err)
		sent.named(keyspace.MethodMutateRow, key)
		if err == nil {
			sent.written(key, size)
		}
	}
	var keys []string
	var muts []*bigtable.Mutation
	for i := range 20 {
		keys = append(keys, fmt.Sprintf("acct#bob#bulk%03d", i))
		m := bigtable.NewMutation()
		family := ledgerFamily
		if i == 7 {
			family = "nofamily" // the server refuses this entry alone
		}
		m.Set(family, ledgerColumn, ledgerTS, []byte("bulk"))
		muts = append(muts, m)
	}
	errs, err := table.ApplyBulk(ctx, keys, muts)
	sent.call(keyspace.MethodMutateRows, err)
	if errs == nil || errs[7] == nil {
		t.Fatalf("the batch's bad entry was not refused: %v, %v", errs, err)
	}
	for i, key := range keys {
		sent.named(keyspace.MethodMutateRows, key)
		if errs[i] == nil {
			sent.written(key, setCellBytes(ledgerFamily, "bulk"))
		}
	}
	for _, key := range []string{"acct#ann#0003", "acct#nobody2"} {
		yes, yesBytes := setCell("yes")
		no, noBytes := setCell("no, it was empty")
		var matched bool
		err := table.Apply(ctx, key, bigtable.NewCondMutation(bigtable.PassAllFilter(), yes, no), bigtable.GetCondMutationResult(&matched))
		sent.call(keyspace.MethodCheckAndMutateRow, err)
		sent.named(keyspace.MethodCheckAndMutateRow, key)
		if matched != (key == "acct#ann#0003") {
			t.Fatalf("check and mutate %s: matched %v", key, matched)
		}
		if matched {
			sent.written(key, yesBytes)
		} else {
			sent.written(key, noBytes)
		}
	}
	for range 10 {
		m := bigtable.NewReadModifyWrite()
		m.Increment(ledgerCounter, "hits", 1)
		_, err := table.ApplyReadModifyWrite(ctx, "counter#hits", m)
		sent.call(keyspace.MethodReadModifyWriteRow, err)
		sent.named(keyspace.MethodReadModifyWriteRow, "counter#hits")
		// A write that answers with the row: no row read.
		rule := &btpb.ReadModifyWriteRule{FamilyName: ledgerCounter, ColumnQualifier: []byte("hits"), Rule: &btpb.ReadModifyWriteRule_IncrementAmount{IncrementAmount: 1}}
		sent.written("counter#hits", float64(proto.Size(rule)))
	}
	_, err = table.SampleRowKeys(ctx)
	sent.call(keyspace.MethodSampleRowKeys, err)
	m, _ := setCell("no key")
	err = table.Apply(ctx, "", m)
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("a write to the empty key: %v, want InvalidArgument", err)
	}
	sent.call(keyspace.MethodMutateRow, err)
	for _, failed := range []string{keyspace.MethodReadRows, keyspace.MethodReadModifyWriteRow, keyspace.MethodCheckAndMutateRow} {
		if sent.table[failed].Errors != 0 {
			t.Fatalf("%s calls failed: %v", failed, sent.table)
		}
	}
}

// setCellBytes is the size on the wire of the SetCell mutation the client
// sends for m.Set(family, ledgerColumn, ledgerTS, value): what the
// recording counts as written for it.
func setCellBytes(family, value string) float64 {
	return float64(proto.Size(&btpb.Mutation{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{
		FamilyName: family, ColumnQualifier: []byte(ledgerColumn), TimestampMicros: int64(ledgerTS), Value: []byte(value)}}}))
}

// tally is what the workload sent and got back, as the recording must
// count it: for each tracked prefix node (and the root, ""), its counts
// and its calls by RPC kind, and the table's calls and errors by RPC
// kind. It follows the accounting of keyspace.Builder.AddOp as the README
// states it, from the calls the test made, not from the recorder.
type tally struct {
	prefixes []string
	nodes    map[string]*sentNode
	table    map[string]keyspace.MethodCount
}

type sentNode struct {
	counts  keyspace.OpCounts
	methods map[string]keyspace.MethodCount
}

func newTally(prefixes ...string) *tally {
	s := &tally{prefixes: append([]string{""}, prefixes...), nodes: map[string]*sentNode{}, table: map[string]keyspace.MethodCount{}}
	for _, p := range s.prefixes {
		s.nodes[p] = &sentNode{methods: map[string]keyspace.MethodCount{}}
	}
	return s
}

// call counts one call of method on the table, failed unless err is nil.
func (s *tally) call(method string, err error) {
	c := s.table[method]
	c.Method, c.Calls = method, c.Calls+1
	if status.Code(err) != codes.OK {
		c.Errors++
	}
	s.table[method] = c
}

// under returns the tracked nodes whose range holds [start, end): the
// root, and each prefix P with P ≤ start and end ≤ the end of P's keys.
func (s *tally) under(start, end string) []*sentNode {
	var out []*sentNode
	for _, p := range s.prefixes {
		pEnd := keyspace.PrefixEnd(p)
		if strings.HasPrefix(start, p) && (pEnd == "" || (end != "" && end <= pEnd)) {
			out = append(out, s.nodes[p])
		}
	}
	return out
}

// named counts a row a call named: an operation (a point read for
// ReadRows) at every node on the key's path.
func (s *tally) named(method, key string) {
	for _, n := range s.under(key, key+"\x00") {
		n.counts.Ops++
		if method == keyspace.MethodReadRows {
			n.counts.PointReads++
		}
		c := n.methods[method]
		c.Method, c.Calls = method, c.Calls+1
		n.methods[method] = c
	}
}

// scanned counts a range a scan asked for: an operation and a scan at
// every node that holds the whole range.
func (s *tally) scanned(method string, r keyspace.KeyRange) {
	for _, n := range s.under(string(r.Start), string(r.End)) {
		n.counts.Ops++
		n.counts.Scans++
		c := n.methods[method]
		c.Method, c.Calls = method, c.Calls+1
		n.methods[method] = c
	}
}

// read counts a row a read returned, with its key, families, qualifiers
// and values as its bytes.
func (s *tally) read(row bigtable.Row) {
	size := len(row.Key())
	for family, items := range row {
		for _, item := range items {
			size += len(family) + len(strings.TrimPrefix(item.Column, family+":")) + len(item.Value)
		}
	}
	for _, n := range s.under(row.Key(), row.Key()+"\x00") {
		n.counts.RowsRead++
		n.counts.BytesRead += float64(size)
	}
}

// written counts a row a call changed, with the bytes of what it sent.
func (s *tally) written(key string, size float64) {
	for _, n := range s.under(key, key+"\x00") {
		n.counts.RowsWritten++
		n.counts.BytesWritten += size
	}
}

// methodCounts indexes a list of method counts by method.
func methodCounts(list []keyspace.MethodCount) map[string]keyspace.MethodCount {
	out := map[string]keyspace.MethodCount{}
	for _, c := range list {
		out[c.Method] = c
	}
	return out
}
