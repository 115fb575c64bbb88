package record

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
)

func TestFileSinkWritesTheRecordingAsItGoes(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, admin := dial(t, srv.Addr)
	ctx := context.Background()
	if err := seedShop(ctx, client, admin); err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "traffic.btviz")
	sink := NewFileSink(path, keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Upstream: "the emulator at " + srv.Addr}, nil)
	flushed := make(chan error, 100)
	rec := NewRecorder(sink, RecorderOptions{FlushEvery: 20 * time.Millisecond, Flushed: func(_ FlushInfo, err error) { flushed <- err }})
	upstream, err := DialEmulator(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve()

	proxied, _ := dial(t, proxy.Addr())
	table := proxied.Open(shopTable)
	for i := range 30 {
		if _, err := table.ReadRow(ctx, fmt.Sprintf("user#alice#%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	m := bigtable.NewMutation()
	m.Set(shopFamily, shopColumn, shopTS, []byte("x"))
	if err := table.Apply(ctx, "order#new", m); err != nil {
		t.Fatal(err)
	}
	// A periodic flush after the calls: the file holds them, marked
	// incomplete.
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	midway, err := keyspace.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the recording while the proxy runs: %v", err)
	}
	if midway.Recording == nil || midway.Recording.Complete {
		t.Fatalf("a flush while recording wrote %+v, want a recording marked incomplete", midway)
	}

	proxy.Stop(ctx)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	file, err := keyspace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recording := file.Recording
	if !recording.Complete || len(recording.Tables) != 1 {
		t.Fatalf("the final recording: complete %v, tables %v; want complete, one table", recording.Complete, recording.TableNames())
	}
	snap := recording.Table(shopTable)
	root := snap.Root.Traffic
	if root.PointReads != 30 || root.RowsRead != 30 || root.RowsWritten != 1 {
		t.Errorf("the table's traffic: %+v; want 30 point reads of 30 rows, 1 row written", root.OpCounts)
	}
	alice := snap.Root.Lookup("user#alice#")
	if alice == nil || alice[len(alice)-1].Traffic.RowsRead != 30 {
		t.Errorf("the reads are not under user#alice#: %v", alice)
	}
}
