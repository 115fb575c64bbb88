//go:build slow

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/record/loadgen"
)

// TestE2ERecordNamesThePlantedHotspots records each demo workload —
// the official Go client through `btviz record` to the official emulator
// loaded with the workloads' demo tables — stops the recorder with
// Ctrl+C, and checks that `btviz report` on the recording names the
// pattern the workload planted, where it planted it.
//
// Its workloads write (likes, sensor reports), so it seeds an emulator of
// its own: in the shared one (seededOfficial, for tests that only read)
// its rows made the tests that count the seeded rows fail whenever they
// ran after it (go test -count 2).
func TestE2ERecordNamesThePlantedHotspots(t *testing.T) {
	host := officialSeededWith(t, "social-celebrity,timeseries-timestamp-first")
	cases := []struct {
		workload string
		rate     float64
		calls    int64
		kind     string
		prefix   string
	}{
		{"read-hotspot", 200, 600, "read-hotspot", "user#mila_rosewood#"},
		{"hot-counter", 200, 400, "hot-row", "counter#likes"},
		// The diagonal needs writes in 8 one-second columns or more.
		{"timestamp-first-writes", 100, 1000, "sequential-writes", ""},
	}
	for _, c := range cases {
		t.Run(c.workload, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "traffic.btviz")
			stop := startRecorder(t, host, out)
			ctx := context.Background()
			client, admin, err := emulator.Dial(ctx, stop.addr, connect.EmulatorProject, connect.EmulatorInstance)
			if err != nil {
				t.Fatal(err)
			}
			admin.Close()
			stats, err := loadgen.Run(ctx, client, c.workload, loadgen.Options{Rate: c.rate, Limit: c.calls, Seed: 1})
			client.Close()
			if err != nil || stats.Errors > 0 {
				t.Fatalf("loadgen %s through the proxy: %+v, %v", c.workload, stats, err)
			}
			stop.ctrlC(t)

			workload, _ := loadgen.Lookup(c.workload)
			report := btvizCommand(t, host, "report", "--snapshot", out, "--table", workload.Table, "--format", "json")
			var stdout, stderr bytes.Buffer
			report.Stdout, report.Stderr = &stdout, &stderr
			if err := report.Run(); err != nil {
				t.Fatalf("btviz report --snapshot %s: %v\n%s", out, err, stderr.String())
			}
			var doc struct {
				Findings []struct {
					Kind, Prefix, Summary string
				} `json:"findings"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			for _, f := range doc.Findings {
				if f.Kind == c.kind && f.Prefix == c.prefix {
					return
				}
			}
			t.Errorf("the report of %s names no %s at %q; its findings: %+v", c.workload, c.kind, c.prefix, doc.Findings)
		})
	}
}

// recorder is a `btviz record` process.
type recorder struct {
	addr   string
	cmd    interface{ Wait() error }
	signal func() error
	stderr *bytes.Buffer
}

// startRecorder runs the btviz binary's record command in front of the
// emulator at host, recording into out, and waits until it listens.
func startRecorder(t *testing.T, host, out string) *recorder {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cmd := btvizCommand(t, host, "record", "--listen", addr, "--upstream", host, "--out", out)
	r := &recorder{addr: addr, cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	r.signal = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	waitListening(t, addr, r.stderr.String)
	return r
}

// waitListening waits until a btviz record process listens on addr;
// stderr says why when it does not.
func waitListening(t *testing.T, addr string, stderr func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("btviz record does not listen:\n%s", stderr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ctrlC stops the recorder as Ctrl+C does and waits for it to exit 0.
func (r *recorder) ctrlC(t *testing.T) {
	t.Helper()
	if err := r.signal(); err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("btviz record after Ctrl+C: %v\n%s", err, r.stderr.String())
	}
}
