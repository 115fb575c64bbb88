package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// memoryResult is one run of `benchproxy memory -ops N`.
type memoryResult struct {
	Ops      int64   `json:"ops"`
	Seconds  float64 `json:"seconds"`
	PeakHeap uint64  `json:"peak_heap"`
	LiveHeap uint64  `json:"live_heap"`
}

// memoryMaxRatio is issue 11's bound: a recording of 10M operations
// needs at most 1.3 times the memory of one of 1M.
const memoryMaxRatio = 1.3

// memory measures what a traffic recording holds: -ops N operations of
// an application's mix (point reads of Zipf-hot users' rows, short
// scans, single-row and batch writes, a counter) over 200,000 users,
// each with its latency (kept in sketches per node and time bucket),
// through keyspace.RecordingBuilder as the recording proxy's sink feeds
// it, at one operation every 0.1 ms of recording time. Without -ops it
// runs 1M and 10M, each in a fresh process, and prints the comparison.
func memory(args []string) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	ops := fs.Int64("ops", 0, "operations to record (0: run 1M and 10M in processes of their own and compare)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ops > 0 {
		r, err := recordOps(*ops)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(r)
	}
	var results []memoryResult
	for _, n := range []int64{1_000_000, 10_000_000} {
		out, err := exec.Command(os.Args[0], "memory", "-ops", fmt.Sprint(n)).Output()
		if err != nil {
			return fmt.Errorf("recording %d operations: %w", n, err)
		}
		var r memoryResult
		if err := json.Unmarshal(out, &r); err != nil {
			return err
		}
		results = append(results, r)
	}
	fmt.Println("traffic recording memory (keyspace.RecordingBuilder, one process per size):")
	fmt.Println("| operations | time | ns/op | peak heap | live heap after |")
	fmt.Println("|---:|---:|---:|---:|---:|")
	for _, r := range results {
		fmt.Printf("| %s | %.1f s | %.0f | %s | %s |\n", units.Thousands(r.Ops), r.Seconds, r.Seconds*1e9/float64(r.Ops),
			units.Bytes(float64(r.PeakHeap)), units.Bytes(float64(r.LiveHeap)))
	}
	ratio := float64(results[1].PeakHeap) / float64(results[0].PeakHeap)
	verdict := "PASS"
	if ratio > memoryMaxRatio {
		verdict = "FAIL"
	}
	fmt.Printf("%s peak heap, 10M / 1M operations: %.2f× (≤ %.1f×)\n", verdict, ratio, memoryMaxRatio)
	if verdict == "FAIL" {
		return fmt.Errorf("recording memory grows with operations: %.2f×", ratio)
	}
	return nil
}

// memorySamples is how many times recordOps reads the heap during a run,
// whatever its length: the peak is the largest of as many readings at 1M
// operations as at 10M (more readings of the same saw-tooth would find a
// higher one by chance).
const memorySamples = 100

// recordOps feeds n operations of the mix into a recording and measures
// the heap.
func recordOps(n int64) (memoryResult, error) {
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	rec := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start}, keyspace.Options{})
	rng := rand.New(rand.NewPCG(7, 11))
	zipf := rand.NewZipf(rng, 1.2, 1, 199_999)
	var peak uint64
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapAlloc)
	}
	began := time.Now()
	var op keyspace.Op
	batch := make([]keyspace.Key, 0, 10)
	for i := range n {
		user := zipf.Uint64()
		key := keyspace.Key(fmt.Sprintf("user#%06d#post#%04d", user, rng.IntN(1000)))
		op = keyspace.Op{Time: start.Add(time.Duration(i) * 100 * time.Microsecond), Table: "events"}
		switch x := rng.IntN(100); {
		case x < 60:
			op.Method, op.Keys = keyspace.MethodReadRows, []keyspace.Key{key}
			op.RowsRead = []keyspace.RowIO{{Key: key, Bytes: 300}}
		case x < 70:
			prefix := fmt.Sprintf("user#%06d#", user)
			op.Method = keyspace.MethodReadRows
			op.Ranges = []keyspace.KeyRange{{Start: keyspace.Key(prefix), End: keyspace.Key(keyspace.PrefixEnd(prefix))}}
			op.RowsRead, op.CallRows = []keyspace.RowIO{{Key: key, Bytes: 300}}, 1
		case x < 90:
			op.Method, op.Keys = keyspace.MethodMutateRow, []keyspace.Key{key}
			op.RowsWritten = []keyspace.RowIO{{Key: key, Bytes: 120}}
		case x < 98:
			batch = batch[:0]
			op.Method = keyspace.MethodMutateRows
			for range 10 {
				k := keyspace.Key(fmt.Sprintf("user#%06d#post#%04d", zipf.Uint64(), rng.IntN(1000)))
				batch = append(batch, k)
				op.RowsWritten = append(op.RowsWritten, keyspace.RowIO{Key: k, Bytes: 120})
			}
			op.Keys = batch
		default:
			op.Method, op.Keys = keyspace.MethodReadModifyWriteRow, []keyspace.Key{"counter#likes"}
			op.RowsWritten = []keyspace.RowIO{{Key: "counter#likes", Bytes: 16}}
		}
		// Each call's latency, as the proxy measures it: log-normal
		// around 400 µs, batches and scans slower.
		op.Latency = time.Duration(400e3 * math.Exp(0.6*rng.NormFloat64()))
		if op.Method == keyspace.MethodMutateRows || len(op.Ranges) > 0 {
			op.Latency *= 3
		}
		rec.Add(&op)
		if i%max(1, n/memorySamples) == 0 {
			sample()
		}
	}
	took := time.Since(began)
	snap := rec.Snapshot("events", start.Add(time.Duration(n)*100*time.Microsecond))
	sample()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if snap == nil || snap.Root.Traffic.Ops < float64(n) {
		return memoryResult{}, fmt.Errorf("the recording holds %v operations of %d", snap.Root.Traffic.Ops, n)
	}
	runtime.KeepAlive(rec)
	return memoryResult{Ops: n, Seconds: took.Seconds(), PeakHeap: peak, LiveHeap: m.HeapAlloc}, nil
}
