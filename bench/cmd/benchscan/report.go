package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"

	"github.com/btviz/btviz/bench/internal/benchproc"
)

// Pass marks of the benchmark's requirements.
const (
	minThroughputRatio = 0.9 // sampler full scan / bare ReadRows loop, rows per second
	minSampleSpeedup   = 10  // full scan / 5% sample, time
	maxShareErrorPP    = 1.0 // percentage points, any top-level prefix, any sample run
	maxMemoryGrowth    = 1.3 // 5M rows / 500k rows, peak heap and peak RSS
	maxPeakMemory      = 200 << 20
	sampleFraction     = 0.05
)

// report runs every measurement in a fresh process of its own and prints
// the table the README quotes.
func report(args []string) error {
	flags := flag.NewFlagSet("report", flag.ContinueOnError)
	emulator := flags.String("emulator", "", "emulator host:port holding bench1m")
	bigEmulator := flags.String("big-emulator", "", "emulator host:port holding bench500k and bench5m (default: -emulator)")
	control := flags.String("control", "", "host:port of -emulator's /gc control endpoint (see serve), called before each run")
	bigControl := flags.String("big-control", "", "the same for -big-emulator")
	rounds := flags.Int("rounds", 5, "interleaved rounds of bare, full and sample scans of bench1m and a SampleRowKeys call alone; medians count")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *bigEmulator == "" {
		*bigEmulator = *emulator
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	run := func(how, table string) (result, error) {
		addr, controlAddr := *emulator, *control
		if table != "bench1m" {
			addr, controlAddr = *bigEmulator, *bigControl
		}
		if err := benchproc.CollectGarbage(controlAddr); err != nil {
			return result{}, err
		}
		cmd := exec.Command(self, "measure", "-emulator", addr, "-table", table, "-how", how, "-fraction", fmt.Sprint(sampleFraction))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("measuring %s of %s: %w", how, table, err)
		}
		var res result
		return res, json.Unmarshal(out.Bytes(), &res)
	}

	// The 1M-row runs alternate bare, full, sample and keys (the
	// SampleRowKeys walk alone) on one emulator, so that a slow spell of
	// the machine or of the emulator's garbage collector hits all alike.
	runs := map[string][]result{}
	for round := 0; round < *rounds; round++ {
		for _, how := range []string{"bare", "full", "sample", "keys"} {
			res, err := run(how, "bench1m")
			if err != nil {
				return err
			}
			runs[how] = append(runs[how], res)
			unit := "rows"
			if how == "keys" {
				unit = "answers"
			}
			fmt.Fprintf(os.Stderr, "round %d: %-6s %8d %-7s in %6.2fs\n", round+1, how, res.Rows, unit, res.Seconds)
		}
	}
	small, err := run("full", "bench500k")
	if err != nil {
		return err
	}
	large, err := run("full", "bench5m")
	if err != nil {
		return err
	}
	bare, full, sample, keys := median(runs["bare"]), median(runs["full"]), median(runs["sample"]), median(runs["keys"])

	fmt.Printf("\n### btviz sampler benchmark\n\n")
	fmt.Printf("Emulator (bttest) in a process of its own, its garbage collected before every run; %d CPUs, %s.\n", runtime.NumCPU(), runtime.Version())
	fmt.Printf("bench1m: median of %d interleaved rounds (bare, full, sample, keys); bench500k and bench5m: one full scan each, on a\n", *rounds)
	fmt.Printf("second emulator. Every run is a fresh process; times include SampleRowKeys. The bare loop makes exactly the\n")
	fmt.Printf("sampler's full-scan reads (sampler.PlanReads: the same SampleRowKeys split into %d calls, no filter, %d in\n", bare.Calls, bare.Concurrency)
	fmt.Printf("flight, the sampler's default on an emulator) and only touches every cell's value. The throughput check takes\n")
	fmt.Printf("the median of the rounds' ratios, sampler over bare loop, each round's two runs made one after the other.\n\n")
	fmt.Printf("| table | scan | rows read | time | rows/s | peak heap | peak RSS | live heap after GC |\n")
	fmt.Printf("|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range []result{bare, full, sample, small, large} {
		fmt.Printf("| %s | %s | %d | %.2f s | %.0f | %.1f MB | %.1f MB | %.1f MB |\n", r.Table, describe(r), r.Rows, r.Seconds,
			float64(r.Rows)/r.Seconds, mb(r.PeakHeap), mb(r.PeakRSS), mb(r.LiveHeap))
	}

	fmt.Printf("\nSampleRowKeys of bench1m alone, the walk every scan starts with: %.2f s (median; %d answers), %.0f%% of the\n", keys.Seconds, keys.Rows, 100*keys.Seconds/sample.Seconds)
	fmt.Printf("%s sample's time. No scan is faster than it: it bounds full scan / sample at %.1f×.\n", percent(sampleFraction), full.Seconds/keys.Seconds)

	fmt.Printf("\nTop-level prefix shares of rows in bench1m, full scan and each %s sample:\n\n", percent(sampleFraction))
	fmt.Printf("| prefix | full |")
	for i := range runs["sample"] {
		fmt.Printf(" sample %d |", i+1)
	}
	fmt.Printf(" worst error |\n|---|---:|%s---:|\n", strings.Repeat("---:|", len(runs["sample"])))
	worst := 0.0
	for _, p := range prefixes {
		fmt.Printf("| %s | %.2f%% |", p, full.Shares[p]*100)
		prefixWorst := 0.0
		for _, s := range runs["sample"] {
			fmt.Printf(" %.2f%% |", s.Shares[p]*100)
			prefixWorst = max(prefixWorst, math.Abs(s.Shares[p]-full.Shares[p])*100)
		}
		worst = max(worst, prefixWorst)
		fmt.Printf(" %.2f pp |\n", prefixWorst)
	}

	throughput := benchproc.Pair(rowRates(runs["full"]), rowRates(runs["bare"]))
	ratioOfMedians := (float64(full.Rows) / full.Seconds) / (float64(bare.Rows) / bare.Seconds)
	speedup := full.Seconds / sample.Seconds
	pastWalk := benchproc.Pair(pastKeys(runs["full"], runs["keys"]), pastKeys(runs["sample"], runs["keys"]))
	heapGrowth := float64(large.PeakHeap) / float64(small.PeakHeap)
	rssGrowth := float64(large.PeakRSS) / float64(small.PeakRSS)
	checks := []check{
		{throughput.Median >= minThroughputRatio, fmt.Sprintf("full-scan throughput, sampler / bare ReadRows loop, median of the rounds' ratios: %.2f (need ≥ %.2f; ratio of the medians %.2f; rounds %s)",
			throughput.Median, minThroughputRatio, ratioOfMedians, throughput)},
		{speedup >= minSampleSpeedup, fmt.Sprintf("time, full scan / %s sample of 1M rows (medians): %.1f× (need ≥ %d×)", percent(sampleFraction), speedup, minSampleSpeedup)},
		{pastWalk.Median >= minSampleSpeedup, fmt.Sprintf("time each scan runs past the SampleRowKeys walk alone (the sample's reads overlap the walk), full scan / %s sample, median of the rounds' ratios: %.1f× (need ≥ %d×; rounds %s)",
			percent(sampleFraction), pastWalk.Median, minSampleSpeedup, pastWalk)},
		{worst <= maxShareErrorPP, fmt.Sprintf("largest prefix-share error of any sample run: %.2f pp (need ≤ %.0f pp)", worst, maxShareErrorPP)},
		{heapGrowth <= maxMemoryGrowth && rssGrowth <= maxMemoryGrowth, fmt.Sprintf("peak memory, 5M rows / 500k rows: heap %.2f, RSS %.2f (need ≤ %.1f)", heapGrowth, rssGrowth, maxMemoryGrowth)},
		{large.PeakHeap < maxPeakMemory && large.PeakRSS < maxPeakMemory, fmt.Sprintf("peak heap / RSS scanning 5M rows: %.0f MB / %.0f MB (need < %d MB)",
			mb(large.PeakHeap), mb(large.PeakRSS), maxPeakMemory>>20)},
	}
	return printChecks(checks, "")
}

// check is one requirement of a benchmark, met or not.
type check struct {
	ok   bool
	text string
}

// printChecks prints a PASS or FAIL line per check and fails when one
// failed; what names the checks ("Cloud-like ") in the summary.
func printChecks(checks []check, what string) error {
	fmt.Println()
	failed := 0
	for _, c := range checks {
		mark := "PASS"
		if !c.ok {
			mark = "FAIL"
			failed++
		}
		fmt.Printf("%s  %s\n", mark, c.text)
	}
	fmt.Println()
	if failed > 0 {
		return fmt.Errorf("%d of %d %schecks failed", failed, len(checks), what)
	}
	fmt.Printf("all %d %schecks passed\n", len(checks), what)
	return nil
}

// rowRates returns the rows per second of runs.
func rowRates(runs []result) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = float64(r.Rows) / r.Seconds
	}
	return out
}

// pastKeys returns how long each round's scan ran past that round's
// SampleRowKeys call alone (keys), timed in a process of its own: for a
// full scan, which walks the table before it reads, its reads; for a
// sample on an emulator, whose reads start while the walk streams (see
// the sampler's streamsSpans), only its tail past the walk's time. At
// least a tenth of the scan's own time: a round whose walk, timed apart,
// took nearly as long as its sample would otherwise read as a
// thousandfold ratio.
func pastKeys(runs, keys []result) []float64 {
	out := make([]float64, min(len(runs), len(keys)))
	for i := range out {
		out[i] = max(runs[i].Seconds-keys[i].Seconds, runs[i].Seconds/10)
	}
	return out
}

// median returns the run of median time.
func median(runs []result) result {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, func(a, b result) int {
		switch {
		case a.Seconds < b.Seconds:
			return -1
		case a.Seconds > b.Seconds:
			return 1
		}
		return 0
	})
	return sorted[len(sorted)/2]
}

// describe names a run's kind of scan.
func describe(r result) string {
	switch {
	case r.How == "bare":
		return "bare ReadRows loop"
	case r.How == "full":
		return "sampler, full"
	case r.Method == "spans":
		return fmt.Sprintf("sampler, %s sample of key spans", percent(sampleFraction))
	}
	return fmt.Sprintf("sampler, %s sample of rows", percent(sampleFraction))
}

func percent(f float64) string { return fmt.Sprintf("%g%%", f*100) }

func mb(n uint64) float64 { return float64(n) / (1 << 20) }
