package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// result is what one in-process run of btviz printed and returned.
type result struct {
	code           int
	stdout, stderr string
}

// runBtviz runs btviz in-process with args and the given environment.
func runBtviz(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr, getenv)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func (r result) requireExit(t *testing.T, code int, stderrHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, want := range stderrHas {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// seededEmulator starts an in-process emulator holding the named demo
// scenarios and returns the environment that points btviz at it.
func seededEmulator(t *testing.T, scenarios string, opts ...grpc.ServerOption) map[string]string {
	t.Helper()
	return emulatorEnv(t, emutest.Seed(t, scenarios, opts...))
}

// demoTables are the demo tables of [sharedEmulator].
const demoTables = "bus-locations"

// sharedEmulator returns the environment that points btviz at the one
// in-process emulator holding [demoTables], loaded once for the package;
// tests only read it.
func sharedEmulator(t *testing.T) map[string]string {
	t.Helper()
	return emulatorEnv(t, emutest.Shared(t, demoTables))
}

func emulatorEnv(t *testing.T, target connect.Target) map[string]string {
	return map[string]string{connect.EmulatorHostEnv: target.EmulatorHost, "HOME": t.TempDir()}
}

// freePort returns a loopback port free at the time of the call.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestSeedRefusesATargetThatIsNotAnEmulator(t *testing.T) {
	r := runBtviz(t, map[string]string{"HOME": t.TempDir()}, "seed", "--scenario", "all", "--project", "prod", "--instance", "main")
	r.requireExit(t, exitUsage, "only into an emulator", "BIGTABLE_EMULATOR_HOST", "nothing was written")
}

func TestSeedListsScenarios(t *testing.T) {
	r := runBtviz(t, nil, "seed", "--list")
	r.requireExit(t, exitOK)
	for _, sc := range demo.Scenarios() {
		if !strings.Contains(r.stdout, sc.Name) || !strings.Contains(r.stdout, sc.Description) {
			t.Errorf("--list lacks %s and its description", sc.Name)
		}
	}
}

func TestBadFlagsExitTwoWithAClearMessage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"report", "--table", "t", "--sample", "3"}, `--sample "3": that is more than all the rows`},
		{[]string{"report", "--table", "t", "--full", "--sample", "0.1"}, "give at most one"},
		{[]string{"report", "--table", "t", "--max-rows", "-5"}, "--max-rows -5"},
		{[]string{"report", "--table", "t", "--start", "b", "--end", "a"}, "is not before --end"},
		{[]string{"report", "--table", "t", "--max-read", "NaN"}, "--max-read NaN: give a positive size"},
		{[]string{"report", "--table", "t", "--max-read", "0.5"}, "--max-read 0.5: give a positive size"},
		{[]string{"report", "--table", "t", "--max-read", "-5MB"}, "--max-read -5MB: give a positive size"},
		{[]string{"report", "--table", "t", "--prefix", `bad\x4`}, `--prefix`},
		{[]string{"report", "--table", "t", "--format", "yaml"}, "yaml"},
		{[]string{"report", "--table", "t", "--fail-on", "fatal"}, "fatal"},
		{[]string{"report", "--table", "t", "--what-if", "salt(eight)"}, "--what-if"},
		{[]string{"report", "--snapshot", "x.btviz", "--instance", "i"}, "--snapshot reads a saved scan"},
		{[]string{"report", "--snapshot", "x.btviz", "--table", "t"}, "x.btviz: no such file"},
		{[]string{"report"}, "--table"},
		{[]string{"scan", "--table", "t"}, "--out FILE"},
		{[]string{"scan", "--table", "a/b\x1b\u202e"}, "--out a_b__.btviz"},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"emulator", "--port", "70000"}, "--port 70000"},
		{[]string{"seed", "--scenario", "nope", "--emulator-host", "localhost:1"}, `unknown scenario "nope"`},
		{[]string{"report", "--emulator", "--table", "nosuch"}, "not a demo table"},
	}
	for _, tc := range cases {
		r := runBtviz(t, map[string]string{"HOME": t.TempDir()}, tc.args...)
		if r.code != exitUsage || !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(tc.want)) {
			t.Errorf("btviz %s: exit %d, stderr %q; want exit 2 mentioning %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
		if strings.ContainsAny(r.stderr, "\x1b\x00") {
			t.Errorf("btviz %s: stderr holds control bytes: %q", strings.Join(tc.args, " "), r.stderr)
		}
	}
}

func TestUnreadableSnapshotsExitTwo(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var newer bytes.Buffer
	zw := gzip.NewWriter(&newer)
	zw.Write([]byte(`{"format":"btviz-snapshot","version":9,"snapshot":{}}`))
	zw.Close()
	cases := map[string]string{
		write("text.btviz", []byte("hello")):   "not a btviz snapshot",
		write("newer.btviz", newer.Bytes()):    "upgrade btviz",
		write("cut.btviz", newer.Bytes()[:10]): "truncated",
		filepath.Join(dir, "missing.btviz"):    "no such file",
	}
	for path, want := range cases {
		r := runBtviz(t, nil, "report", "--snapshot", path)
		r.requireExit(t, exitUsage, want, path)
	}
}

func TestMissingTableNamesWhatExists(t *testing.T) {
	env := sharedEmulator(t)
	r := runBtviz(t, env, "report", "--table", "buses")
	r.requireExit(t, exitUsage, `table "buses"`, "it has: bus-locations")
}

func TestScanThenReportGatesOnFindings(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	// Both tables' scans are the committed snapshots (kept true by
	// export's TestSnapshotFixturesMatchAFreshScan in the slow tier, which
	// also scans them live; the scans of bus-locations below write theirs):
	// a scan of 20,000 rows under -race took most of this test's 12 s.
	for _, table := range []string{"social-celebrity", "social-celebrity-salted"} {
		out := snapshotFixture(table)
		r := runBtviz(t, nil, "report", "--snapshot", out, "--format", "json", "--fail-on", "warning")
		var doc struct {
			Source   string `json:"source"`
			Table    string `json:"table"`
			Findings []struct {
				Kind, Severity, Prefix string
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: report is not JSON: %v\n%s", table, err, r.stdout)
		}
		hot := false
		for _, f := range doc.Findings {
			hot = hot || (f.Kind == "hot-key-range" && f.Prefix == "user#mila_rosewood#")
		}
		switch table {
		case "social-celebrity":
			r.requireExit(t, exitFindings)
			if !hot {
				t.Errorf("no hot-key-range at user#mila_rosewood#: %+v", doc.Findings)
			}
		default:
			r.requireExit(t, exitOK)
			if hot {
				t.Errorf("salted table still reports the celebrity hot")
			}
		}
		if doc.Source != "snapshot" || doc.Table != table {
			t.Errorf("source %q table %q", doc.Source, doc.Table)
		}
	}
}

// failReadsAfter makes the emulator fail every ReadRows stream once rows
// messages have been sent: a scan that breaks part-way.
func failReadsAfter(rows int64) grpc.ServerOption {
	var sent atomic.Int64
	return grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if !strings.HasSuffix(info.FullMethod, "/ReadRows") {
			return handler(srv, ss)
		}
		return handler(srv, &failingStream{ServerStream: ss, sent: &sent, limit: rows})
	})
}

type failingStream struct {
	grpc.ServerStream
	sent  *atomic.Int64
	limit int64
}

func (s *failingStream) SendMsg(m any) error {
	if s.sent.Add(1) > s.limit {
		return status.Error(codes.FailedPrecondition, "injected: the table went away")
	}
	return s.ServerStream.SendMsg(m)
}

// TestScanSaysWhyItReadsOtherThanAsked: a --sample too small to read
// anything reads about 200 rows and says that this is the smallest sample
// btviz reads; a --max-rows below a row a key range reads one row from
// each range and says so; neither needs a terminal to say it.
func TestScanSaysWhyItReadsOtherThanAsked(t *testing.T) {
	env := sharedEmulator(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--sample", "1e-9"}, []string{"btviz: --sample 1e-09 would read about 0 of the range's about", "reading about 200 instead, the smallest sample btviz reads"}},
		{[]string{"--max-rows", "10"}, []string{"btviz: --max-rows 10 reads about", "at least one from each of the table's", "so that every range is estimated"}},
	} {
		out := filepath.Join(t.TempDir(), "x.btviz")
		r := runBtviz(t, env, append([]string{"scan", "--table", "bus-locations", "--out", out}, tc.args...)...)
		r.requireExit(t, exitOK, tc.want...)
		snap, err := keyspace.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Scan.RowsRead <= 10 {
			t.Errorf("%v: read %d rows", tc.args, snap.Scan.RowsRead)
		}
	}
}

func TestScanThatFailsPartWayWritesThePartialSnapshotAndExitsThree(t *testing.T) {
	env := seededEmulator(t, "bus-locations", failReadsAfter(200))
	out := filepath.Join(t.TempDir(), "partial.btviz")
	r := runBtviz(t, env, "scan", "--table", "bus-locations", "--out", out, "--full")
	r.requireExit(t, exitPartial, "injected", "INCOMPLETE")
	// Said once: the summary of what was written says it is incomplete,
	// the error after it why (it used to repeat the cause).
	if n := strings.Count(r.stderr, "injected"); n != 1 || strings.Count(r.stderr, "stopped after") != 1 {
		t.Errorf("the cause is said %d times:\n%s", n, r.stderr)
	}
	snap, err := keyspace.Load(out)
	if err != nil {
		t.Fatalf("partial snapshot not written: %v", err)
	}
	if snap.Scan.Complete || snap.Scan.Incomplete == "" || snap.Scan.RowsRead == 0 {
		t.Fatalf("partial snapshot: complete=%v incomplete=%q rows=%d", snap.Scan.Complete, snap.Scan.Incomplete, snap.Scan.RowsRead)
	}
	report := runBtviz(t, env, "report", "--table", "bus-locations", "--format", "text")
	report.requireExit(t, exitPartial)
	if !strings.Contains(report.stdout, "incomplete") {
		t.Errorf("report of a partial scan does not say it is incomplete:\n%s", report.stdout)
	}
}
