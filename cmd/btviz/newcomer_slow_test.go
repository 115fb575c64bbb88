//go:build slow

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/testkit/seeds"
)

// newcomerFinding is a finding of a JSON report.
type newcomerFinding struct {
	Kind, Severity, Start, End, Prefix, Dataset, Summary string
}

// TestE2ENewcomerTable is the newcomer, end to end: the
// newcomer-app table loaded into the official emulator by `btviz seed`,
// its app (the newcomer-app workload: live sensor writes, reads
// hammering one user's items and the config row) run with the official
// Go client through `btviz record`, the table read back by `btviz scan`,
// and `btviz report` on the scan, the recording and the two joined. The
// scan must name the timestamp-first sensor keys at their dataset's
// range and nothing on user#'s storage; the recording, alone and joined,
// the read hotspot at exactly user#u0613# (and config#global's hot row
// when the draw puts it over the mark, see newcomerVerdict);
// and the heatmap of the recording, alone and joined, must give the hot
// user rows of its own.
//
// The workload's seed is fresh every run and logged; BTVIZ_SEED replays
// it.
func TestE2ENewcomerTable(t *testing.T) {
	t.Parallel() // long, and needs nothing another test writes: runs beside the other such tests
	buildBinaries(t)
	seed := seeds.Fresh(t, 1)[0]
	host := officialSeededWith(t, "newcomer-app")

	dir := t.TempDir()
	recording, scan := filepath.Join(dir, "traffic.btviz"), filepath.Join(dir, "scan.btviz")
	stop := startRecorder(t, host, recording)
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, stop.addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	// 3,000 calls at 300 a second: ten seconds of the app, a thousand
	// sensor writes over ten one-second columns.
	stats, err := loadgen.Run(ctx, client, "newcomer-app", loadgen.Options{Rate: 300, Limit: 3000, Seed: seed})
	client.Close()
	if err != nil || stats.Errors > 0 {
		t.Fatalf("the newcomer-app workload through the proxy: %+v, %v", stats, err)
	}
	stop.ctrlC(t)
	if out, err := btvizCommand(t, host, "scan", "--table", "newcomer-app", "--out", scan).CombinedOutput(); err != nil {
		t.Fatalf("btviz scan: %v\n%s", err, out)
	}

	for _, c := range []struct {
		what           string
		files          []string
		stored, traffc bool
	}{
		{"scan", []string{scan}, true, false},
		{"recording", []string{recording}, false, true},
		{"joined", []string{scan, recording}, true, true},
	} {
		var args []string
		for _, f := range c.files {
			args = append(args, "--snapshot", f)
		}
		findings := newcomerReport(t, host, args)
		newcomerVerdict(t, c.what, findings, c.stored, c.traffc)
		if c.traffc {
			screen := newcomerScreen(t, host, args, filepath.Join(dir, c.what+".txt"))
			if !strings.Contains(screen, "u0613") {
				t.Errorf("%s: the heatmap gives %s no row of its own:\n%s", c.what, demo.NewcomerHotUser, screen)
			}
			t.Logf("%s heatmap:\n%s", c.what, screen)
		}
	}
}

// newcomerReport runs `btviz report --format json` on the snapshot files
// and returns its findings.
func newcomerReport(t *testing.T, host string, snapshots []string) []newcomerFinding {
	t.Helper()
	cmd := btvizCommand(t, host, append(append([]string{"report"}, snapshots...), "--table", "newcomer-app", "--format", "json")...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("btviz report %v: %v\n%s", snapshots, err, stderr.String())
	}
	var doc struct {
		Findings []newcomerFinding `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Findings
}

// newcomerScreen exports the default heatmap of the snapshot files as
// text and returns it.
func newcomerScreen(t *testing.T, host string, snapshots []string, out string) string {
	t.Helper()
	args := append(append([]string{"export"}, snapshots...), "--table", "newcomer-app", "--out", out, "--size", "140x45")
	if output, err := btvizCommand(t, host, args...).CombinedOutput(); err != nil {
		t.Fatalf("btviz export %v: %v\n%s", snapshots, err, output)
	}
	screen, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(screen)
}

// newcomerVerdict checks what the newcomer must be told (see
// TestE2ENewcomerTable).
func newcomerVerdict(t *testing.T, what string, findings []newcomerFinding, stored, traffic bool) {
	t.Helper()
	has := func(kind string, match func(newcomerFinding) bool) bool {
		for _, f := range findings {
			if f.Kind == kind && f.Severity != "info" && match(f) {
				return true
			}
		}
		return false
	}
	if stored && !has("key-starts-with-timestamp", func(f newcomerFinding) bool { return f.Dataset == demo.NewcomerSensorDataset }) {
		t.Errorf("%s: no key-starts-with-timestamp at the sensor readings' dataset", what)
	}
	if traffic {
		if !has("read-hotspot", func(f newcomerFinding) bool { return f.Prefix == demo.NewcomerHotUser }) {
			t.Errorf("%s: no read-hotspot at exactly %s", what, demo.NewcomerHotUser)
		}
		// The config row takes 15% of the read calls but, with the hot
		// user's 5-row scans, 0.15/1.40 = 10.7% of the rows read: at the
		// hot-row mark of 10%, so a fresh seed raises it about as often as
		// not (CI drew seed 406206569 without it). diagnose's
		// TestNewcomerTable asserts it on a fixed recording.
		if !has("hot-row", func(f newcomerFinding) bool { return f.Prefix == demo.NewcomerConfigRow }) {
			t.Logf("%s: no hot-row at %s this run", what, demo.NewcomerConfigRow)
		}
	}
	for _, f := range findings {
		if f.Severity == "info" {
			continue
		}
		if f.Start == "" && f.End == "" {
			t.Errorf("%s: %s is table-wide in a table of three datasets: %s", what, f.Kind, f.Summary)
		}
		onUsers := strings.HasPrefix(f.Start, "user#") || f.Dataset == "user#"
		ofHotUser := (f.Kind == "read-hotspot" && f.Prefix == demo.NewcomerHotUser) ||
			(f.Kind == "hot-row" && strings.HasPrefix(f.Prefix, demo.NewcomerHotUser))
		if onUsers && !ofHotUser {
			t.Errorf("%s: %s %s at %q on user#: %s", what, f.Severity, f.Kind, f.Prefix, f.Summary)
		}
	}
	for _, f := range findings {
		t.Logf("%s: %s %s [%s, %s) prefix %q dataset %q: %s", what, f.Severity, f.Kind, f.Start, f.End, f.Prefix, f.Dataset, f.Summary)
	}
}
