package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/btviz/btviz/bench/internal/benchproc"
	"github.com/btviz/btviz/internal/units"
)

// minThroughputRatio is the requirement: through the recording proxy, a
// client keeps this share of its direct calls per second.
const minThroughputRatio = 0.85

// clockTicks is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on
// Linux).
const clockTicks = 100

// setup is one kind of run: a workload with a number of calls in flight.
type setup struct {
	workload string
	workers  int
	// checked runs measure throughput against the requirement; the
	// others report latency only.
	checked bool
}

func (s setup) String() string { return fmt.Sprintf("%s, %d in flight", s.workload, s.workers) }

// report runs every measurement in a fresh process, alternating direct
// and proxied runs (and which of them goes first), and prints the table.
func report(args []string) error {
	flags := flag.NewFlagSet("report", flag.ContinueOnError)
	emulatorAddr := flags.String("emulator", "", "emulator host:port")
	control := flags.String("control", "", "host:port of the emulator's /gc control endpoint (benchscan serve), called before each run")
	proxyAddr := flags.String("proxy", "", "recording proxy host:port, in front of -emulator")
	emulatorPID := flags.Int("emulator-pid", 0, "the emulator's process, for its CPU time")
	proxyPID := flags.Int("proxy-pid", 0, "the proxy's process, for its CPU time")
	rounds := flags.Int("rounds", 5, "interleaved rounds of direct and proxied runs; medians count")
	duration := flags.Duration("duration", 4*time.Second, "length of each run")
	if err := flags.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	measureOnce := func(s setup, target string) (result, error) {
		if err := benchproc.CollectGarbage(*control); err != nil {
			return result{}, err
		}
		cmd := exec.Command(self, "measure", "-target", target, "-workload", s.workload,
			"-workers", strconv.Itoa(s.workers), "-duration", duration.String(),
			"-emulator-pid", strconv.Itoa(*emulatorPID), "-proxy-pid", strconv.Itoa(*proxyPID))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("measuring %s against %s: %w", s, target, err)
		}
		var r result
		return r, json.Unmarshal(out.Bytes(), &r)
	}

	setups := []setup{
		{workloadReads, 64, true},
		{workloadMutateRows, 16, true},
		{workloadReads, 1, false},
	}
	type pair struct{ direct, proxied []result }
	runs := make([]pair, len(setups))
	for round := 1; round <= *rounds; round++ {
		for i, s := range setups {
			order := []bool{false, true}
			if round%2 == 0 {
				order = []bool{true, false}
			}
			for _, viaProxy := range order {
				target, name := *emulatorAddr, "direct"
				if viaProxy {
					target, name = *proxyAddr, "proxy"
				}
				r, err := measureOnce(s, target)
				if err != nil {
					return err
				}
				if viaProxy {
					runs[i].proxied = append(runs[i].proxied, r)
				} else {
					runs[i].direct = append(runs[i].direct, r)
				}
				fmt.Fprintf(os.Stderr, "round %d: %-25s %-6s %8.0f calls/s\n", round, s, name, r.callsPerSecond())
			}
		}
	}

	fmt.Printf("\n### btviz recording proxy benchmark\n\n")
	fmt.Printf("Emulator (bttest), recording proxy and each client in processes of their own on %d CPUs, %s. The\n", runtime.NumCPU(), runtime.Version())
	fmt.Printf("proxy records as `btviz record` does: every data-API call decoded into Ops, aggregated by the\n")
	fmt.Printf("recording builder and written to a recording file every 5 s. The client is the official Go client;\n")
	fmt.Printf("%s per run after a 1 s warm-up, the emulator's garbage collected before each; medians of %d\n", units.Duration(*duration), *rounds)
	fmt.Printf("interleaved rounds (a direct and a proxied run each, in turn first). CPU columns: CPU time per call,\n")
	fmt.Printf("by process. A check takes the median of the rounds' ratios, proxied over direct.\n\n")
	fmt.Printf("| workload | path | calls/s | rows/s | latency | client CPU | emulator CPU | proxy CPU |\n")
	fmt.Printf("|---|---|---:|---:|---:|---:|---:|---:|\n")
	perCall := func(cpu float64, r result) string {
		if cpu <= 0 {
			return ""
		}
		return fmt.Sprintf("%.0f µs", cpu/float64(r.Calls)*1e6)
	}
	var checks []string
	failed := 0
	for i, s := range setups {
		direct, proxied := median(runs[i].direct), median(runs[i].proxied)
		for _, r := range []struct {
			path string
			run  result
		}{{"direct", direct}, {"through the proxy", proxied}} {
			latency := float64(s.workers) / r.run.callsPerSecond() * 1e6
			proxyCPU := perCall(r.run.ProxyCPU, r.run)
			if r.path == "direct" {
				proxyCPU = ""
			}
			fmt.Printf("| %s | %s | %.0f | %.0f | %.0f µs | %s | %s | %s |\n", s, r.path, r.run.callsPerSecond(), float64(r.run.Rows)/r.run.Seconds,
				latency, perCall(r.run.ClientCPU, r.run), perCall(r.run.EmulatorCPU, r.run), proxyCPU)
		}
		ratio := proxied.callsPerSecond() / direct.callsPerSecond()
		paired := benchproc.Pair(rates(runs[i].proxied), rates(runs[i].direct))
		if !s.checked {
			added := float64(s.workers)/proxied.callsPerSecond() - float64(s.workers)/direct.callsPerSecond()
			checks = append(checks, fmt.Sprintf("info  %s: the proxy adds %.0f µs per call (throughput ratio %.2f)", s, added*1e6, ratio))
			continue
		}
		mark := "PASS"
		if paired.Median < minThroughputRatio {
			mark = "FAIL"
			failed++
		}
		checks = append(checks, fmt.Sprintf("%s  %s: throughput through the recording proxy / direct, median of the rounds' ratios %.2f (need ≥ %.2f; ratio of the medians %.2f; rounds %s)",
			mark, s, paired.Median, minThroughputRatio, ratio, paired))
	}
	fmt.Printf("\n%s\n\n", strings.Join(checks, "\n"))
	if failed > 0 {
		return fmt.Errorf("%d throughput checks failed", failed)
	}
	fmt.Println("all throughput checks passed")
	return nil
}

// rates returns the calls per second of runs.
func rates(runs []result) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = r.callsPerSecond()
	}
	return out
}

// median returns the run of median throughput.
func median(runs []result) result {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, func(a, b result) int { return cmp.Compare(a.callsPerSecond(), b.callsPerSecond()) })
	return sorted[len(sorted)/2]
}

// cpuSeconds returns the user and system CPU time of process pid so far,
// from /proc; 0 when pid is 0 or unreadable.
func cpuSeconds(pid int) float64 {
	if pid == 0 {
		return 0
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; fields count from the
	// closing parenthesis.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / clockTicks
}
