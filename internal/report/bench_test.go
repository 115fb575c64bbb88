//go:build unix

// The benchmark reports CPU time from getrusage beside the wall time: on
// a machine shared with other work, wall time swings with the load
// while the CPU a report takes does not.

package report

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// BenchmarkReport_100k is what `btviz report` costs on a 100,000-row
// table once the scan has read its rows: <table>/report builds the
// snapshot, diagnoses it and writes the text report; <table>/diagnose is
// Diagnose alone, on a snapshot built once. Each reports cpu-ns/op, the
// process's user and system CPU time per report (the garbage collector's
// too), beside the wall time. Its tables: greetings, keyed
// greeting1 … greeting100000 and written in order (no delimiter, so every
// key is cut into a word and a number; three findings to raise), and
// events, keyed user#<handle>#<millis> for 2,000 users of
// Zipf-distributed activity (the delimited shape most tables have).
//
// The requirement is at most 1.2× the cost before the diagnostics of key
// forms without delimiters (commit 7ef64cf). That code is not in this
// tree: `bench/run.sh report` builds this benchmark at both revisions and
// runs them in interleaved rounds; the README gives its figures. The file
// uses only what both revisions have, so that it compiles at both; the
// report itself is made by benchReport, which each revision has in its
// own way (bench_report_test.go here, written by bench/run.sh for the
// base).
func BenchmarkReport_100k(b *testing.B) {
	for _, table := range []struct {
		name string
		rows []keyspace.Row
	}{{"greetings", greetingRows(100_000)}, {"events", eventRows(100_000)}} {
		b.Run(table.name+"/report", func(b *testing.B) {
			started := processCPU(b)
			for b.Loop() {
				snap := benchSnapshot(table.name, table.rows)
				if benchReport(snap) == 0 {
					b.Fatal("an empty report")
				}
			}
			b.ReportMetric(float64(processCPU(b)-started)/float64(b.N), "cpu-ns/op")
		})
		b.Run(table.name+"/diagnose", func(b *testing.B) {
			snap := benchSnapshot(table.name, table.rows)
			started := processCPU(b)
			for b.Loop() {
				diagnose.Diagnose(snap)
			}
			b.ReportMetric(float64(processCPU(b)-started)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU returns the user and system CPU time the process has taken,
// in nanoseconds.
func processCPU(b *testing.B) int64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		b.Fatalf("reading the CPU time taken: %v", err)
	}
	return usage.Utime.Nano() + usage.Stime.Nano()
}

// benchSnapshot builds the snapshot of a full scan of rows.
func benchSnapshot(table string, rows []keyspace.Row) *keyspace.Snapshot {
	builder := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz",
		Table: table, Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
		keyspace.Options{Seed: 1})
	for i := range rows {
		builder.Add(&rows[i])
	}
	return builder.Snapshot()
}

// benchWindow is when the benchmark tables' rows are written: the 30
// days before a fixed day.
var benchWindow = [2]time.Time{time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)}

// benchCell is one cell of about a profile's size written at at.
func benchCell(at time.Time, valueBytes int) keyspace.Cell {
	return keyspace.Cell{Family: "f", Qualifier: "json", Timestamp: at.UnixMicro(), ValueBytes: int64(valueBytes)}
}

// greetingRows returns rows greeting1 … greeting<n>, each written later
// than the one before, in key order as a scan returns them.
func greetingRows(n int) []keyspace.Row {
	r := rand.New(rand.NewPCG(1, 2))
	step := benchWindow[1].Sub(benchWindow[0]) / time.Duration(n)
	rows := make([]keyspace.Row, n)
	for i := range rows {
		at := benchWindow[0].Add(time.Duration(i) * step)
		rows[i] = keyspace.Row{Key: fmt.Sprintf("greeting%d", i+1), Weight: 1, Cells: []keyspace.Cell{benchCell(at, 80+r.IntN(60))}}
	}
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	return rows
}

// eventRows returns n rows user#<handle>#<13-digit millis> of 2,000 users,
// a Zipf-distributed few of them far more active, at random times, in
// key order.
func eventRows(n int) []keyspace.Row {
	r := rand.New(rand.NewPCG(3, 4))
	users := rand.NewZipf(r, 1.1, 4, 1_999)
	span := benchWindow[1].Sub(benchWindow[0]).Milliseconds()
	seen := make(map[string]bool, n)
	rows := make([]keyspace.Row, 0, n)
	for len(rows) < n {
		at := benchWindow[0].Add(time.Duration(r.Int64N(span)) * time.Millisecond)
		key := fmt.Sprintf("user#u%05d#%013d", users.Uint64(), at.UnixMilli())
		if seen[key] {
			continue
		}
		seen[key] = true
		rows = append(rows, keyspace.Row{Key: key, Weight: 1, Cells: []keyspace.Cell{benchCell(at, 60+r.IntN(80))}})
	}
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	return rows
}
