package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/snapshotjson"
)

// recordThrough runs `btviz record` in front of an embedded emulator
// holding table "t" (family f), calls it with the official client as
// drive does, stops the recording as Ctrl+C would and returns the file
// and the command's result. The emulator runs until the test ends, at
// upstream.
func recordThrough(t *testing.T, drive func(ctx context.Context, client *bigtable.Client)) (out string, r result, upstream string) {
	t.Helper()
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx := context.Background()
	newTable(t, srv.Addr, "t")
	out = filepath.Join(t.TempDir(), "traffic.btviz")
	addr, stop := startRecording(t, "--upstream", srv.Addr, "--out", out)
	defer stop()
	proxied, _, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer proxied.Close()
	drive(ctx, proxied)
	return out, stop(), srv.Addr
}

func set(t *testing.T, ctx context.Context, table *bigtable.Table, key string) {
	t.Helper()
	m := bigtable.NewMutation()
	m.Set("f", "q", bigtable.Now(), []byte("v"))
	if err := table.Apply(ctx, key, m); err != nil {
		t.Fatalf("writing %d-byte key through the proxy: %v", len(key), err)
	}
}

// TestATableOfKeylessCallsReports: a table whose only recorded call is
// SampleRowKeys (as a client library makes before it reads) is reported,
// exported and drawn; it used to crash diagnose (exit 70).
func TestATableOfKeylessCallsReports(t *testing.T) {
	out, r, _ := recordThrough(t, func(ctx context.Context, client *bigtable.Client) {
		if _, err := client.Open("t").SampleRowKeys(ctx); err != nil {
			t.Fatal(err)
		}
	})
	r.requireExit(t, exitOK, "recorded 1 calls")
	for _, args := range [][]string{
		{"report", "--snapshot", out},
		{"report", "--snapshot", out, "--format", "markdown"},
		{"export", "--snapshot", out, "--out", filepath.Join(t.TempDir(), "x.txt")},
		{"export", "--snapshot", out, "--view", "findings", "--out", filepath.Join(t.TempDir(), "x.svg")},
	} {
		runBtviz(t, nil, args...).requireExit(t, exitOK)
	}
}

// TestALongKeyRecordingReadsBack: one write of a 70,000-byte key (the
// emulator takes it) through btviz record gives a file btviz reads, whose
// report raises long-row-key with the key's full length, beside the
// recording's other table; it used to refuse the whole file.
func TestALongKeyRecordingReadsBack(t *testing.T) {
	long := "doc#" + strings.Repeat("p", 70000-4)
	out, r, upstream := recordThrough(t, func(ctx context.Context, client *bigtable.Client) {
		set(t, ctx, client.Open("t"), long)
		set(t, ctx, client.Open("t"), "doc#short")
	})
	r.requireExit(t, exitOK, "recorded 2 calls")
	scanned := filepath.Join(t.TempDir(), "scan.btviz")
	env := map[string]string{connect.EmulatorHostEnv: upstream, "HOME": t.TempDir()}
	runBtviz(t, env, "scan", "--table", "t", "--full", "--out", scanned).requireExit(t, exitOK)
	for _, file := range []string{out, scanned} {
		report := runBtviz(t, nil, "report", "--snapshot", file, "--format", "json")
		report.requireExit(t, exitOK)
		var doc struct {
			Findings []struct {
				Kind     string             `json:"kind"`
				Severity string             `json:"severity"`
				Evidence map[string]float64 `json:"evidence"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(report.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range doc.Findings {
			found = found || f.Kind == "long-row-key" && f.Severity == "error" && f.Evidence["max_key_bytes"] == 70000
		}
		if !found {
			t.Errorf("the report of %s, which holds a 70,000-byte key, raises no long-row-key error with its length", filepath.Base(file))
		}
	}
	runBtviz(t, nil, "report", "--snapshot", out, "--snapshot", scanned).requireExit(t, exitOK)
}

// TestMissingTablesAreCountedNotRecorded: calls on tables that do not
// exist are counted and named, not recorded as tables.
func TestMissingTablesAreCountedNotRecorded(t *testing.T) {
	out, r, _ := recordThrough(t, func(ctx context.Context, client *bigtable.Client) {
		for i := range 300 {
			if _, err := client.Open(fmt.Sprintf("missing-%03d", i)).ReadRow(ctx, "row"); err == nil {
				t.Fatal("a read of a table that does not exist succeeded")
			}
		}
	})
	r.requireExit(t, exitOK, "300 calls on tables that do not exist (NotFound) were counted, not recorded", `"missing-`)
	file, err := keyspace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(file.Recording.Tables); n != 0 || file.Recording.NotFound == nil || file.Recording.NotFound.Calls != 300 {
		t.Errorf("the recording holds %d tables and %+v NotFound calls, want none and 300", n, file.Recording.NotFound)
	}
	runBtviz(t, nil, "report", "--snapshot", out).requireExit(t, exitUsage, "no calls on any table that exists", "NotFound")
}

// TestAnIncompleteRecordingSaysSoEverywhere: a recording cut off (its
// last periodic write, marked incomplete) says so in the JSON report
// (complete: false, and why), the text and Markdown reports and the
// header of every view.
func TestAnIncompleteRecordingSaysSoEverywhere(t *testing.T) {
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	b := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started, Delimiters: "#"}, keyspace.Options{})
	for i := range 300 {
		key := keyspace.Key(fmt.Sprintf("user#%03d", i%40))
		b.Add(&keyspace.Op{Time: started.Add(time.Duration(i) * 30 * time.Millisecond), Table: "t", Method: keyspace.MethodMutateRow,
			Keys: []keyspace.Key{key}, RowsWritten: []keyspace.RowIO{{Key: key, Bytes: 10}}})
	}
	path := filepath.Join(t.TempDir(), "cut.btviz")
	if err := keyspace.SaveRecording(path, b.Recording(started.Add(10*time.Second), false)); err != nil {
		t.Fatal(err)
	}
	r := runBtviz(t, nil, "report", "--snapshot", path, "--format", "json")
	r.requireExit(t, exitOK)
	var doc struct {
		Scan struct {
			Complete   bool   `json:"complete"`
			Incomplete string `json:"incomplete"`
		} `json:"scan"`
		Traffic struct {
			Complete   bool   `json:"complete"`
			Incomplete string `json:"incomplete"`
		} `json:"traffic"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Scan.Complete || doc.Traffic.Complete || !strings.Contains(doc.Scan.Incomplete, "cut off") || !strings.Contains(doc.Traffic.Incomplete, "cut off") {
		t.Errorf("JSON report scan %+v traffic %+v, want complete false and why", doc.Scan, doc.Traffic)
	}
	for _, format := range []string{"text", "markdown"} {
		r := runBtviz(t, nil, "report", "--snapshot", path, "--format", format)
		r.requireExit(t, exitOK)
		if !strings.Contains(r.stdout, "incomplete") || !strings.Contains(r.stdout, "the recording was cut off") {
			t.Errorf("the %s report does not say the recording is incomplete:\n%s", format, r.stdout)
		}
	}
	frame := filepath.Join(t.TempDir(), "frame.txt")
	runBtviz(t, nil, "export", "--snapshot", path, "--out", frame, "--size", "160x40").requireExit(t, exitOK)
	drawn, err := os.ReadFile(frame)
	if err != nil {
		t.Fatal(err)
	}
	if header := strings.SplitN(string(drawn), "\n", 4); !strings.Contains(strings.Join(header[:3], "\n"), "incomplete") {
		t.Errorf("the view's header does not say the recording is incomplete:\n%s", strings.Join(header[:3], "\n"))
	}
}

// TestRecordToAnUnwritableOutSaysNothingWasRecorded: an --out btviz
// cannot write fails at once with exit 2, saying nothing was recorded,
// not that it is "still recording".
func TestRecordToAnUnwritableOutSaysNothingWasRecorded(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBtviz(t, map[string]string{"HOME": t.TempDir()}, "record", "--listen", fmt.Sprintf("127.0.0.1:%d", freePort(t)),
		"--upstream", srv.Addr, "--out", filepath.Join(notADir, "traffic.btviz"))
	r.requireExit(t, exitUsage, "cannot write the recording to --out", "nothing was recorded")
	if strings.Contains(r.stderr, "still recording") || strings.Contains(r.stderr, "wrote ") {
		t.Errorf("a recording that never started says it goes on or wrote:\n%s", r.stderr)
	}
}

// TestHugeNamesAreCutInEveryOutput: a crafted recording whose table is
// named with 1 MB (sixteen times what an output may hold of it) reads
// back with the name cut and its size noted, in the reports and in the
// error that lists a file's tables.
func TestHugeNamesAreCutInEveryOutput(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	name := strings.Repeat("n", 1<<20)
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	b := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started}, keyspace.Options{})
	b.Add(&keyspace.Op{Time: started, Table: "t", Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{"k"}, RowsWritten: []keyspace.RowIO{{Key: "k", Bytes: 1}}})
	if err := keyspace.EncodeRecording(&buf, b.Recording(started.Add(time.Second), true)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crafted.btviz")
	rewrite(t, buf.Bytes(), path, func(file map[string]any) { snapshotjson.Object(file, "recording", "tables", 0)["table"] = name })
	for _, format := range []string{"text", "json", "markdown"} {
		r := runBtviz(t, nil, "report", "--snapshot", path, "--format", format)
		r.requireExit(t, exitOK)
		if len(r.stdout) > 64<<10 || !strings.Contains(r.stdout, "1048576 bytes") {
			t.Errorf("the %s report of a 1 MB table name is %d bytes (want the name cut, with its size)", format, len(r.stdout))
		}
	}
	r := runBtviz(t, nil, "report", "--snapshot", path, "--table", "other")
	r.requireExit(t, exitUsage, "1048576 bytes")
	if len(r.stderr) > 8<<10 {
		t.Errorf("the error naming the file's tables is %d bytes", len(r.stderr))
	}
}

// TestADamagedTableOfARecordingIsLeftOut: a recording with one table
// damaged is read as the rest, with a warning that names the table.
func TestADamagedTableOfARecordingIsLeftOut(t *testing.T) {
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	b := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started}, keyspace.Options{})
	for _, table := range []string{"good", "hurt"} {
		b.Add(&keyspace.Op{Time: started, Table: table, Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{"k"}, RowsWritten: []keyspace.RowIO{{Key: "k", Bytes: 1}}})
	}
	var buf bytes.Buffer
	if err := keyspace.EncodeRecording(&buf, b.Recording(started.Add(time.Second), true)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damaged.btviz")
	rewrite(t, buf.Bytes(), path, func(file map[string]any) {
		snapshotjson.Object(file, "recording", "tables", 1, "root", "traffic")["ops"] = -1
	})
	r := runBtviz(t, nil, "report", "--snapshot", path)
	r.requireExit(t, exitOK, `table "hurt" is left out`, "recording.tables[1]")
	if !strings.Contains(r.stdout, "good") {
		t.Errorf("the report of the good table:\n%s", r.stdout)
	}
}

// rewrite writes to path the file data with the change damage makes to
// its JSON.
func rewrite(t *testing.T, data []byte, path string, damage func(file map[string]any)) {
	t.Helper()
	file, err := snapshotjson.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	damage(file)
	out, err := snapshotjson.Write(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newTable creates table, with family f, on the emulator at addr.
func newTable(t *testing.T, addr, table string) {
	t.Helper()
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if err := admin.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, table, "f"); err != nil {
		t.Fatal(err)
	}
}
