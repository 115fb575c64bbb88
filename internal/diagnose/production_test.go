package diagnose

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

var hotFrom = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// samples returns n samples of a tablet at cpu, one every 15 minutes
// (the API keeps one per tablet in 15 minutes) from minute 0.
func samples(cluster, table, start, end string, n int, cpu float64) []keyspace.HotTablet {
	var out []keyspace.HotTablet
	for i := range n {
		at := hotFrom.Add(time.Duration(15*i) * time.Minute)
		out = append(out, keyspace.HotTablet{Cluster: cluster, Table: table, StartKey: keyspace.Key(start), EndKey: keyspace.Key(end),
			Start: at, End: at.Add(time.Minute), CPU: cpu})
	}
	return out
}

// plantedHotTablets are the hot tablets of the tests: a hot range, a hot
// one-row tablet, a short burst, and background tablets below the
// thresholds.
func plantedHotTablets(table string, simulated bool) *keyspace.HotTablets {
	var tablets []keyspace.HotTablet
	tablets = append(tablets, samples("c1", table, "user#mila_rosewood#", "user#mila_rosewood#\xff", 8, 82)...)
	tablets = append(tablets, samples("c1", table, "user#alice_andersen#p000001#", "user#alice_andersen#p000001#\x00", 6, 61)...)
	tablets = append(tablets, samples("c1", table, "user#b", "user#c", 2, 95)...) // a burst: two samples
	tablets = append(tablets, samples("c1", table, "", "user#a", 40, 35)...)      // background
	tablets = append(tablets, samples("c2", table, "user#d", "user#m", 30, 12)...)
	source := keyspace.HotTabletsBigtable
	if simulated {
		source = keyspace.HotTabletsSimulated
	}
	return keyspace.NewHotTablets(keyspace.HotTablets{Source: source, Project: "p", Instance: "i", Clusters: []string{"c1", "c2"},
		From: hotFrom, To: hotFrom.Add(24 * time.Hour), Tablets: tablets})
}

func TestHotTabletFindingsNameThePlantedTablets(t *testing.T) {
	scan := scenarioSnapshot(t, "social-celebrity")
	for _, joined := range []bool{true, false} {
		t.Run(fmt.Sprint("joined=", joined), func(t *testing.T) {
			hot := plantedHotTablets(scan.Table, false)
			snap := keyspace.HotTabletsSnapshot(hot, scan.Table, keyspace.SourceBigtable)
			if joined {
				snap = keyspace.WithHotTablets(scan, hot)
			}
			found := kinds(Diagnose(snap))[KindHotTablet]
			if len(found) != 2 {
				t.Fatalf("%d hot-tablet findings, want the hot range and the hot row: %v", len(found), found)
			}
			var rangeF, rowF Finding
			for _, f := range found {
				if f.Prefix == "user#alice_andersen#p000001#" {
					rowF = f
				} else {
					rangeF = f
				}
			}
			if rangeF.Severity != SeverityError || rangeF.Start != "user#mila_rosewood#" || !strings.Contains(rangeF.Summary, "cluster c1") ||
				!strings.Contains(rangeF.Summary, "82%") || rangeF.Evidence["sustained_cpu"] != 82 || rangeF.Evidence["samples"] != 8 {
				t.Errorf("hot range: %+v", rangeF)
			}
			if rowF.Severity != SeverityWarning || !strings.Contains(rowF.Summary, "one-row tablet of row user#alice_andersen#p000001#") ||
				rowF.Start != "user#alice_andersen#p000001#" || rowF.End != "user#alice_andersen#p000001#\x00\x00" || !strings.Contains(rowF.Advice, "cache") {
				t.Errorf("hot row: %+v", rowF)
			}
			if joined {
				if !strings.Contains(rangeF.Summary, "rows") || rangeF.Evidence["rows"] <= 0 || !strings.Contains(rangeF.Summary, "dataset user#") {
					t.Errorf("joined with the scan, the hot range says what it holds: %s", rangeF.Summary)
				}
			} else if _, ok := rangeF.Evidence["rows"]; ok {
				t.Errorf("without a scan the finding claims rows: %v", rangeF.Evidence)
			}
		})
	}
}

func TestSimulatedHotTabletsSaySo(t *testing.T) {
	snap := keyspace.HotTabletsSnapshot(plantedHotTablets("t", true), "t", keyspace.SourceBigtable)
	for _, f := range kinds(Diagnose(snap))[KindHotTablet] {
		if !strings.HasPrefix(f.Summary, "SIMULATED") || f.Evidence["simulated"] != 1 {
			t.Errorf("a simulated hot tablet's finding does not say so: %s", f.Summary)
		}
	}
}

func TestHighLatencyNamesTheSlowRange(t *testing.T) {
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 3000 {
			user := fmt.Sprintf("user#u%02d", i%30)
			op := read(i*10, user+"#profile")
			op.Latency = time.Duration(800+i%400) * time.Microsecond
			if user == "user#u07" {
				op.Latency = time.Duration(9+i%3) * time.Millisecond // 10 ms against 1 ms
			}
			add(op)
			w := write(i*10, keyspace.MethodMutateRow, user+"#post")
			w.Latency = 30 * time.Millisecond // writes are slow everywhere: not a range apart
			add(w)
		}
	})
	found := kinds(Diagnose(snap))[KindHighLatency]
	if len(found) != 1 {
		t.Fatalf("%d high-latency findings, want user#u07#: %v", len(found), found)
	}
	f := found[0]
	if !strings.HasPrefix(string(f.Prefix), "user#u07#") || !strings.Contains(f.Summary, "point reads") || f.Evidence["ratio"] < 8 || f.Evidence["calls"] != 100 {
		t.Errorf("high-latency: %s %v", f.Summary, f.Evidence)
	}
	if !strings.Contains(f.Summary, units.Latency(time.Duration(f.Evidence["median_ns"]))) || !strings.Contains(f.Summary, units.Latency(time.Duration(f.Evidence["rest_median_ns"]))) {
		t.Errorf("the summary names both latencies: %s", f.Summary)
	}
}

func TestEvenLatencyRaisesNothing(t *testing.T) {
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 3000 {
			op := read(i*10, fmt.Sprintf("user#u%02d#profile", i%30))
			op.Latency = time.Duration(500+(i*37)%2000) * time.Microsecond
			add(op)
		}
	})
	if found := kinds(Diagnose(snap))[KindHighLatency]; len(found) != 0 {
		t.Errorf("even latencies raised %v", found)
	}
}

// TestHotTabletJoinedWithTheScanSaysWhatItHolds: joined with a full scan,
// a one-row tablet on a row the scan kept (its largest) gives the row's
// size, not "the scan did not find the row" (a reviewer's report said so
// of a row the same report listed first among the largest); a tablet cut
// at a prefix's first and last rows names the prefix, not its first four
// children "and 92 more".
func TestHotTabletJoinedWithTheScanSaysWhatItHolds(t *testing.T) {
	scan := scenarioSnapshot(t, "social-celebrity")
	largest := scan.Largest[0]
	tablets := samples("c1", scan.Table, string(largest.Key), string(largest.Key)+"\x00", 6, 61)
	tablets = append(tablets, samples("c1", scan.Table, "user#mila_rosewood#p000000#", "user#mila_rosewood#p999999#", 8, 82)...)
	hot := keyspace.NewHotTablets(keyspace.HotTablets{Source: keyspace.HotTabletsBigtable, Clusters: []string{"c1"},
		From: hotFrom, To: hotFrom.Add(24 * time.Hour), Tablets: tablets})
	found := kinds(Diagnose(keyspace.WithHotTablets(scan, hot)))[KindHotTablet]
	if len(found) != 2 {
		t.Fatalf("%d hot-tablet findings, want the row and the range: %v", len(found), found)
	}
	for _, f := range found {
		if f.Start == largest.Key {
			if !strings.Contains(f.Summary, units.Bytes(float64(largest.Bytes))) || strings.Contains(f.Summary, "did not find") || f.Evidence["rows"] != 1 {
				t.Errorf("the largest row's tablet: %s %v", f.Summary, f.Evidence)
			}
			continue
		}
		if !strings.Contains(f.Summary, "under user#mila_rosewood#") || strings.Contains(f.Summary, "more") {
			t.Errorf("the celebrity's tablet names her prefix alone: %s", f.Summary)
		}
	}
}

// TestHotTabletsAloneRaiseNoScanNote: a file of hot tablets alone, taken
// through an emulator-mode endpoint, was never scanned: no note about the
// emulator's sampled boundaries.
func TestHotTabletsAloneRaiseNoScanNote(t *testing.T) {
	snap := keyspace.HotTabletsSnapshot(plantedHotTablets("t", false), "t", keyspace.SourceEmulator)
	if notes := kinds(Diagnose(snap))[KindScanNote]; len(notes) != 0 {
		t.Errorf("hot tablets alone raise scan notes: %v", notes)
	}
}
