package loadgen

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/record"
)

// opLog keeps every Op a recording proxy saw.
type opLog struct {
	mu  sync.Mutex
	ops []*keyspace.Op
}

func (l *opLog) Add(op *keyspace.Op) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = append(l.ops, op)
}

func (l *opLog) Flush(record.FlushInfo) error { return nil }

// shared is an embedded emulator loaded with the scenarios the
// workloads run against, shared by the tests.
var shared struct {
	once sync.Once
	srv  *emulator.Server
	err  error
}

func demoEmulator(t *testing.T) string {
	t.Helper()
	shared.once.Do(func() {
		if shared.srv, shared.err = emulator.Start("127.0.0.1:0"); shared.err != nil {
			return
		}
		var scenarios []demo.Scenario
		if scenarios, shared.err = demo.Lookup("social-celebrity,timeseries-timestamp-first"); shared.err != nil {
			return
		}
		ctx := context.Background()
		client, admin, err := emulator.Dial(ctx, shared.srv.Addr, connect.EmulatorProject, connect.EmulatorInstance)
		if err != nil {
			shared.err = err
			return
		}
		defer client.Close()
		defer admin.Close()
		shared.err = emulator.Seed(ctx, admin, client, scenarios, nil)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.srv.Addr
}

// recordRun runs a workload through a recording proxy in front of the
// demo emulator and returns the Ops recorded.
func recordRun(t *testing.T, name string, opts Options) ([]*keyspace.Op, Stats) {
	t.Helper()
	upstream, err := record.DialEmulator(demoEmulator(t))
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	log := &opLog{}
	rec := record.NewRecorder(log, record.RecorderOptions{})
	proxy, err := record.Listen("127.0.0.1:0", upstream, record.Options{Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve()
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, proxy.Addr(), connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	stats, err := Run(ctx, client, name, opts)
	client.Close()
	proxy.Stop(ctx)
	rec.Close()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return log.ops, stats
}

func TestReadHotspotReadsTheCelebrityMost(t *testing.T) {
	ops, stats := recordRun(t, "read-hotspot", Options{Rate: 2000, Limit: 400, Seed: 1})
	if stats.Calls != 400 || stats.Errors != 0 {
		t.Fatalf("stats %+v, want 400 calls and no error", stats)
	}
	var hot, other, points, scans int
	for _, op := range ops {
		if op.Table != "social-celebrity" || op.Method != keyspace.MethodReadRows || op.Code != 0 {
			t.Fatalf("unexpected op %+v", op)
		}
		if op.IsScan() {
			scans++
		} else if !op.Part {
			points++
		}
		for _, row := range op.RowsRead {
			if strings.HasPrefix(string(row.Key), "user#mila_rosewood#") {
				hot++
			} else {
				other++
			}
		}
	}
	share := float64(hot) / float64(hot+other)
	if share < 0.7 || share > 0.9 || other == 0 {
		t.Errorf("%d of %d rows read are the celebrity's (%.0f%%); want about 80%%, and other users read too", hot, hot+other, share*100)
	}
	if points < 150 || scans < 80 {
		t.Errorf("%d point reads and %d scans; want both, point reads the most", points, scans)
	}
}

func TestHotCounterSendsHalfTheWritesToOneRow(t *testing.T) {
	ops, _ := recordRun(t, "hot-counter", Options{Rate: 2000, Limit: 300, Seed: 2})
	rows := map[keyspace.Key]int{}
	var increments, writes int
	for _, op := range ops {
		for _, row := range op.RowsWritten {
			rows[row.Key]++
			writes++
		}
		if op.Method == keyspace.MethodReadModifyWriteRow {
			increments++
			if op.Keys[0] != counterRow || op.Code != 0 {
				t.Errorf("an increment of %+v", op)
			}
		}
	}
	if share := float64(rows[counterRow]) / float64(writes); share < 0.4 || share > 0.6 {
		t.Errorf("the counter row took %.0f%% of %d writes, want about half", share*100, writes)
	}
	if len(rows) < writes/3 {
		t.Errorf("%d distinct rows written of %d writes: the other writes should spread", len(rows), writes)
	}
	if increments != rows[counterRow] {
		t.Errorf("%d increments but %d writes of the counter", increments, rows[counterRow])
	}
}

func TestTimestampWritesMarchToTheEnd(t *testing.T) {
	ops, _ := recordRun(t, "timestamp-first-writes", Options{Rate: 1000, Workers: 1, Limit: 100, Seed: 3})
	last := keyspace.Key("")
	// Every existing row's key starts with a time before the demo's end.
	demoEnd := keyspace.Key(fmt.Sprintf("%013d", demo.DemoNow().UnixMilli()))
	for _, op := range ops {
		for _, row := range op.RowsWritten {
			if row.Key <= last || row.Key < demoEnd {
				t.Fatalf("write to %s after %s: every new row must land after the last, and after the demo data (%s)", row.Key, last, demoEnd)
			}
			last = row.Key
		}
	}
	if len(ops) != 100 {
		t.Errorf("%d writes recorded, want 100", len(ops))
	}
}

func TestSameSeedSameCalls(t *testing.T) {
	keysOf := func(ops []*keyspace.Op) []string {
		var keys []string
		for _, op := range ops {
			for _, k := range op.Keys {
				keys = append(keys, "named "+string(k))
			}
			for _, r := range op.RowsRead {
				keys = append(keys, "read "+string(r.Key))
			}
			for _, r := range op.RowsWritten {
				keys = append(keys, "wrote "+string(r.Key))
			}
		}
		return keys
	}
	for _, name := range []string{"read-hotspot", "timestamp-first-writes"} {
		opts := Options{Rate: 2000, Workers: 1, Limit: 60, Seed: 7}
		first, _ := recordRun(t, name, opts)
		second, _ := recordRun(t, name, opts)
		if !reflect.DeepEqual(keysOf(first), keysOf(second)) {
			t.Errorf("%s: two runs with seed 7 made different calls", name)
		}
		opts.Seed = 8
		other, _ := recordRun(t, name, opts)
		if reflect.DeepEqual(keysOf(first), keysOf(other)) {
			t.Errorf("%s: seeds 7 and 8 made the same calls", name)
		}
	}
}

func TestRunIsPacedAndStopsWithItsContext(t *testing.T) {
	client, admin, err := emulator.Dial(context.Background(), demoEmulator(t), connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	began := time.Now()
	stats, err := Run(context.Background(), client, "timestamp-first-writes", Options{Rate: 100, Workers: 2, Limit: 30})
	if took := time.Since(began); err != nil || stats.Calls != 30 || took < 250*time.Millisecond {
		t.Errorf("30 calls at 100/s: %+v, %v in %v; want them paced over about 0.3 s", stats, err, took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	stats, err = Run(ctx, client, "read-hotspot", Options{Rate: 50})
	if err != nil || stats.Calls < 5 || stats.Calls > 15 {
		t.Errorf("0.2 s at 50/s: %+v, %v; want about 10 calls and no error", stats, err)
	}
}

func TestRunExplainsAMissingTable(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, admin, err := emulator.Dial(context.Background(), srv.Addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	_, err = Run(context.Background(), client, "hot-counter", Options{Limit: 4})
	if err == nil || !strings.Contains(err.Error(), "social-celebrity") || !strings.Contains(err.Error(), "btviz seed") {
		t.Errorf("a run on an empty emulator: %v; want an error naming the table and how to load it", err)
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "read-hotspot") {
		t.Errorf("Lookup of an unknown workload: %v; want the list of workloads", err)
	}
}
