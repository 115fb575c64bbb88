package emulator

import (
	"bytes"
	"context"
	"log"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btapb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
)

// TestCreatingAFamilyLogsNothing: a client that creates a column family
// without a GC rule (the Go client's CreateColumnFamily) leaves the
// embedded emulator quiet — bttest used to log "Unsupported GC rule type
// <nil>" on the first write to it — and a family with a rule keeps it.
func TestCreatingAFamilyLogsNothing(t *testing.T) {
	var logged bytes.Buffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&logged)

	srv, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	client, admin, err := Dial(ctx, srv.Addr, "p", "i")
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if err := admin.CreateTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, "t", "plain"); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamilyWithConfig(ctx, "t", "one", bigtable.Family{GCPolicy: bigtable.MaxVersionsPolicy(1)}); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateTableFromConf(ctx, &bigtable.TableConf{TableID: "t2", Families: map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()}}); err != nil {
		t.Fatal(err)
	}
	table := client.Open("t")
	for i, family := range []string{"plain", "plain", "one", "one"} {
		m := bigtable.NewMutation()
		m.Set(family, "q", bigtable.Time(time.Unix(int64(1000+i), 0)), []byte("v"))
		if err := table.Apply(ctx, "row", m); err != nil {
			t.Fatal(err)
		}
	}
	m := bigtable.NewMutation()
	m.Set("f", "q", bigtable.Now(), []byte("v"))
	if err := client.Open("t2").Apply(ctx, "row", m); err != nil {
		t.Fatal(err)
	}
	// The emulator collects garbage every second or so: wait for a pass,
	// which the family with a rule shows.
	deadline := time.Now().Add(time.Minute)
	for {
		row, err := table.ReadRow(ctx, "row")
		if err != nil {
			t.Fatal(err)
		}
		if len(row["one"]) == 1 {
			if got := len(row["plain"]); got != 2 {
				t.Errorf("the family without a rule keeps %d versions, want both", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no garbage collection pass in a minute: the family with max versions 1 keeps %d versions", len(row["one"]))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Contains(logged.String(), "Unsupported GC rule") {
		t.Errorf("the emulator logged:\n%s", logged.String())
	}
}

// TestEmptyGCRulesAreDropped: the interceptor clears the GC rule that
// sets no rule, in both requests that create or change families, and
// keeps a real one. (bttest logs its complaint once a process, so the
// test above sees it only when it runs first; this one does not depend
// on that.)
func TestEmptyGCRulesAreDropped(t *testing.T) {
	real := &btapb.GcRule{Rule: &btapb.GcRule_MaxNumVersions{MaxNumVersions: 1}}
	create := &btapb.CreateTableRequest{Table: &btapb.Table{ColumnFamilies: map[string]*btapb.ColumnFamily{
		"empty": {GcRule: &btapb.GcRule{}}, "none": {}, "real": {GcRule: real}}}}
	modify := &btapb.ModifyColumnFamiliesRequest{Modifications: []*btapb.ModifyColumnFamiliesRequest_Modification{
		{Id: "a", Mod: &btapb.ModifyColumnFamiliesRequest_Modification_Create{Create: &btapb.ColumnFamily{GcRule: &btapb.GcRule{}}}},
		{Id: "b", Mod: &btapb.ModifyColumnFamiliesRequest_Modification_Update{Update: &btapb.ColumnFamily{GcRule: &btapb.GcRule{}}}},
		{Id: "c", Mod: &btapb.ModifyColumnFamiliesRequest_Modification_Create{Create: &btapb.ColumnFamily{GcRule: real}}},
		{Id: "d", Mod: &btapb.ModifyColumnFamiliesRequest_Modification_Drop{Drop: true}},
	}}
	for _, req := range []any{create, modify} {
		if _, err := withoutEmptyGCRules(context.Background(), req, nil, func(context.Context, any) (any, error) { return nil, nil }); err != nil {
			t.Fatal(err)
		}
	}
	families := create.Table.ColumnFamilies
	if families["empty"].GcRule != nil || families["none"].GcRule != nil || families["real"].GcRule != real {
		t.Errorf("CreateTable's families after: %v", families)
	}
	m := modify.Modifications
	if m[0].GetCreate().GcRule != nil || m[1].GetUpdate().GcRule != nil || m[2].GetCreate().GcRule != real || !m[3].GetDrop() {
		t.Errorf("ModifyColumnFamilies after: %v", m)
	}
}
