package cloudlike_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
)

const (
	project, instance, table = "p", "i", "t"
	rows, valueBytes         = 20_000, 50
)

// serve starts bttest behind the interceptors with table t of rows rows
// of valueBytes each, and returns a client, the raw stub and the counter.
func serve(t *testing.T, layout cloudlike.Layout) (*bigtable.Client, btpb.BigtableClient, *cloudlike.Counter) {
	t.Helper()
	counter := &cloudlike.Counter{}
	srv, err := bttest.NewServer("127.0.0.1:0", cloudlike.ServerOptions(layout, counter)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx := context.Background()
	conn, err := grpc.NewClient(srv.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	t.Setenv("BIGTABLE_EMULATOR_HOST", srv.Addr)
	admin, err := bigtable.NewAdminClient(ctx, project, instance)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if err := admin.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, table, "f"); err != nil {
		t.Fatal(err)
	}
	client, err := bigtable.NewClient(ctx, project, instance)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	keys := make([]string, rows)
	muts := make([]*bigtable.Mutation, rows)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%06d", i)
		muts[i] = bigtable.NewMutation()
		muts[i].Set("f", "q", 0, make([]byte, valueBytes))
	}
	if _, err := client.Open(table).ApplyBulk(ctx, keys, muts); err != nil {
		t.Fatal(err)
	}
	return client, btpb.NewBigtableClient(conn), counter
}

func sample(t *testing.T, stub btpb.BigtableClient) []*btpb.SampleRowKeysResponse {
	t.Helper()
	stream, err := stub.SampleRowKeys(context.Background(), &btpb.SampleRowKeysRequest{TableName: fmt.Sprintf("projects/%s/instances/%s/tables/%s", project, instance, table)})
	if err != nil {
		t.Fatal(err)
	}
	var out []*btpb.SampleRowKeysResponse
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp)
	}
}

// The emulator answers tablets of the sizes asked for, each boundary on
// the row nearest its cut point, with true byte offsets, the same until
// the table changes; ReadRows rows are counted.
func TestTabletsAndCounts(t *testing.T) {
	client, stub, counter := serve(t, cloudlike.Layout{Sizes: []float64{1, 2, 1}})
	got := sample(t, stub)
	if len(got) != 3 || len(got[2].RowKey) != 0 || got[2].OffsetBytes != rows*valueBytes {
		t.Fatalf("answers %v, want 2 boundaries and the end at %d bytes", got, rows*valueBytes)
	}
	for i, want := range []float64{0.25, 0.75} {
		var n int
		fmt.Sscanf(string(got[i].RowKey), "k%06d", &n)
		if got[i].OffsetBytes != int64(n*valueBytes) {
			t.Errorf("boundary %q at offset %d, want its true %d", got[i].RowKey, got[i].OffsetBytes, n*valueBytes)
		}
		if share := float64(n) / rows; share != want {
			t.Errorf("boundary %d at %.4f of the table, want the row at %.2f", i, share, want)
		}
	}
	if again := sample(t, stub); string(again[0].RowKey) != string(got[0].RowKey) {
		t.Errorf("a second answer moved the first boundary from %q to %q", got[0].RowKey, again[0].RowKey)
	}
	mut := bigtable.NewMutation()
	mut.Set("f", "q", 0, make([]byte, 1_000_000))
	if err := client.Open(table).Apply(context.Background(), "k000000", mut); err != nil {
		t.Fatal(err)
	}
	if changed := sample(t, stub); changed[len(changed)-1].OffsetBytes != rows*valueBytes-valueBytes+1_000_000 {
		t.Errorf("after a write the table ends at %d bytes", changed[len(changed)-1].OffsetBytes)
	}
	counter.Reset()
	err := client.Open(table).ReadRows(context.Background(), bigtable.NewRange("k000100", "k000350"), func(bigtable.Row) bool { return true })
	if err != nil || counter.Rows() != 250 || counter.Calls() != 1 {
		t.Fatalf("counted %d rows in %d calls (%v), want 250 in 1", counter.Rows(), counter.Calls(), err)
	}
}

// A write to one table leaves every other table's tablet map as it was:
// only the table a call changed is mapped afresh.
func TestAWriteForgetsOnlyItsTable(t *testing.T) {
	client, stub, counter := serve(t, cloudlike.Layout{Tablets: 10})
	ctx := context.Background()
	admin, err := bigtable.NewAdminClient(ctx, project, instance)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const other = "u"
	if err := admin.CreateTable(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, other, "f"); err != nil {
		t.Fatal(err)
	}
	before := sample(t, stub)
	computed := counter.Maps()
	mut := bigtable.NewMutation()
	mut.Set("f", "q", 0, make([]byte, 10))
	if err := client.Open(other).Apply(ctx, "a", mut); err != nil {
		t.Fatal(err)
	}
	if err := admin.DropRowRange(ctx, other, "a"); err != nil {
		t.Fatal(err)
	}
	after := sample(t, stub)
	if counter.Maps() != computed {
		t.Fatalf("table t was mapped afresh after writes to table u: %d maps computed, then %d", computed, counter.Maps())
	}
	if len(after) != len(before) {
		t.Fatalf("table t was mapped afresh after writes to table u: %d answers, then %d", len(before), len(after))
	}
	for i := range before {
		if string(before[i].RowKey) != string(after[i].RowKey) || before[i].OffsetBytes != after[i].OffsetBytes {
			t.Fatalf("table t was mapped afresh after writes to table u: answer %d %q at %d, then %q at %d",
				i, before[i].RowKey, before[i].OffsetBytes, after[i].RowKey, after[i].OffsetBytes)
		}
	}
	// A write to t maps it afresh.
	if err := client.Open(table).Apply(ctx, "k000000", mut); err != nil {
		t.Fatal(err)
	}
	if changed := sample(t, stub); counter.Maps() != computed+1 || changed[len(changed)-1].OffsetBytes != rows*valueBytes-valueBytes+10 {
		t.Errorf("after a write to t (%d maps computed, then %d) it ends at %d bytes, want %d", computed, counter.Maps(), changed[len(changed)-1].OffsetBytes, rows*valueBytes-valueBytes+10)
	}
}

// On rows of uneven sizes every boundary is the row that starts nearest
// its cut point, however the emulator's own random samples fell: two
// servers of the same rows answer the same map.
func TestBoundariesAreTheRowsNearestTheCuts(t *testing.T) {
	const tablets = 13
	var maps [2][]*btpb.SampleRowKeysResponse
	sizes := make([]int64, rows)
	for i := range sizes {
		sizes[i] = int64(1 + (i*7919)%997) // 1 to 997 bytes, spread
	}
	for k := range maps {
		client, stub, _ := serve(t, cloudlike.Layout{Tablets: tablets})
		keys := make([]string, rows)
		muts := make([]*bigtable.Mutation, rows)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%06d", i)
			muts[i] = bigtable.NewMutation()
			muts[i].Set("f", "q", 0, make([]byte, sizes[i]))
		}
		for i := 0; i < rows; i += 2000 { // under gRPC's 4 MB a message
			if _, err := client.Open(table).ApplyBulk(context.Background(), keys[i:i+2000], muts[i:i+2000]); err != nil {
				t.Fatal(err)
			}
		}
		maps[k] = sample(t, stub)
	}
	var total int64
	starts := make([]int64, rows) // the bytes before each row
	for i, size := range sizes {
		starts[i] = total
		total += size
	}
	got := maps[0]
	if len(got) != tablets || got[len(got)-1].OffsetBytes != total {
		t.Fatalf("%d answers ending at %d bytes, want %d ending at %d", len(got), got[len(got)-1].OffsetBytes, tablets, total)
	}
	for j, b := range got[:len(got)-1] {
		cut := int64(float64(j+1) / tablets * float64(total))
		var n int
		fmt.Sscanf(string(b.RowKey), "k%06d", &n)
		if b.OffsetBytes != starts[n] {
			t.Errorf("boundary %q at offset %d, want its true %d", b.RowKey, b.OffsetBytes, starts[n])
		}
		for _, other := range []int{n - 1, n + 1} {
			if other >= 0 && other < rows && abs(starts[other]-cut) < abs(starts[n]-cut) {
				t.Errorf("boundary %d is row %d, %d bytes from its cut; row %d starts %d bytes from it", j, n, abs(starts[n]-cut), other, abs(starts[other]-cut))
			}
		}
		if o := maps[1][j]; string(o.RowKey) != string(b.RowKey) || o.OffsetBytes != b.OffsetBytes {
			t.Errorf("boundary %d is %q on one server and %q on another", j, b.RowKey, o.RowKey)
		}
	}
}

func abs(x int64) int64 { return max(x, -x) }
