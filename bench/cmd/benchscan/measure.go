package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/btviz/btviz/bench/internal/benchproc"
	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
)

// result is one measurement, as measure prints it.
type result struct {
	How      string  `json:"how"`
	Table    string  `json:"table"`
	Fraction float64 `json:"fraction"`
	Method   string  `json:"method,omitempty"`
	Rows     int64   `json:"rows"`  // rows read; of -how keys, SampleRowKeys's answers
	Cells    int64   `json:"cells"` // cells read
	Calls    int     `json:"calls"` // ReadRows calls of the bare loop; of -how keys, the one call
	// Concurrency is the number of reads in flight.
	Concurrency int     `json:"concurrency"`
	Seconds     float64 `json:"seconds"` // wall time of the scan, SampleRowKeys included
	// PeakHeap is the peak of HeapInuse (live and not yet collected heap
	// objects, plus free space in in-use spans), sampled every 10 ms;
	// PeakRSS the process's VmHWM; LiveHeap the heap still live after a
	// forced GC once the scan has returned (its snapshot included).
	PeakHeap uint64 `json:"peak_heap"`
	PeakRSS  uint64 `json:"peak_rss"`
	LiveHeap uint64 `json:"live_heap"`
	// Shares maps each top-level prefix to its share of rows.
	Shares map[string]float64 `json:"shares,omitempty"`
	// RowsEstimated and its 95% interval [RowsLow, RowsHigh].
	RowsEstimated int64 `json:"rows_estimated"`
	RowsLow       int64 `json:"rows_low"`
	RowsHigh      int64 `json:"rows_high"`
	// ServerRows and ServerCalls are the rows and ReadRows calls the
	// emulator counted (a Cloud-like emulator only; see serve -tablets).
	ServerRows  int64 `json:"server_rows"`
	ServerCalls int64 `json:"server_calls"`
}

// measure runs one scan in this process and prints its result.
//
// Diagnostics, by environment variable: BENCHSCAN_CPUPROFILE=FILE writes
// a CPU profile of the scan; BENCHSCAN_HEAPPROFILE=DIR writes heap
// profiles (inuse_space, as of the last GC) as
// DIR/<table>-<how>-<when>.pb.gz: "peak" each time HeapInuse reaches a
// new peak (at most twice a second), "end" when the scan returns, and
// "live" after a forced GC.
func measure(args []string) error {
	flags := flag.NewFlagSet("measure", flag.ContinueOnError)
	emulator := flags.String("emulator", "", "emulator host:port")
	table := flags.String("table", "bench1m", "table to scan")
	how := flags.String("how", "full", "bare (a plain ReadRows loop over the sampler's reads), full, sample, or keys (one SampleRowKeys call alone, the walk every scan starts with)")
	fraction := flags.Float64("fraction", 0.05, "sample fraction for -how sample")
	concurrency := flags.Int("concurrency", 0, "reads in flight (0: the sampler's default)")
	seed := flags.Uint64("seed", 0, "the sample's seed")
	if err := flags.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: *emulator})
	if err != nil {
		return err
	}
	defer conn.Close()
	stopProfile, err := benchproc.StartCPUProfile("BENCHSCAN_CPUPROFILE")
	if err != nil {
		return err
	}
	defer stopProfile()
	runtime.GC()
	peak := watchHeap(func() {
		if err := writeHeapProfile(*table, *how, "peak"); err != nil {
			fmt.Fprintln(os.Stderr, "benchscan: heap profile:", err)
		}
	})
	res := result{How: *how, Table: *table}
	var snap *keyspace.Snapshot
	start := time.Now()
	switch *how {
	case "bare":
		err = bareScan(ctx, conn, *table, *concurrency, &res)
	case "keys":
		err = sampleRowKeysAlone(ctx, conn, *table, &res)
	case "full", "sample":
		opts := sampler.Options{Full: true, Concurrency: *concurrency}
		if *how == "sample" {
			opts = sampler.Options{Fraction: *fraction, Concurrency: *concurrency, Seed: *seed}
		}
		snap, err = sampler.Scan(ctx, conn, *table, opts)
		if err == nil {
			res.Rows, res.Cells, res.Fraction = snap.Scan.RowsRead, snap.Scan.CellsRead, snap.Scan.Fraction
			res.Method, res.Shares = string(snap.Scan.Method), topLevelShares(snap)
			res.Concurrency = snap.Scan.Concurrency
			res.RowsEstimated, res.RowsLow, res.RowsHigh = snap.Scan.RowsEstimated, snap.Scan.RowsEstimatedLow, snap.Scan.RowsEstimatedHigh
		}
	default:
		err = fmt.Errorf("-how %q: want bare, full, sample or keys", *how)
	}
	res.Seconds = time.Since(start).Seconds()
	res.PeakHeap = peak()
	if err != nil {
		return err
	}
	if err := writeHeapProfile(*table, *how, "end"); err != nil {
		return err
	}
	runtime.GC()
	res.LiveHeap = liveHeap()
	if err := writeHeapProfile(*table, *how, "live"); err != nil {
		return err
	}
	runtime.KeepAlive(snap)
	res.PeakRSS = peakRSS()
	return json.NewEncoder(os.Stdout).Encode(res)
}

// sampleRowKeysAlone times the SampleRowKeys call every scan starts
// with, alone: on the emulator a walk of the whole table, which bounds
// how much faster than a full scan a sample can be. Rows counts the
// answers, Calls the one call.
func sampleRowKeysAlone(ctx context.Context, conn *connect.Conn, table string, res *result) error {
	stream, err := conn.Data.SampleRowKeys(ctx, &btpb.SampleRowKeysRequest{TableName: conn.TableName(table), AppProfileId: conn.Target.AppProfile})
	if err != nil {
		return err
	}
	res.Calls = 1
	for {
		if _, err := stream.Recv(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		res.Rows++
	}
}

// bareScan is the baseline: the official client's ReadRows over exactly
// the calls a full scan of the sampler makes (sampler.PlanReads: the same
// SampleRowKeys split, the same filter, none, and the same number of
// calls in flight), touching every cell's value and doing nothing else.
// Its time includes SampleRowKeys, as the sampler's does.
func bareScan(ctx context.Context, conn *connect.Conn, table string, concurrency int, res *result) error {
	plan, err := sampler.PlanReads(ctx, conn, table, sampler.Options{Full: true, Concurrency: concurrency})
	if err != nil {
		return err
	}
	tbl := conn.Client.Open(table)
	calls := make(chan sampler.ReadCall, len(plan.Calls))
	for _, call := range plan.Calls {
		calls <- call
	}
	close(calls)
	var (
		rows, cells, valueBytes atomic.Int64
		wg                      sync.WaitGroup
		mu                      sync.Mutex
		firstErr                error
	)
	for range min(plan.Concurrency, len(plan.Calls)) {
		wg.Go(func() {
			for call := range calls {
				var n, c, v int64
				err := tbl.ReadRows(ctx, call.Rows, func(row bigtable.Row) bool {
					n++
					for _, items := range row {
						for _, item := range items {
							c++
							v += int64(len(item.Value))
						}
					}
					return true
				}, call.Options...)
				rows.Add(n)
				cells.Add(c)
				valueBytes.Add(v)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	res.Rows, res.Cells, res.Calls, res.Concurrency = rows.Load(), cells.Load(), len(plan.Calls), plan.Concurrency
	res.Fraction = 1
	return firstErr
}

// topLevelShares returns each first-level prefix's share of the rows.
func topLevelShares(snap *keyspace.Snapshot) map[string]float64 {
	shares := make(map[string]float64)
	total := snap.Totals().Rows
	for _, child := range snap.Root.Children {
		shares[strings.TrimSuffix(child.Prefix.String(), "#")] = child.Rows / total
	}
	return shares
}

// heapInUse reads MemStats.HeapInuse (heap objects, live or not yet
// collected, plus the free space of in-use spans) without stopping the
// world.
func heapInUse(samples []metrics.Sample) uint64 {
	metrics.Read(samples)
	return samples[0].Value.Uint64() + samples[1].Value.Uint64()
}

// writeHeapProfile writes the heap profile named by table, how and when
// into $BENCHSCAN_HEAPPROFILE, if set.
func writeHeapProfile(table, how, when string) error {
	dir := os.Getenv("BENCHSCAN_HEAPPROFILE")
	if dir == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%s-%s.pb.gz", table, how, when)))
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("heap").WriteTo(f, 0)
}

// peakProfileInterval spaces the heap profiles written at new peaks.
const peakProfileInterval = 500 * time.Millisecond

// watchHeap samples HeapInuse every 10 ms until the returned function is
// called, which returns the peak. atPeak, if set, is called at a new peak
// at most every peakProfileInterval.
func watchHeap(atPeak func()) func() uint64 {
	var (
		mu   sync.Mutex
		peak uint64
	)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(10 * time.Millisecond)
		defer ticker.Stop()
		samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
		var profiled time.Time
		for {
			inUse := heapInUse(samples)
			mu.Lock()
			newPeak := inUse > peak
			peak = max(peak, inUse)
			mu.Unlock()
			if newPeak && atPeak != nil && time.Since(profiled) >= peakProfileInterval {
				profiled = time.Now()
				atPeak()
			}
			select {
			case <-done:
				return
			case <-ticker.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// liveHeap returns the bytes of live heap objects as of the last GC.
func liveHeap() uint64 {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	return samples[0].Value.Uint64()
}

// peakRSS returns the process's peak resident set size (VmHWM).
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if rest, ok := strings.CutPrefix(scanner.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
