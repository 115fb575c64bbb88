package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/btviz/btviz/internal/keyspace"
)

// The end-to-end workload's table: three prefixes of known rows, one
// family, one 10-, 20- or 30-byte cell per row.
const (
	shopTable    = "shop"
	shopFamily   = "f"
	shopCounters = "counters"
	shopColumn   = "q"
	shopTS       = bigtable.Timestamp(1_700_000_000_000_000)
)

// shopRows returns the seed rows: key → value.
func shopRows() map[string]string {
	rows := map[string]string{}
	for i := range 200 {
		rows[fmt.Sprintf("user#alice#%04d", i)] = strings.Repeat("a", 10)
	}
	for i := range 50 {
		rows[fmt.Sprintf("user#bob#%04d", i)] = strings.Repeat("b", 20)
	}
	for i := range 100 {
		rows[fmt.Sprintf("order#%05d", i)] = strings.Repeat("o", 30)
	}
	return rows
}

// seedShop creates the shop table and loads its rows, directly on the
// emulator at addr (not through the proxy: the recording holds the
// workload only).
func seedShop(ctx context.Context, client *bigtable.Client, admin *bigtable.AdminClient) error {
	if err := admin.CreateTable(ctx, shopTable); err != nil {
		return err
	}
	for _, family := range []string{shopFamily, shopCounters} {
		if err := admin.CreateColumnFamily(ctx, shopTable, family); err != nil {
			return err
		}
	}
	table := client.Open(shopTable)
	for key, value := range shopRows() {
		m := bigtable.NewMutation()
		m.Set(shopFamily, shopColumn, shopTS, []byte(value))
		if err := table.Apply(ctx, key, m); err != nil {
			return err
		}
	}
	return nil
}

// session is what one run of the workload talks through: the official
// client, and the data API's raw stub for a call the client would refuse
// to send.
type session struct {
	client *bigtable.Client
	raw    btpb.BigtableClient
}

// step is one call of the workload. run makes the call and returns what
// the client got, as text to compare between a direct and a proxied run,
// and the Op the recording must hold for it.
type step struct {
	name string
	run  func(ctx context.Context, s session) (got string, want *keyspace.Op)
}

// shopWorkload is the known workload: reads concentrated on alice,
// scans, writes of every kind, and calls that fail.
func shopWorkload() []step {
	var steps []step
	for i := range 50 {
		steps = append(steps, pointRead(shopTable, fmt.Sprintf("user#alice#%04d", i*7%200)))
	}
	for i := range 5 {
		steps = append(steps, pointRead(shopTable, fmt.Sprintf("user#bob#%04d", i*9)))
	}
	steps = append(steps, pointRead(shopTable, "user#zed#0001"))
	for i := range 10 {
		prefix := fmt.Sprintf("user#alice#%02d", i*2)
		steps = append(steps, scan(prefix+" limit 5", bigtable.PrefixRange(prefix), keyspace.KeyRange{Start: keyspace.Key(prefix), End: keyspace.Key(prefix[:len(prefix)-1] + string(prefix[len(prefix)-1]+1))}, 5))
	}
	steps = append(steps,
		scan("open-closed orders", bigtable.NewOpenClosedRange("order#00010", "order#00020"), keyspace.KeyRange{Start: "order#00010\x00", End: "order#00020\x00"}, 0),
		scan("whole table", bigtable.InfiniteRange(""), keyspace.KeyRange{}, 0),
		rowList("user#bob#0001", "user#nobody", "order#00042"),
	)
	for i := range 20 {
		steps = append(steps, apply(shopTable, fmt.Sprintf("order#%05d", 100+i), shopFamily, "new-order"))
	}
	steps = append(steps,
		bulk(30, 7),
		condMutate("user#alice#0003"),
		condMutate("user#nobody"),
	)
	for range 10 {
		steps = append(steps, increment("counter#global"))
	}
	steps = append(steps,
		sampleKeys(),
		pointRead("missing", "x"),                     // NotFound
		apply("missing", "x", shopFamily, "v"),        // NotFound
		apply(shopTable, "", shopFamily, "empty key"), // InvalidArgument
		reversedRange("user#bob#", "user#alice#"),     // InvalidArgument
	)
	return steps
}

// rowBytes is what the recording counts for a returned row: its key,
// and each cell's family, qualifier and value.
func returnedBytes(row bigtable.Row) int64 {
	n := int64(len(row.Key()))
	for family, items := range row {
		for _, item := range items {
			qualifier := strings.TrimPrefix(item.Column, family+":")
			n += int64(len(family) + len(qualifier) + len(item.Value))
		}
	}
	return n
}

// describeRows renders rows and an error for comparing two runs.
func describeRows(rows []bigtable.Row, err error) string {
	var b strings.Builder
	for _, row := range rows {
		var cells []string
		for _, items := range row {
			for _, item := range items {
				cells = append(cells, fmt.Sprintf("%s@%d=%q", item.Column, item.Timestamp, item.Value))
			}
		}
		sort.Strings(cells)
		fmt.Fprintf(&b, "%q %s; ", row.Key(), strings.Join(cells, " "))
	}
	return b.String() + describeErr(err)
}

func describeErr(err error) string {
	if err == nil {
		return "ok"
	}
	st := status.Convert(err)
	return fmt.Sprintf("%s: %s %v", st.Code(), st.Message(), st.Details())
}

func opOf(table, method string, err error) *keyspace.Op {
	return &keyspace.Op{Table: table, Method: method, Code: uint32(status.Code(err))}
}

func readOp(table string, rows []bigtable.Row, err error) *keyspace.Op {
	op := opOf(table, keyspace.MethodReadRows, err)
	for _, row := range rows {
		op.RowsRead = append(op.RowsRead, keyspace.RowIO{Key: keyspace.Key(row.Key()), Bytes: returnedBytes(row)})
	}
	op.CallRows = int64(len(rows))
	return op
}

func pointRead(table, key string) step {
	return step{"read " + table + " " + key, func(ctx context.Context, s session) (string, *keyspace.Op) {
		row, err := s.client.Open(table).ReadRow(ctx, key)
		var rows []bigtable.Row
		if row != nil {
			rows = append(rows, row)
		}
		op := readOp(table, rows, err)
		op.Keys, op.RowLimit = []keyspace.Key{keyspace.Key(key)}, 1
		return describeRows(rows, err), op
	}}
}

func readRows(ctx context.Context, s session, set bigtable.RowSet, opts ...bigtable.ReadOption) ([]bigtable.Row, error) {
	var rows []bigtable.Row
	err := s.client.Open(shopTable).ReadRows(ctx, set, func(row bigtable.Row) bool {
		rows = append(rows, row)
		return true
	}, opts...)
	return rows, err
}

func scan(name string, r bigtable.RowRange, want keyspace.KeyRange, limit int64) step {
	return step{"scan " + name, func(ctx context.Context, s session) (string, *keyspace.Op) {
		var opts []bigtable.ReadOption
		if limit > 0 {
			opts = append(opts, bigtable.LimitRows(limit))
		}
		rows, err := readRows(ctx, s, r, opts...)
		op := readOp(shopTable, rows, err)
		op.Ranges, op.RowLimit = []keyspace.KeyRange{want}, limit
		return describeRows(rows, err), op
	}}
}

func rowList(keys ...string) step {
	return step{"read rows " + strings.Join(keys, ","), func(ctx context.Context, s session) (string, *keyspace.Op) {
		rows, err := readRows(ctx, s, bigtable.RowList(keys))
		op := readOp(shopTable, rows, err)
		for _, key := range keys {
			op.Keys = append(op.Keys, keyspace.Key(key))
		}
		return describeRows(rows, err), op
	}}
}

// setCellBytes is the size on the wire of the SetCell mutation the
// client sends for m.Set(family, shopColumn, shopTS, value).
func setCellBytes(family, value string) int64 {
	return int64(proto.Size(&btpb.Mutation{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{
		FamilyName: family, ColumnQualifier: []byte(shopColumn), TimestampMicros: int64(shopTS), Value: []byte(value)}}}))
}

func apply(table, key, family, value string) step {
	return step{"apply " + table + " " + key, func(ctx context.Context, s session) (string, *keyspace.Op) {
		m := bigtable.NewMutation()
		m.Set(family, shopColumn, shopTS, []byte(value))
		err := s.client.Open(table).Apply(ctx, key, m)
		op := opOf(table, keyspace.MethodMutateRow, err)
		if key != "" { // an empty key is not sent at all
			op.Keys = []keyspace.Key{keyspace.Key(key)}
		}
		if err == nil {
			op.RowsWritten = []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: setCellBytes(family, value)}}
		}
		return describeErr(err), op
	}}
}

// bulk writes n new rows in one MutateRows; entry bad names a family the
// table does not have, so the server fails that entry alone.
func bulk(n, bad int) step {
	return step{fmt.Sprintf("bulk %d rows, entry %d bad", n, bad), func(ctx context.Context, s session) (string, *keyspace.Op) {
		var keys []string
		var muts []*bigtable.Mutation
		var families []string
		for i := range n {
			family := shopFamily
			if i == bad {
				family = "nofamily"
			}
			m := bigtable.NewMutation()
			m.Set(family, shopColumn, shopTS, []byte("bulk"))
			keys, muts, families = append(keys, fmt.Sprintf("user#bob#bulk%03d", i)), append(muts, m), append(families, family)
		}
		errs, err := s.client.Open(shopTable).ApplyBulk(ctx, keys, muts)
		op := opOf(shopTable, keyspace.MethodMutateRows, err)
		var got []string
		for i, key := range keys {
			op.Keys = append(op.Keys, keyspace.Key(key))
			entryErr := error(nil)
			if errs != nil {
				entryErr = errs[i]
			}
			if entryErr == nil {
				op.RowsWritten = append(op.RowsWritten, keyspace.RowIO{Key: keyspace.Key(key), Bytes: setCellBytes(families[i], "bulk")})
			}
			got = append(got, describeErr(entryErr))
		}
		return strings.Join(got, ", ") + "; " + describeErr(err), op
	}}
}

// condMutate writes "yes" to a row that has cells and "no" to one that
// does not.
func condMutate(key string) step {
	return step{"check and mutate " + key, func(ctx context.Context, s session) (string, *keyspace.Op) {
		yes, no := bigtable.NewMutation(), bigtable.NewMutation()
		yes.Set(shopFamily, shopColumn, shopTS, []byte("yes"))
		no.Set(shopFamily, shopColumn, shopTS, []byte("no, it was empty"))
		var matched bool
		err := s.client.Open(shopTable).Apply(ctx, key, bigtable.NewCondMutation(bigtable.PassAllFilter(), yes, no), bigtable.GetCondMutationResult(&matched))
		op := opOf(shopTable, keyspace.MethodCheckAndMutateRow, err)
		op.Keys = []keyspace.Key{keyspace.Key(key)}
		written := setCellBytes(shopFamily, "no, it was empty")
		if matched {
			written = setCellBytes(shopFamily, "yes")
		}
		if err == nil {
			op.RowsWritten = []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: written}}
		}
		return fmt.Sprintf("matched %v, %s", matched, describeErr(err)), op
	}}
}

func increment(key string) step {
	return step{"increment " + key, func(ctx context.Context, s session) (string, *keyspace.Op) {
		m := bigtable.NewReadModifyWrite()
		m.Increment(shopCounters, "hits", 1)
		row, err := s.client.Open(shopTable).ApplyReadModifyWrite(ctx, key, m)
		op := opOf(shopTable, keyspace.MethodReadModifyWriteRow, err)
		op.Keys = []keyspace.Key{keyspace.Key(key)}
		rule := &btpb.ReadModifyWriteRule{FamilyName: shopCounters, ColumnQualifier: []byte("hits"), Rule: &btpb.ReadModifyWriteRule_IncrementAmount{IncrementAmount: 1}}
		var got []string
		if err == nil {
			op.RowsWritten = []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: int64(proto.Size(rule))}}
			op.RowsRead = []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: returnedBytes(row)}}
			for _, item := range row[shopCounters] {
				got = append(got, fmt.Sprintf("%s=%x", item.Column, item.Value)) // the server's timestamps differ between runs
			}
		}
		return strings.Join(got, " ") + "; " + describeErr(err), op
	}}
}

// sampleKeys calls SampleRowKeys. The emulator picks its samples at
// random, so two runs compare by the one sample it always returns: the
// table's last key.
func sampleKeys() step {
	return step{"sample row keys", func(ctx context.Context, s session) (string, *keyspace.Op) {
		keys, err := s.client.Open(shopTable).SampleRowKeys(ctx)
		last := ""
		if len(keys) > 0 {
			last = keys[len(keys)-1]
		}
		return fmt.Sprintf("last sample %q; %s", last, describeErr(err)), opOf(shopTable, keyspace.MethodSampleRowKeys, err)
	}}
}

// reversedRange reads [start, end) with end before start, through the
// raw stub: the client library would not send it.
func reversedRange(start, end string) step {
	return step{"reversed range", func(ctx context.Context, s session) (string, *keyspace.Op) {
		stream, err := s.raw.ReadRows(ctx, &btpb.ReadRowsRequest{
			TableName: InstanceName("local", "btviz") + "/tables/" + shopTable,
			Rows: &btpb.RowSet{RowRanges: []*btpb.RowRange{{
				StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte(start)},
				EndKey:   &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte(end)},
			}}},
		})
		for err == nil {
			_, err = stream.Recv()
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		op := opOf(shopTable, keyspace.MethodReadRows, err)
		op.Ranges = []keyspace.KeyRange{{Start: keyspace.Key(start), End: keyspace.Key(end)}}
		return describeErr(err), op
	}}
}
