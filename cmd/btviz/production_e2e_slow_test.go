//go:build slow

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/hottablets"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
	"github.com/btviz/btviz/internal/testkit/hotadmin"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// celebrityTable is the demo table the hot-tablet tests plant on.
const celebrityTable = "social-celebrity"

// plantedHot are the hot tablets of the end-to-end tests, on the demo
// emulator's instance: on cluster c1 a hot range (the celebrity's posts,
// 82% in 8 samples), a hot one-row tablet (row, 61% in 6 samples), the
// table's start at 30% in 40 samples and a burst of 95% in two samples
// (background: neither raises anything), on cluster c2 a range at 12%,
// and another table's hot range. Samples are 15 minutes apart, in the
// last 24 hours.
func plantedHot(row string) (tablets []hotadmin.Tablet, hotRange, oneRow int) {
	now := time.Now().UTC().Truncate(time.Minute)
	add := func(cluster, table, start, end string, n int, cpu float32) int {
		for i := range n {
			at := now.Add(-time.Duration(15*(i+1)) * time.Minute)
			tablets = append(tablets, hotadmin.Tablet{Cluster: cluster, HotTablet: &adminpb.HotTablet{
				Name: "projects/local/instances/btviz/clusters/" + cluster + "/hotTablets/" + fmt.Sprint(len(tablets)), TableName: "projects/local/instances/btviz/tables/" + table,
				StartKey: start, EndKey: end, StartTime: timestamppb.New(at), EndTime: timestamppb.New(at.Add(time.Minute)), NodeCpuUsagePercent: cpu,
			}})
		}
		return n
	}
	hotRange = add("c1", celebrityTable, "user#mila_rosewood#", "user#mila_rosewood#\xff", 8, 82)
	oneRow = add("c1", celebrityTable, row, row+"\x00", 6, 61)
	add("c1", celebrityTable, "", "user#a", 40, 30)
	add("c1", celebrityTable, "user#b", "user#c", 2, 95)
	add("c2", celebrityTable, "user#d", "user#m", 20, 12)
	add("c1", "timeseries-timestamp-first", "1793", "", 10, 90)
	return tablets, hotRange, oneRow
}

// hotRow is a row of the celebrity table that the tests plant a one-row
// hot tablet on: its largest row.
func hotRow(t *testing.T) string {
	return string(demotest.Snapshot(t, celebrityTable).Largest[0].Key)
}

// runJSON runs btviz against host and decodes its stdout into v.
func runJSON(t *testing.T, host string, v any, args ...string) string {
	t.Helper()
	cmd := btvizCommand(t, host, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("btviz %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if v != nil {
		if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
			t.Fatalf("btviz %s: %v\n%s", strings.Join(args, " "), err, stdout.String())
		}
	}
	return stdout.String() + stderr.String()
}

// reportFindings are the findings of a JSON report.
type reportFindings struct {
	Findings []struct {
		Kind, Severity, Start, End, Prefix, Summary string
	} `json:"findings"`
	HotTablets *struct {
		Count     int    `json:"count"`
		Simulated bool   `json:"simulated"`
		None      string `json:"none"`
	} `json:"hot_tablets"`
}

// TestE2EHotTabletsThroughTheAdminAPI puts a gRPC server answering
// ListClusters and ListHotTablets with planted tablets in front of the
// official emulator loaded with the demo tables, points the btviz binary
// at it as at an emulator, and checks that the report's hot-tablet
// findings name the planted hot range and the planted one-row tablet and
// nothing of the background, that `btviz hot-tablets` lists them (text
// and JSON), that export draws the cpu metric, that a saved file of hot
// tablets alone reads back, and that the errors say what to do.
func TestE2EHotTabletsThroughTheAdminAPI(t *testing.T) {
	host := seededOfficial(t)
	row := hotRow(t)
	tablets, hotRange, oneRow := plantedHot(row)
	admin := hotadmin.Start(t, host, hotadmin.Options{Clusters: []string{"c1", "c2"}, Tablets: tablets})

	checkFindings := func(what string, doc reportFindings) {
		t.Helper()
		var found []string
		for _, f := range doc.Findings {
			if f.Kind != "hot-tablet" {
				continue
			}
			found = append(found, f.Start)
			switch f.Start {
			case "user#mila_rosewood#":
				if f.Severity != "error" || !strings.Contains(f.Summary, "cluster c1") || !strings.Contains(f.Summary, "82%") {
					t.Errorf("%s: the hot range: %+v", what, f)
				}
			case row:
				if f.Prefix != row || !strings.Contains(f.Summary, "one-row tablet of row") || f.Severity != "warning" {
					t.Errorf("%s: the one-row tablet: %+v", what, f)
				}
			default:
				t.Errorf("%s: a hot-tablet finding for the background: %+v", what, f)
			}
		}
		if len(found) != 2 {
			t.Errorf("%s: hot-tablet findings at %q, want the planted range and row", what, found)
		}
	}

	var scanned reportFindings
	runJSON(t, admin.Addr, &scanned, "report", "--table", celebrityTable, "--hot-tablets", "24h", "--format", "json")
	checkFindings("report of a scan with --hot-tablets", scanned)
	if h := scanned.HotTablets; h == nil || h.Count != hotRange+oneRow+40+2+20 || h.Simulated {
		t.Errorf("hot_tablets of the report: %+v", h)
	}
	for _, f := range scanned.Findings {
		if f.Kind == "hot-tablet" && f.Start == "user#mila_rosewood#" && !strings.Contains(f.Summary, "rows") {
			t.Errorf("joined with the scan, the hot range does not say what it holds: %s", f.Summary)
		}
	}

	// `btviz hot-tablets`, JSON and text.
	var listed struct {
		Version  int      `json:"version"`
		Count    int      `json:"count"`
		Clusters []string `json:"clusters"`
		Tablets  []struct {
			Cluster  string  `json:"cluster"`
			Table    string  `json:"table"`
			StartKey string  `json:"start_key"`
			EndKey   string  `json:"end_key"`
			OneRow   string  `json:"one_row"`
			CPU      float64 `json:"node_cpu_percent"`
		} `json:"tablets"`
	}
	runJSON(t, admin.Addr, &listed, "hot-tablets", "--format", "json")
	oneRows := 0
	for _, h := range listed.Tablets {
		if h.OneRow == row {
			oneRows++
		}
	}
	if oneRows != oneRow {
		t.Errorf("btviz hot-tablets --format json names the one row in %d samples, want %d", oneRows, oneRow)
	}
	if len(listed.Tablets) != len(tablets) || listed.Count != len(tablets) || len(listed.Clusters) != 2 || listed.Tablets[0].CPU != 95 || listed.Version != 1 {
		t.Errorf("btviz hot-tablets --format json: %d samples of clusters %v, first %+v; want %d", len(listed.Tablets), listed.Clusters, listed.Tablets[0], len(tablets))
	}
	text := runJSON(t, admin.Addr, nil, "hot-tablets", "--table", celebrityTable, "--cluster", "c1")
	for _, want := range []string{"c1", celebrityTable, "row " + row, "[user#mila_rosewood#, user#mila_rosewood#\\xff]", "82%", "61%"} {
		if !strings.Contains(text, want) {
			t.Errorf("btviz hot-tablets lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "c2 ") || strings.Contains(text, "timeseries") {
		t.Errorf("--cluster c1 --table %s lists another cluster's or table's:\n%s", celebrityTable, text)
	}

	// Saved alone, read back: the same findings, on their own key axis.
	dir := t.TempDir()
	hotFile := filepath.Join(dir, "hot.btviz")
	runJSON(t, admin.Addr, nil, "hot-tablets", "--table", celebrityTable, "--out", hotFile)
	var alone reportFindings
	runJSON(t, admin.Addr, &alone, "report", "--snapshot", hotFile, "--format", "json")
	checkFindings("report of the hot tablets alone", alone)
	chart := filepath.Join(dir, "cpu.txt")
	runJSON(t, admin.Addr, nil, "export", "--table", celebrityTable, "--hot-tablets", "24h", "--metric", "cpu", "--out", chart)
	if body, err := os.ReadFile(chart); err != nil || !strings.Contains(string(body), "node CPU % (cluster c1)") || !strings.Contains(string(body), "mila_rosewood") {
		t.Errorf("export --metric cpu: %v\n%s", err, body)
	}

	// Errors that say what to do.
	for _, c := range []struct {
		host string
		args []string
		want []string
	}{
		{host, []string{"report", "--table", celebrityTable, "--hot-tablets", "24h"}, []string{"only Cloud Bigtable has hot tablets", "--traffic"}},
		{admin.Addr, []string{"report", "--table", celebrityTable, "--hot-tablets", "15d"}, []string{"14 days", "14d or less"}},
		{hotadmin.Start(t, host, hotadmin.Options{Clusters: []string{"c1"}, Err: status.Error(codes.PermissionDenied, "denied")}).Addr,
			[]string{"hot-tablets"}, []string{hottablets.Permission, hottablets.PermissionRole}},
		{hotadmin.Start(t, host, hotadmin.Options{Clusters: []string{"c1"}}).Addr,
			[]string{"report", "--table", celebrityTable, "--hot-tablets", "2h"}, []string{"no hot tablets of table \"social-celebrity\""}},
	} {
		cmd := btvizCommand(t, c.host, c.args...)
		out, err := cmd.CombinedOutput()
		for _, want := range c.want {
			if !strings.Contains(string(out), want) {
				t.Errorf("btviz %s (%v) does not say %q:\n%s", strings.Join(c.args, " "), err, want, out)
			}
		}
	}
}

// TestE2ETerminalCPUView runs the btviz binary in tmux on the celebrity
// table with --hot-tablets, the admin server with planted tablets in
// front of the official emulator, and cycles the metric to cpu: the
// heatmap of node CPU names the cluster, the celebrity's range is on
// screen, and the findings list has the hot-tablet finding.
func TestE2ETerminalCPUView(t *testing.T) {
	btviz, _ := buildBinaries(t)
	host := seededOfficial(t)
	tablets, _, _ := plantedHot(hotRow(t))
	admin := hotadmin.Start(t, host, hotadmin.Options{Clusters: []string{"c1", "c2"}, Tablets: tablets})
	term := tuitest.Start(t, tuitest.Options{Width: 180, Height: 50, Dir: t.TempDir(), Env: []string{
		connect.EmulatorHostEnv + "=" + admin.Addr, "HOME=" + t.TempDir(),
	}}, btviz, "--table", celebrityTable, "--hot-tablets", "24h")
	screen := term.WaitFor(t, time.Minute, tuitest.ScanComplete, tuitest.HeatmapTitle)
	cycleMetricTo(t, term, screen, tuitest.CPUHeatmap)
	term.WaitFor(t, 30*time.Second, tuitest.CPUHeatmap+"c1)", tuitest.HotTabletsNote, tuitest.CelebrityBucket, tuitest.HotTabletFinding)
	term.Send("q")
	term.WaitExit(t, 10*time.Second)
}

// TestE2ERecordingNamesTheSlowRange records point reads through `btviz
// record` whose upstream (a server in front of the official emulator)
// holds every read of one key range for 150 ms: the report of the
// recording names that range in high-latency, with both medians.
func TestE2ERecordingNamesTheSlowRange(t *testing.T) {
	emuAddr := ledgerEmulator(t)
	ctx := context.Background()
	const delay = 150 * time.Millisecond
	slowUpstream := hotadmin.Start(t, emuAddr, hotadmin.Options{Delay: func(method string, request []byte) time.Duration {
		var req btpb.ReadRowsRequest
		if !strings.HasSuffix(method, "/ReadRows") || proto.Unmarshal(request, &req) != nil {
			return 0
		}
		for _, k := range req.GetRows().GetRowKeys() {
			if strings.HasPrefix(string(k), "acct#bob#") {
				return delay
			}
		}
		return 0
	}})
	out := filepath.Join(t.TempDir(), "slow.btviz")
	rec := startRecorder(t, slowUpstream.Addr, out)
	client, admin, err := emulator.Dial(ctx, rec.addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	table := client.Open(ledgerTable)
	var wg sync.WaitGroup
	var failed sync.Once
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 960; i += 8 {
				key := fmt.Sprintf("acct#ann#%04d", i%100)
				if i%8 == 0 { // 120 reads of bob's rows, the slow range
					key = fmt.Sprintf("acct#bob#%04d", i%20)
				}
				if _, err := table.ReadRow(ctx, key); err != nil {
					failed.Do(func() { t.Errorf("reading %s through the proxy: %v", key, err) })
				}
			}
		}()
	}
	wg.Wait()
	client.Close()
	rec.ctrlC(t)

	var doc struct {
		reportFindings
		Traffic struct {
			Latency struct {
				Kinds []struct {
					Kind     string `json:"kind"`
					Calls    int64  `json:"calls"`
					MedianNs int64  `json:"median_ns"`
				} `json:"kinds"`
			} `json:"latency"`
		} `json:"traffic"`
	}
	runJSON(t, emuAddr, &doc, "report", "--snapshot", out, "--table", ledgerTable, "--format", "json")
	for _, f := range doc.Findings {
		if f.Kind == "high-latency" && strings.HasPrefix(f.Prefix, "acct#bob#") && strings.Contains(f.Summary, "point reads") && strings.Contains(f.Summary, "ms") {
			t.Logf("%s: %s", f.Prefix, f.Summary)
			if k := doc.Traffic.Latency.Kinds; len(k) != 1 || k[0].Kind != "point-read" || k[0].Calls != 960 {
				t.Errorf("traffic.latency: %+v", k)
			}
			return
		}
	}
	t.Errorf("no high-latency finding names acct#bob#: %+v", doc.Findings)
}

// TestE2EThreeSidecarsMergeToOneRecording runs one workload split over
// three `btviz record` proxies (a service of three instances, a proxy
// beside each), whose upstream is a fourth proxy in front of the official
// emulator, so that the fourth records every call once. The report of the
// three recordings merged must count what the fourth counted: the
// table's operations, rows and bytes, the calls by method, and every
// top-level prefix's operations; and a scan of the table joins the merged
// recording.
func TestE2EThreeSidecarsMergeToOneRecording(t *testing.T) {
	emuAddr := ledgerEmulator(t)
	ctx := context.Background()
	dir := t.TempDir()
	all := startRecorder(t, emuAddr, filepath.Join(dir, "all.btviz"))
	var sidecars []*recorder
	var tables []*bigtable.Table
	for i := range 3 {
		rec := startRecorder(t, all.addr, filepath.Join(dir, fmt.Sprintf("pod-%d.btviz", i)))
		sidecars = append(sidecars, rec)
		client, admin, err := emulator.Dial(ctx, rec.addr, connect.EmulatorProject, connect.EmulatorInstance)
		if err != nil {
			t.Fatal(err)
		}
		admin.Close()
		defer client.Close()
		tables = append(tables, client.Open(ledgerTable))
	}
	for i := range 600 {
		table := tables[i%3]
		var err error
		switch i % 6 {
		case 0, 1:
			_, err = table.ReadRow(ctx, fmt.Sprintf("acct#ann#%04d", i%100))
		case 2:
			err = table.ReadRows(ctx, bigtable.PrefixRange(fmt.Sprintf("acct#ann#00%d", i%8)), func(bigtable.Row) bool { return true }, bigtable.LimitRows(5))
		case 3:
			m := bigtable.NewMutation()
			m.Set(ledgerFamily, ledgerColumn, ledgerTS, []byte("entry"))
			err = table.Apply(ctx, fmt.Sprintf("audit#%05d", 1000+i), m)
		case 4:
			var keys []string
			var muts []*bigtable.Mutation
			for j := range 4 {
				m := bigtable.NewMutation()
				m.Set(ledgerFamily, ledgerColumn, ledgerTS, []byte("bulk"))
				keys, muts = append(keys, fmt.Sprintf("acct#bob#bulk%04d", i*4+j)), append(muts, m)
			}
			var errs []error
			errs, err = table.ApplyBulk(ctx, keys, muts)
			for _, e := range errs {
				err = e
			}
		case 5:
			rmw := bigtable.NewReadModifyWrite()
			rmw.Increment(ledgerCounter, "n", 1)
			_, err = table.ApplyReadModifyWrite(ctx, "counter#likes", rmw)
		}
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	for _, rec := range sidecars {
		rec.ctrlC(t)
	}
	all.ctrlC(t)

	type trafficDoc struct {
		Traffic struct {
			Totals  map[string]int64 `json:"totals"`
			Methods []struct {
				Method        string
				Calls, Errors int64
			} `json:"methods"`
			Prefixes []struct {
				Prefix string `json:"prefix"`
				Depth  int    `json:"depth"`
				Ops    int64  `json:"ops"`
			} `json:"prefixes"`
			Merged *struct {
				Recordings   int   `json:"recordings"`
				ClockOffsets []any `json:"clock_offsets"`
			} `json:"merged"`
		} `json:"traffic"`
	}
	var one, merged trafficDoc
	runJSON(t, emuAddr, &one, "report", "--snapshot", filepath.Join(dir, "all.btviz"), "--table", ledgerTable, "--format", "json")
	args := []string{"report", "--table", ledgerTable, "--format", "json"}
	for i := range 3 {
		args = append(args, "--snapshot", filepath.Join(dir, fmt.Sprintf("pod-%d.btviz", i)))
	}
	runJSON(t, emuAddr, &merged, args...)
	if fmt.Sprint(merged.Traffic.Totals) != fmt.Sprint(one.Traffic.Totals) {
		t.Errorf("merged totals %v, one recorder's %v", merged.Traffic.Totals, one.Traffic.Totals)
		for i := range 3 {
			var pod trafficDoc
			runJSON(t, emuAddr, &pod, "report", "--snapshot", filepath.Join(dir, fmt.Sprintf("pod-%d.btviz", i)), "--table", ledgerTable, "--format", "json")
			t.Logf("pod %d: %v %v", i, pod.Traffic.Totals, pod.Traffic.Methods)
		}
	}
	if fmt.Sprint(merged.Traffic.Methods) != fmt.Sprint(one.Traffic.Methods) {
		t.Errorf("merged methods %v, one recorder's %v", merged.Traffic.Methods, one.Traffic.Methods)
	}
	depth1 := func(d trafficDoc) map[string]int64 {
		out := map[string]int64{}
		for _, p := range d.Traffic.Prefixes {
			if p.Depth == 1 {
				out[p.Prefix] = p.Ops
			}
		}
		return out
	}
	if fmt.Sprint(depth1(merged)) != fmt.Sprint(depth1(one)) {
		t.Errorf("merged operations by top-level prefix %v, one recorder's %v", depth1(merged), depth1(one))
	}
	if m := merged.Traffic.Merged; m == nil || m.Recordings != 3 || len(m.ClockOffsets) != 0 {
		t.Errorf("traffic.merged: %+v, want 3 recordings and no clock offset", m)
	}
	t.Logf("one recorder and three merged: %v; %v", one.Traffic.Totals, depth1(one))

	// A scan of the table joins the merged recording.
	scan := filepath.Join(dir, "ledger-scan.btviz")
	runJSON(t, emuAddr, nil, "scan", "--table", ledgerTable, "--out", scan)
	var joined struct {
		Scan struct {
			RowsRead int64 `json:"rows_read"`
		} `json:"scan"`
		Traffic struct {
			Totals map[string]int64 `json:"totals"`
		} `json:"traffic"`
	}
	runJSON(t, emuAddr, &joined, append(args, "--snapshot", scan)...)
	if joined.Scan.RowsRead == 0 || fmt.Sprint(joined.Traffic.Totals) != fmt.Sprint(one.Traffic.Totals) {
		t.Errorf("the scan joined with the merged recording: %+v", joined)
	}
}

// TestE2ETerminalSimulatedHotTablets runs the hot-counter demo traffic
// in tmux and cycles the live view's metric to cpu: the demo's hot
// tablets, computed from the recorded operations on the emulator's
// Cloud-like tablets, are drawn and labelled simulated, the counter's row
// among them.
func TestE2ETerminalSimulatedHotTablets(t *testing.T) {
	btviz, _ := buildBinaries(t)
	term := tuitest.Start(t, tuitest.Options{Width: 180, Height: 50, Dir: t.TempDir(), Env: []string{
		"BIGTABLE_EMULATOR_HOST=", "HOME=" + t.TempDir(),
	}}, btviz, "--emulator", "--traffic", "hot-counter")
	screen := term.WaitFor(t, time.Minute, tuitest.LiveRecording, tuitest.TrafficHeatmap)
	cycleMetricTo(t, term, screen, tuitest.SimulatedHeatmap)
	term.WaitFor(t, 30*time.Second, tuitest.SimulatedHeatmap, tuitest.SimulatedNote, "SIMULATED · ")
	term.Send("q")
	term.WaitExit(t, 15*time.Second)
}

// cycleMetricTo presses m until the heatmap's title holds want: after
// each press it waits for the title to change before the next, so that
// no press is lost or doubled.
func cycleMetricTo(t *testing.T, term *tuitest.Terminal, screen, want string) {
	t.Helper()
	title := func(s string) string {
		for _, line := range strings.Split(s, "\n") {
			if i := strings.Index(line, "Heatmap · "); i >= 0 {
				return line[i:]
			}
		}
		return ""
	}
	for range 20 {
		if strings.Contains(title(screen), want) {
			return
		}
		before := title(screen)
		term.Send("m")
		screen = term.WaitUntil(t, 30*time.Second, "the next metric", func(s string) bool { return title(s) != before })
	}
	t.Fatalf("no metric's heatmap is %q:\n%s", want, screen)
}

// ledgerEmulator starts the official emulator with the ledger table of
// TestE2ERecordingFileCountsWhatWasSent and returns its address.
func ledgerEmulator(t *testing.T) string {
	t.Helper()
	_, binary := buildBinaries(t)
	emu, err := cbtemulator.Run(binary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emu.Stop)
	seedLedger(t, context.Background(), emu.Addr)
	return emu.Addr
}
