package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/record"
)

// startRecording runs `btviz record` in-process until the returned stop
// is called (as Ctrl+C would), and returns the proxy's address.
func startRecording(t *testing.T, args ...string) (addr string, stop func() result) {
	t.Helper()
	addr = fmt.Sprintf("127.0.0.1:%d", freePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(ctx, append([]string{"record", "--listen", addr}, args...), strings.NewReader(""), &stdout, &stderr,
			func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] })
		done <- result{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case r := <-done:
			t.Fatalf("btviz record exited %d before listening:\n%s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("btviz record does not listen after 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var stopped *result
	return addr, func() result {
		if stopped == nil {
			cancel()
			r := <-done
			stopped = &r
		}
		return *stopped
	}
}

func TestRecordWritesWhatTheApplicationDid(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "traffic.btviz")
	addr, stop := startRecording(t, "--upstream", srv.Addr, "--out", out)
	defer stop()

	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if err := admin.CreateTable(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, "orders", "f"); err != nil {
		t.Fatal(err)
	}
	table := client.Open("orders")
	for i := range 25 {
		m := bigtable.NewMutation()
		m.Set("f", "q", bigtable.Now(), []byte("v"))
		if err := table.Apply(ctx, fmt.Sprintf("order#%03d", i), m); err != nil {
			t.Fatal(err)
		}
	}
	var read int
	if err := table.ReadRows(ctx, bigtable.PrefixRange("order#"), func(bigtable.Row) bool { read++; return true }); err != nil || read != 25 {
		t.Fatalf("reading back through the proxy: %d rows, %v", read, err)
	}

	r := stop()
	r.requireExit(t, exitOK, "recorded 26 calls", "orders", "wrote "+out)
	if !strings.Contains(r.stdout, "export BIGTABLE_EMULATOR_HOST="+addr) {
		t.Errorf("stdout does not say how to point an application at the proxy:\n%s", r.stdout)
	}
	file, err := keyspace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rec := file.Recording
	if rec == nil || !rec.Complete || rec.Table("orders") == nil {
		t.Fatalf("the recording: %+v; want a complete recording of table orders", rec)
	}
	traffic := rec.Table("orders").Root.Traffic
	if traffic.RowsWritten != 25 || traffic.RowsRead != 25 || traffic.Scans != 1 {
		t.Errorf("orders traffic %+v; want 25 rows written, 1 scan of 25 rows", traffic.OpCounts)
	}
}

// TestTheProxyTakesNoCallBeforeItServes: record holds its port before
// the recording's first write and takes connections only after it. In
// CI, forty clients that came at once took every descriptor while the
// write was under way, and record exited saying nothing was recorded
// (TestProbeOutOfDescriptorsTheProxyGoesOn).
func TestTheProxyTakesNoCallBeforeItServes(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	upstream, err := record.DialEmulator(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	p, err := listenLiveProxy("127.0.0.1:0", upstream, record.NewFileSink("", keyspace.RecordingMeta{Source: keyspace.SourceEmulator}, nil), record.RecorderOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	ctx := context.Background()
	_, admin, err := emulator.Dial(ctx, p.proxy.Addr(), connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	early, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := admin.Tables(early); !errors.Is(err, context.DeadlineExceeded) && status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("a call before the proxy serves: %v; want it to wait (DeadlineExceeded)", err)
	}
	p.serve()
	later, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := admin.Tables(later); err != nil {
		t.Fatalf("a call once the proxy serves: %v", err)
	}
}

// TestReadingAnEmptyOrCutRecording: a recording no client called through
// says so, and what to do, wherever a recording is read; a recording
// whose file was cut short says it was cut off and to record again, not
// to scan a table.
func TestReadingAnEmptyOrCutRecording(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.btviz")
	_, stop := startRecording(t, "--upstream", srv.Addr, "--out", empty)
	stop().requireExit(t, exitOK, "recorded 0 calls")
	for _, args := range [][]string{
		{"report", "--snapshot", empty},
		{"export", "--snapshot", empty, "--out", filepath.Join(dir, "x.png")},
	} {
		runBtviz(t, nil, args...).requireExit(t, exitUsage, "empty.btviz holds no calls on any table",
			"in front of the emulator at "+srv.Addr, "BIGTABLE_EMULATOR_HOST", "record again")
	}

	var buf bytes.Buffer
	rec := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: time.Now(), Delimiters: "#"}, keyspace.Options{})
	for i := range 500 {
		key := keyspace.Key(fmt.Sprintf("order#%04d", i))
		rec.Add(&keyspace.Op{Time: time.Now(), Table: "orders", Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{key}, RowsWritten: []keyspace.RowIO{{Key: key, Bytes: 40}}})
	}
	if err := keyspace.EncodeRecording(&buf, rec.Recording(time.Now(), true)); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.btviz")
	if err := os.WriteFile(cut, buf.Bytes()[:buf.Len()*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBtviz(t, nil, "report", "--snapshot", cut)
	r.requireExit(t, exitUsage, "cut.btviz", "the recording was cut off", "record the traffic again")
	if strings.Contains(r.stderr, "scan the table") {
		t.Errorf("a cut recording's advice is to scan:\n%s", r.stderr)
	}
}

func TestRecordRefusesBadInput(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "t.btviz")
	// An earlier recording at --out survives a record that cannot start.
	earlier := []byte("an earlier recording")
	if err := os.WriteFile(out, earlier, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"no --out", []string{"record", "--upstream", "localhost:8086"}, []string{"--out FILE"}},
		{"no upstream", []string{"record", "--out", out}, []string{"name the upstream", "--upstream HOST:PORT"}},
		{"upstream without a port", []string{"record", "--out", out, "--upstream", "garbage"}, []string{`upstream "garbage" is not host:port`}},
		{"upstream is the proxy", []string{"record", "--out", out, "--listen", "127.0.0.1:8087", "--upstream", "localhost:8087"}, []string{"the proxy's own --listen address"}},
		{"port in use", []string{"record", "--out", out, "--upstream", "localhost:8086", "--listen", busy.Addr().String()}, []string{busy.Addr().String(), "address already in use", "pick another --listen"}},
		{"unwritable out", []string{"record", "--out", filepath.Join(dir, "missing", "t.btviz"), "--upstream", "localhost:8086", "--listen", "127.0.0.1:0"}, []string{"cannot write the recording"}},
		{"negative duration", []string{"record", "--out", out, "--upstream", "localhost:8086", "--duration", "-1s"}, []string{"--duration -1s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runBtviz(t, map[string]string{"HOME": t.TempDir()}, c.args...)
			r.requireExit(t, exitUsage, c.want...)
			if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, earlier) {
				t.Errorf("the recording at --out is %q (%v) after a record that did not start; want it kept", got, err)
			}
		})
	}
}

func TestRecordKeepsRunningWhileTheUpstreamIsDown(t *testing.T) {
	down := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	out := filepath.Join(t.TempDir(), "t.btviz")
	addr, stop := startRecording(t, "--upstream", down, "--out", out)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	// A write at server time is not idempotent: the client does not
	// retry it, so it shows the proxy's answer.
	m := bigtable.NewMutation()
	m.Set("f", "q", bigtable.ServerTime, []byte("v"))
	for range 2 {
		err := client.Open("orders").Apply(ctx, "order#1", m)
		if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "the emulator at "+down+" does not answer") {
			t.Fatalf("a call with the upstream down: %v; want Unavailable saying the emulator does not answer", err)
		}
	}
	r := stop()
	r.requireExit(t, exitOK, "no emulator answers at "+down, "does not answer")
	if strings.Count(r.stderr, "does not answer (") != 1 {
		t.Errorf("the proxy should say once that the upstream is down:\n%s", r.stderr)
	}
	file, err := keyspace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	orders := file.Recording.Table("orders")
	if orders == nil || len(orders.Traffic.Methods) != 1 || orders.Traffic.Methods[0] != (keyspace.MethodCount{Method: keyspace.MethodMutateRow, Calls: 2, Errors: 2}) {
		t.Errorf("the recording does not hold the two failed writes: %+v", orders)
	}
}
