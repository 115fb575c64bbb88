//go:build slow

package record

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
)

// TestRecordingEqualsWhatWasSent runs a known workload through the
// official Go client twice: directly against one official emulator, and
// through the recording proxy against another loaded the same way. Every
// call must get the same answer both ways, and the recording must hold
// exactly what the client sent and got.
func TestRecordingEqualsWhatWasSent(t *testing.T) {
	binary := cbtemulator.Binary(t)
	for _, path := range forwardingPaths {
		t.Run(path.name, func(t *testing.T) {
			directAddr, proxiedAddr := runEmulator(t, binary), runEmulator(t, binary)
			proxyAddr, sink, stop := recordingProxy(t, proxiedAddr, path.viaGRPC)
			checkRecording(t, directAddr, proxyAddr, sink, stop)
		})
	}
}

// checkRecording runs the workload directly against directAddr and
// through the proxy at proxyAddr, and compares.
func checkRecording(t *testing.T, directAddr, proxyAddr string, sink *collectingSink, stop func()) {

	ctx := context.Background()
	workload := shopWorkload()
	direct := runWorkload(t, ctx, directAddr, workload)
	proxied := runWorkload(t, ctx, proxyAddr, workload)
	stop()

	for i, s := range workload {
		if direct.got[i] != proxied.got[i] {
			t.Errorf("%s: through the proxy the client got\n  %s\nbut directly\n  %s", s.name, proxied.got[i], direct.got[i])
		}
	}
	all := strings.Join(direct.got, "\n")
	for _, code := range []string{"NotFound:", "InvalidArgument:", "Internal:"} {
		if !strings.Contains(all, code) {
			t.Errorf("no call of the workload got %s it must check that errors pass through unchanged", code)
		}
	}

	recorded := foldParts(sink.all())
	if len(recorded) != len(workload) {
		t.Fatalf("recorded %d calls, want %d (one per call of the workload)", len(recorded), len(workload))
	}
	for i, want := range proxied.want {
		got := *recorded[i]
		got.Time = want.Time
		// The proxy times every call (request to trailers): a time it
		// measured, not one the workload can know; what it must be is
		// that it was measured.
		if got.Latency <= 0 {
			t.Errorf("%s: recorded without its latency", workload[i].name)
		}
		got.Latency = want.Latency
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("%s: recorded\n  %+v\nwant\n  %+v", workload[i].name, got, *want)
		}
	}
	if got, want := summarize(recorded), summarize(proxied.want); got != want {
		t.Errorf("recording by method and prefix:\n%s\nwant:\n%s", got, want)
	}
	if testing.Verbose() {
		t.Logf("recording by method and prefix:\n%s", summarize(recorded))
	}
}

// runEmulator runs one official emulator for the test and loads the shop
// table into it.
func runEmulator(t *testing.T, binary string) string {
	t.Helper()
	p, err := cbtemulator.Run(binary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	client, admin := dial(t, p.Addr)
	if err := seedShop(context.Background(), client, admin); err != nil {
		t.Fatalf("loading the shop table into %s: %v", p.Addr, err)
	}
	return p.Addr
}

// workloadRun is what one run of the workload saw.
type workloadRun struct {
	got  []string
	want []*keyspace.Op
}

// runWorkload runs the workload with a client that finds its emulator as
// an application does, through BIGTABLE_EMULATOR_HOST = via.
func runWorkload(t *testing.T, ctx context.Context, via string, workload []step) workloadRun {
	t.Helper()
	t.Setenv(connect.EmulatorHostEnv, via)
	client, err := bigtable.NewClientWithConfig(ctx, connect.EmulatorProject, connect.EmulatorInstance,
		bigtable.ClientConfig{MetricsProvider: bigtable.NoopMetricsProvider{}})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	conn, err := grpc.NewClient(via, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := session{client: client, raw: btpb.NewBigtableClient(conn)}
	var run workloadRun
	for _, st := range workload {
		got, want := st.run(ctx, s)
		run.got = append(run.got, got)
		run.want = append(run.want, want)
	}
	return run
}

// foldParts merges each call's Parts into its own Op, which comes after
// them, for a workload that makes one call at a time.
func foldParts(ops []*keyspace.Op) []*keyspace.Op {
	var calls []*keyspace.Op
	var pending []keyspace.RowIO
	for _, op := range ops {
		if op.Part {
			pending = append(pending, op.RowsRead...)
			continue
		}
		merged := *op
		merged.RowsRead = append(pending, op.RowsRead...)
		if len(merged.RowsRead) == 0 {
			merged.RowsRead = nil
		}
		pending = nil
		calls = append(calls, &merged)
	}
	return calls
}

// summarize totals ops by method and key prefix (user#NAME, order,
// counter): calls, keys named, rows read and written, and their bytes.
func summarize(ops []*keyspace.Op) string {
	type totals struct{ calls, keys, read, readBytes, written, writtenBytes int64 }
	by := map[string]*totals{}
	at := func(method string, key keyspace.Key) *totals {
		segments := strings.Split(string(key), "#")
		name := method + " " + strings.Join(segments[:max(1, len(segments)-1)], "#")
		if by[name] == nil {
			by[name] = &totals{}
		}
		return by[name]
	}
	for _, op := range ops {
		at(op.Method, "").calls++
		for _, k := range op.Keys {
			at(op.Method, k).keys++
		}
		for _, r := range op.RowsRead {
			at(op.Method, r.Key).read++
			at(op.Method, r.Key).readBytes += r.Bytes
		}
		for _, r := range op.RowsWritten {
			at(op.Method, r.Key).written++
			at(op.Method, r.Key).writtenBytes += r.Bytes
		}
	}
	var lines []string
	for name, t := range by {
		lines = append(lines, fmt.Sprintf("  %-36s calls %3d  keys %3d  read %3d rows %6d B  written %3d rows %5d B",
			name, t.calls, t.keys, t.read, t.readBytes, t.written, t.writtenBytes))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
