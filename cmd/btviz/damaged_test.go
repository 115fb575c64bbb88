package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/snapshotjson"
)

// smallSnapshot is a snapshot file of a few hundred rows under a handful
// of prefixes, written by the real builder.
func smallSnapshot(t *testing.T, rows int) string {
	t.Helper()
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz", Table: "events",
		Families: []string{"cf"}, Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, Complete: true, ValuesRead: true}}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#"})
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for i := range rows {
		b.Add(&keyspace.Row{Key: fmt.Sprintf("user%d#%06d", i%7, i), Weight: 1,
			Cells: []keyspace.Cell{{Family: "cf", Qualifier: "q", Timestamp: at + int64(i)*60e6, ValueBytes: 100}}})
	}
	path := filepath.Join(t.TempDir(), "events.btviz")
	if err := keyspace.Save(path, b.Snapshot()); err != nil {
		t.Fatal(err)
	}
	return path
}

// damage rewrites a snapshot file with change applied to its JSON.
func damage(t *testing.T, path string, change func(file map[string]any)) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := snapshotjson.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	change(file)
	data, err := snapshotjson.Write(file)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "damaged.btviz")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

var jsonNode = snapshotjson.Object

// noRawControls fails the test if out holds a byte a terminal would act
// on: C0 controls other than newline, DEL, C1 controls in UTF-8, or a
// bidirectional override.
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e || r == 0x2066) {
			t.Errorf("%s holds raw %U at byte %d: %q", what, r, i, out[max(0, i-20):min(len(out), i+20)])
			return
		}
	}
}

// TestDamagedSnapshotsExitTwoNamingTheField: a null child (which used to
// panic every command), a root write histogram at bucket -10^15 (which
// used to hang export and open and make report print "13333% of
// writes"), an escape sequence where the scan mode belongs, and a
// directory: every command that reads snapshots refuses each with exit 2
// and a one-line message naming the field, with no raw control byte.
func TestDamagedSnapshotsExitTwoNamingTheField(t *testing.T) {
	t.Parallel()                 // heavy under -race; runs beside the package's other heavy tests
	good := smallSnapshot(t, 70) // each case reads all of it: small under -race
	cases := []struct {
		name, path, want string
	}{
		{"null child", damage(t, good, func(f map[string]any) {
			root := jsonNode(f, "snapshot", "root")
			root["children"] = append(root["children"].([]any), nil)
		}), "snapshot.root.children[7]: null"},
		{"root histogram at -10^15", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot", "root")["writes"] = map[string]any{"first": -1e15, "counts": []any{1, 2, 3}}
		}), "snapshot.root."},
		{"OSC in the scan mode", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot", "scan")["mode"] = "\x1b]0;TITLE\x07\x1b]52;c;aGk=\x07"
		}), "snapshot.scan.mode"},
		{"negative rows", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot", "root", "children", 2)["rows"] = -10
		}), "snapshot.root.children[2].rows"},
		{"rows estimated at 2^63-1", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot", "scan")["rows_estimated"] = json.Number("9223372036854775807")
		}), "snapshot.scan.rows_estimated"},
		{"interval the wrong way round", damage(t, good, func(f map[string]any) {
			scan := jsonNode(f, "snapshot", "scan")
			scan["rows_estimated_low"], scan["rows_estimated_high"] = 90000, 5
		}), "snapshot.scan.rows_estimated"},
		{"null largest row", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot")["largest"].([]any)[0] = nil
		}), "snapshot.largest[0]: null"},
		// Over the 64 KiB a file's key may hold (internal/keyspace/limits.go).
		{"100 kB key", damage(t, good, func(f map[string]any) {
			jsonNode(f, "snapshot", "largest", 0)["key"] = strings.Repeat("k", 100<<10)
		}), "snapshot.largest[0].key"},
		{"directory", t.TempDir(), "is a directory"},
	}
	for _, tc := range cases {
		for _, args := range [][]string{
			{"report", "--snapshot", tc.path},
			{"report", "--snapshot", tc.path, "--format", "json"},
			{"export", "--snapshot", tc.path, "--out", filepath.Join(t.TempDir(), "x.txt")},
			{"diff", good, tc.path},
			{"open", tc.path},
		} {
			r := runBtviz(t, nil, args...)
			r.requireExit(t, exitUsage, tc.want)
			if strings.Contains(r.stderr, "panic") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Errorf("%s: btviz %s: not one line: %s", tc.name, args[0], r.stderr)
			}
			noRawControls(t, tc.name+": btviz "+args[0], r.stderr+r.stdout)
		}
	}
}

// TestPanicIsAnInternalErrorExitSeventy: a panic that reaches the
// command boundary is one line that names where it happened and asks for
// a report, with exit 70, not a stack trace.
func TestPanicIsAnInternalErrorExitSeventy(t *testing.T) {
	var stdout, stderr bytes.Buffer
	a := &app{stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	var nilMap map[string]int
	root := &cobra.Command{Use: "btviz", RunE: func(*cobra.Command, []string) error {
		nilMap["\x1b]0;x\x07"] = 1
		return nil
	}}
	code := a.execute(t.Context(), root, nil)
	if code != exitInternal {
		t.Fatalf("exit %d, want %d", code, exitInternal)
	}
	line := stderr.String()
	for _, want := range []string{"btviz: internal error: assignment to entry in nil map", "(at cmd/btviz.TestPanicIsAnInternalErrorExitSeventy", "please report it", bug.IssuesURL} {
		if !strings.Contains(line, want) {
			t.Errorf("stderr lacks %q: %s", want, line)
		}
	}
	if strings.Count(line, "\n") != 1 || strings.Contains(line, "goroutine") {
		t.Errorf("not one line: %q", line)
	}
	noRawControls(t, "the internal error", line)
}

// TestBugBehindAnotherErrorIsExitSeventy: a panic recovered in a scan's
// or a recording's goroutine comes back inside other errors — a scan
// that stopped part-way (exit 3 otherwise), a recording that also failed
// to write — and is still exit 70.
func TestBugBehindAnotherErrorIsExitSeventy(t *testing.T) {
	crash := &bug.Error{Value: "x", Site: "sampler.(*worker).add:1"}
	for _, err := range []error{
		crash,
		partialError(fmt.Errorf("%w: table \"t\": reading range [a, b): %w", sampler.ErrIncomplete, crash)),
		errors.Join(usageErrorf("writing the recording: disk full"), fmt.Errorf("serving: %w", crash)),
	} {
		if code := exitCode(err); code != exitInternal {
			t.Errorf("exit %d for %v, want %d", code, err, exitInternal)
		}
	}
}

// TestSignalBehindAnotherErrorIsItsCode: a scan that a signal stopped
// returns an incomplete scan's error with the signal as its cause: exit
// 130 or 143, not 3; a bug still wins.
func TestSignalBehindAnotherErrorIsItsCode(t *testing.T) {
	stop := interrupted{syscall.SIGTERM}
	partial := partialError(fmt.Errorf("%w: table \"t\": cancelled after 3 of 9 ranges: %w", sampler.ErrIncomplete, stop))
	if code := exitCode(partial); code != 143 {
		t.Errorf("exit %d, want 143", code)
	}
	if code := exitCode(errors.Join(partial, &bug.Error{Value: "x"})); code != exitInternal {
		t.Errorf("exit %d, want %d", code, exitInternal)
	}
}

// TestSnapshotLimitIsSetByTheEnvironment: BTVIZ_MAX_SNAPSHOT_MB lowers
// and raises the decompressed size a snapshot may have.
func TestSnapshotLimitIsSetByTheEnvironment(t *testing.T) {
	path := smallSnapshot(t, 20000) // over 1 MB decompressed
	r := runBtviz(t, map[string]string{maxSnapshotEnv: "1"}, "report", "--snapshot", path)
	r.requireExit(t, exitUsage, "more than 1 MB", maxSnapshotEnv)
	runBtviz(t, map[string]string{maxSnapshotEnv: "4096"}, "report", "--snapshot", path).requireExit(t, exitOK)
	runBtviz(t, map[string]string{maxSnapshotEnv: "lots"}, "report", "--snapshot", smallSnapshot(t, 10)).requireExit(t, exitUsage, "whole number of MB")
}

// TestWhatIfOnAnEmptyTableSaysThereIsNothingToTransform, rather than
// advising to scan again.
func TestWhatIfOnAnEmptyTableSaysThereIsNothingToTransform(t *testing.T) {
	r := runBtviz(t, nil, "report", "--snapshot", smallSnapshot(t, 0), "--what-if", "salt(4)")
	r.requireExit(t, exitUsage, "found no rows, so there is nothing to transform")
	if strings.Contains(r.stderr, "scan the table again") {
		t.Errorf("advises a rescan: %s", r.stderr)
	}
}

// TestScreenshotDirIsAFlag: the interactive commands take the directory
// the s key writes to, and refuse one that does not exist before they
// start.
func TestScreenshotDirIsAFlag(t *testing.T) {
	path := smallSnapshot(t, 10)
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	runBtviz(t, nil, "open", path, "--screenshot-dir", missing).requireExit(t, exitUsage, "--screenshot-dir", "name an existing directory")
	runBtviz(t, nil, "--screenshot-dir", path).requireExit(t, exitUsage, "is a file")
	// An existing directory gets as far as needing a terminal.
	runBtviz(t, nil, "open", path, "--screenshot-dir", t.TempDir()).requireExit(t, exitUsage, "needs a terminal")
	// The live view of a recording takes it too (its screenshot error
	// advised a flag record did not have); it goes with --tui.
	out := filepath.Join(t.TempDir(), "traffic.btviz")
	runBtviz(t, nil, "record", "--tui", "--upstream", "localhost:1", "--out", out, "--screenshot-dir", missing).requireExit(t, exitUsage, "--screenshot-dir", "name an existing directory")
	runBtviz(t, nil, "record", "--tui", "--upstream", "localhost:1", "--out", out, "--screenshot-dir", t.TempDir()).requireExit(t, exitUsage, "needs a terminal")
	runBtviz(t, nil, "record", "--upstream", "localhost:1", "--out", out, "--screenshot-dir", t.TempDir()).requireExit(t, exitUsage, "goes with --tui")
}

// TestErrorsNeverWriteRawControls: an error quoting a hostile file name
// reaches the terminal escaped.
func TestErrorsNeverWriteRawControls(t *testing.T) {
	name := filepath.Join(t.TempDir(), "\x1b]0;TITLE\x07\u202eevil\x9b.btviz")
	r := runBtviz(t, nil, "report", "--snapshot", name)
	r.requireExit(t, exitUsage, `\x1b]0;TITLE\x07`)
	noRawControls(t, "the error", r.stderr)
}
