package connect

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"cloud.google.com/go/bigtable/bttest"
)

func startEmulator(t *testing.T) Target {
	t.Helper()
	srv, err := bttest.NewServer("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return Target{Project: EmulatorProject, Instance: EmulatorInstance, EmulatorHost: srv.Addr}
}

func TestOpenEmulatorListsTablesAndSamples(t *testing.T) {
	ctx := context.Background()
	target := startEmulator(t)
	conn, err := Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Admin.CreateTable(ctx, "events"); err != nil {
		t.Fatal(err)
	}
	if err := conn.Admin.CreateColumnFamily(ctx, "events", "cf"); err != nil {
		t.Fatal(err)
	}
	mut := bigtable.NewMutation()
	mut.Set("cf", "q", bigtable.Timestamp(1000), []byte("hello"))
	if err := conn.Client.Open("events").Apply(ctx, "user#1", mut); err != nil {
		t.Fatal(err)
	}
	tables, err := conn.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Name != "events" || tables[0].Families[0] != "cf" {
		t.Fatalf("tables = %+v, %v", tables, err)
	}
	stream, err := conn.Data.SampleRowKeys(ctx, &btpb.SampleRowKeysRequest{TableName: conn.TableName("events")})
	if err != nil {
		t.Fatal(err)
	}
	var last *btpb.SampleRowKeysResponse
	for {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		last = resp
	}
	if last == nil || last.OffsetBytes != 5 {
		t.Fatalf("last sample = %v, want offset 5 (value bytes)", last)
	}
}

func TestMissingTableNamesWhatExists(t *testing.T) {
	ctx := context.Background()
	conn, err := Open(ctx, startEmulator(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.Table(ctx, "nope")
	if !errors.Is(err, ErrTableNotFound) || !strings.Contains(err.Error(), "btviz seed") || !strings.Contains(err.Error(), "emulator at") {
		t.Fatalf("empty instance: err = %v", err)
	}
	conn.Admin.CreateTable(ctx, "events")
	_, err = conn.Table(ctx, "nope")
	if !errors.Is(err, ErrTableNotFound) || !strings.Contains(err.Error(), "it has: events") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnreachableEmulatorSaysSo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	target := startEmulator(t)
	target.EmulatorHost = "127.0.0.1:1" // nothing listens there
	start := time.Now()
	_, err := Open(ctx, target)
	if err == nil || !strings.Contains(err.Error(), "no Bigtable emulator answers at 127.0.0.1:1") || !strings.Contains(err.Error(), "btviz emulator") {
		t.Fatalf("err = %v", err)
	}
	// Refused at once; 15 s leaves a busy machine room and still fails a
	// wait for the context's 30 s.
	if elapsed := time.Since(start); elapsed > 15*time.Second {
		t.Fatalf("took %v to report an unreachable emulator", elapsed)
	}
}
