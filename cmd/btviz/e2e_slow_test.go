//go:build slow

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
	"github.com/btviz/btviz/internal/testkit/race"
)

// The end-to-end tests run the real btviz binary against the official
// emulator binary (cbtemulator, built from cloud.google.com/go/bigtable),
// as a user would. CI builds both once per run and names them in
// $BTVIZ_TEST_BTVIZ and $BTVIZ_TEST_CBTEMULATOR; without those, the tests
// build them once per test run.

// btvizBinaryEnv names the environment variable that gives a btviz binary
// built beforehand (CI builds it with -race).
const btvizBinaryEnv = "BTVIZ_TEST_BTVIZ"

var binaries struct {
	once                       sync.Once
	dir, btviz, emulatorBinary string
	err                        error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if seeded.emulator != nil {
		seeded.emulator.Stop()
	}
	if binaries.dir != "" {
		os.RemoveAll(binaries.dir)
	}
	os.Exit(code)
}

// buildBinaries returns btviz and the official emulator: the binaries the
// environment names, or ones built once per test run (btviz with -race when
// the tests run with it).
func buildBinaries(t *testing.T) (btviz, emulatorBinary string) {
	t.Helper()
	emulatorBinary = cbtemulator.Binary(t)
	binaries.once.Do(func() {
		binaries.dir, binaries.err = os.MkdirTemp("", "btviz-e2e-")
		if binaries.err != nil {
			return
		}
		if binaries.btviz = os.Getenv(btvizBinaryEnv); binaries.btviz != "" {
			return
		}
		binaries.btviz = filepath.Join(binaries.dir, "btviz")
		binaries.err = goBuild(binaries.btviz)
	})
	if binaries.err != nil {
		t.Fatal(binaries.err)
	}
	return binaries.btviz, emulatorBinary
}

// goBuild builds ./cmd/btviz into out with tags, under -race when the tests
// run under it.
func goBuild(out string, tags ...string) error {
	args := []string{"build", "-o", out}
	if race.Enabled {
		args = append(args, "-race")
	}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	if output, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		return fmt.Errorf("go %s ./cmd/btviz: %v\n%s", strings.Join(args, " "), err, output)
	}
	return nil
}

// btvizCommand prepares the btviz binary with the emulator at host.
func btvizCommand(t *testing.T, host string, args ...string) *exec.Cmd {
	t.Helper()
	btviz, _ := buildBinaries(t)
	cmd := exec.Command(btviz, args...)
	cmd.Env = append(os.Environ(), connect.EmulatorHostEnv+"="+host, "HOME="+t.TempDir(), "NO_COLOR=1")
	return cmd
}

// officialSeededWith starts an official emulator for one test and loads
// it with scenarios (comma-separated) by `btviz seed`: for tests that
// write, or that need tables of their own.
func officialSeededWith(t *testing.T, scenarios string) string {
	t.Helper()
	host := officialEmulator(t)
	if out, err := btvizCommand(t, host, "seed", "--scenario", scenarios).CombinedOutput(); err != nil {
		t.Fatalf("btviz seed --scenario %s: %v\n%s", scenarios, err, out)
	}
	return host
}

// seededOfficialEmulator is one official emulator loaded with every demo
// scenario by `btviz seed`, shared by the tests that only read it.
var seeded struct {
	once     sync.Once
	emulator *cbtemulator.Process // stopped by TestMain
	host     string
	took     time.Duration
	err      error
}

func seededOfficial(t *testing.T) string {
	t.Helper()
	buildBinaries(t)
	seeded.once.Do(func() {
		// This emulator outlives the test that starts it: TestMain stops it.
		_, binary := buildBinaries(t)
		if seeded.emulator, seeded.err = cbtemulator.Run(binary); seeded.err != nil {
			return
		}
		seeded.host = seeded.emulator.Addr
		start := time.Now()
		out, err := btvizCommand(t, seeded.host, "seed", "--scenario", "all").CombinedOutput()
		seeded.took = time.Since(start)
		if err != nil {
			seeded.err = fmt.Errorf("btviz seed --scenario all: %v\n%s", err, out)
		}
	})
	if seeded.err != nil {
		t.Fatal(seeded.err)
	}
	return seeded.host
}

// checkScenarioTables reads every scenario's table back with the official
// client and checks families, exact row counts and the timestamp window.
func checkScenarioTables(t *testing.T, host string, scenarios []demo.Scenario) {
	t.Helper()
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, host, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	tables, err := admin.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenarios {
		if !slices.Contains(tables, sc.Name) {
			t.Errorf("table %s missing; have %v", sc.Name, tables)
			continue
		}
		info, err := admin.TableInfo(ctx, sc.Name)
		if err != nil {
			t.Fatal(err)
		}
		families := slices.Sorted(slices.Values(info.Families))
		if !slices.Equal(families, sc.Families) {
			t.Errorf("%s: families %v, want %v", sc.Name, families, sc.Families)
		}
		rows := 0
		var outside []string
		err = client.Open(sc.Name).ReadRows(ctx, bigtable.InfiniteRange(""), func(row bigtable.Row) bool {
			rows++
			for _, items := range row {
				for _, item := range items {
					at := item.Timestamp.Time()
					if at.Before(sc.TimeStart) || !at.Before(sc.TimeEnd) {
						outside = append(outside, at.String())
					}
				}
			}
			return true
		}, bigtable.RowFilter(bigtable.StripValueFilter()))
		if err != nil {
			t.Fatalf("reading %s: %v", sc.Name, err)
		}
		if rows != sc.Rows {
			t.Errorf("%s: %d rows, want %d", sc.Name, rows, sc.Rows)
		}
		if len(outside) > 0 {
			t.Errorf("%s: %d cells outside [%v, %v), e.g. %s", sc.Name, len(outside), sc.TimeStart, sc.TimeEnd, outside[0])
		}
	}
}

func TestE2ESeedIntoTheOfficialEmulator(t *testing.T) {
	host := seededOfficial(t)
	t.Logf("btviz seed --scenario all into cbtemulator took %v", seeded.took)
	checkScenarioTables(t, host, demo.Scenarios())
}

func TestE2EEmulatorCommandServesTheScenarios(t *testing.T) {
	t.Parallel() // long, and needs nothing another test writes: runs beside the other such tests
	port := freePort(t)
	cmd := btvizCommand(t, "", "emulator", "--port", fmt.Sprint(port), "--seed", "all")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	want := fmt.Sprintf("export BIGTABLE_EMULATOR_HOST=127.0.0.1:%d", port)
	lines := bufio.NewScanner(stdout)
	found := false
	for lines.Scan() {
		if strings.Contains(lines.Text(), want) {
			found = true
			break
		}
	}
	if !found {
		t.Fatalf("btviz emulator never printed %q; stderr:\n%s", want, stderr.String())
	}
	go func() {
		for lines.Scan() {
		}
	}()
	checkScenarioTables(t, fmt.Sprintf("127.0.0.1:%d", port), demo.Scenarios())
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("btviz emulator did not stop cleanly on Ctrl+C: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "emulator stopped") {
		t.Errorf("stderr lacks the stop message:\n%s", stderr.String())
	}
}

// reportJSON is the part of `btviz report --format json` the tests read.
type reportJSON struct {
	Scan struct {
		Mode          string `json:"mode"`
		RowsRead      int64  `json:"rows_read"`
		RowsEstimated int64  `json:"rows_estimated"`
		Complete      bool   `json:"complete"`
	} `json:"scan"`
	Findings []struct {
		Kind     string `json:"kind"`
		Severity string `json:"severity"`
		Start    string `json:"start"`
		Prefix   string `json:"prefix"`
	} `json:"findings"`
}

func TestE2EReportFindsEachScenarioDesign(t *testing.T) {
	host := seededOfficial(t)
	for _, sc := range demo.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			out, err := btvizCommand(t, host, "report", "--table", sc.Name, "--format", "json").Output()
			if err != nil {
				t.Fatalf("btviz report: %v", err)
			}
			var doc reportJSON
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatalf("report is not JSON: %v", err)
			}
			// The demo tables are small, so the default mode reads them in
			// full: the counts must be exact.
			if doc.Scan.Mode != "full" || !doc.Scan.Complete || doc.Scan.RowsRead != int64(sc.Rows) || doc.Scan.RowsEstimated != int64(sc.Rows) {
				t.Errorf("scan %+v, want a complete full scan of exactly %d rows", doc.Scan, sc.Rows)
			}
			raised := map[string]bool{}
			for _, f := range doc.Findings {
				if f.Severity == "warning" || f.Severity == "error" {
					raised[f.Kind] = true
				}
			}
			got := slices.Sorted(func(yield func(string) bool) {
				for kind := range raised {
					if !yield(kind) {
						return
					}
				}
			})
			want := slices.Sorted(slices.Values(sc.Expect))
			if !slices.Equal(got, want) {
				t.Fatalf("warnings and errors %v, want exactly %v (good design: %v)", got, want, sc.Good)
			}
			for _, loc := range sc.Locations {
				located := false
				for _, f := range doc.Findings {
					if f.Kind != loc.Kind {
						continue
					}
					key := keyspace.Printable(loc.Key) // the report escapes keys
					if (loc.Row && f.Start == key) || (!loc.Row && f.Prefix == key) {
						located = true
					}
				}
				if !located {
					t.Errorf("%s not located at %q: %+v", loc.Kind, loc.Key, doc.Findings)
				}
			}
		})
	}
}
