package main

import (
	"bytes"
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
)

// minThroughputRatio is the requirement: through the recording proxy, a
// client keeps this share of its direct calls per second.
const minThroughputRatio = 0.85

// clockTicks is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on
// Linux).
const clockTicks = 100

// report runs every measurement in a fresh process, alternating direct
// and proxied runs of each workload, and prints the table.
func report(args []string) error {
	flags := flag.NewFlagSet("report", flag.ContinueOnError)
	emulatorAddr := flags.String("emulator", "", "emulator host:port")
	proxyAddr := flags.String("proxy", "", "recording proxy host:port, in front of -emulator")
	emulatorPID := flags.Int("emulator-pid", 0, "the emulator's process, for its CPU time")
	proxyPID := flags.Int("proxy-pid", 0, "the proxy's process, for its CPU time")
	rounds := flags.Int("rounds", 5, "interleaved rounds of direct and proxied runs; medians count")
	workers := flags.Int("workers", 16, "calls in flight")
	duration := flags.Duration("duration", 4*time.Second, "length of each run")
	if err := flags.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	type run = result
	measureOnce := func(workload, target string) (run, error) {
		cmd := exec.Command(self, "measure", "-target", target, "-workload", workload,
			"-workers", strconv.Itoa(*workers), "-duration", duration.String(),
			"-emulator-pid", strconv.Itoa(*emulatorPID), "-proxy-pid", strconv.Itoa(*proxyPID))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return run{}, fmt.Errorf("measuring %s against %s: %w", workload, target, err)
		}
		var r run
		return r, json.Unmarshal(out.Bytes(), &r)
	}

	workloads := []string{workloadReads, workloadMutateRows}
	runs := map[string][]run{}
	for round := 1; round <= *rounds; round++ {
		for _, workload := range workloads {
			for _, target := range []struct{ name, addr string }{{"direct", *emulatorAddr}, {"proxy", *proxyAddr}} {
				r, err := measureOnce(workload, target.addr)
				if err != nil {
					return err
				}
				runs[workload+"/"+target.name] = append(runs[workload+"/"+target.name], r)
				fmt.Fprintf(os.Stderr, "round %d: %-11s %-6s %8.0f calls/s\n", round, workload, target.name, r.callsPerSecond())
			}
		}
	}
	median := func(rs []run) run {
		sorted := slices.Clone(rs)
		slices.SortFunc(sorted, func(a, b run) int { return int(a.callsPerSecond() - b.callsPerSecond()) })
		return sorted[len(sorted)/2]
	}

	fmt.Printf("\n### btviz recording proxy benchmark\n\n")
	fmt.Printf("Emulator (bttest), recording proxy (decoding every data-API frame into Ops, aggregated in memory by\n")
	fmt.Printf("prefix) and each client run in processes of their own on %d CPUs, %s. The client is the official Go\n", runtime.NumCPU(), runtime.Version())
	fmt.Printf("client with %d calls in flight, %v per run after a 1 s warm-up; medians of %d interleaved rounds.\n", *workers, *duration, *rounds)
	fmt.Printf("CPU columns are milliseconds of CPU per 1,000 calls, by process.\n\n")
	fmt.Printf("| workload | path | calls/s | rows/s | client CPU | emulator CPU | proxy CPU |\n")
	fmt.Printf("|---|---|---:|---:|---:|---:|---:|\n")
	perThousand := func(cpu float64, r run) string {
		if cpu <= 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f ms", cpu/float64(r.Calls)*1e6)
	}
	ratios := map[string]float64{}
	for _, workload := range workloads {
		direct, proxied := median(runs[workload+"/direct"]), median(runs[workload+"/proxy"])
		for _, r := range []struct {
			name string
			run  run
		}{{"direct", direct}, {"through the proxy", proxied}} {
			proxyCPU := perThousand(r.run.ProxyCPU, r.run)
			if r.name == "direct" {
				proxyCPU = ""
			}
			fmt.Printf("| %s | %s | %.0f | %.0f | %s | %s | %s |\n", workload, r.name, r.run.callsPerSecond(), float64(r.run.Rows)/r.run.Seconds,
				perThousand(r.run.ClientCPU, r.run), perThousand(r.run.EmulatorCPU, r.run), proxyCPU)
		}
		ratios[workload] = proxied.callsPerSecond() / direct.callsPerSecond()
	}
	fmt.Println()
	failed := 0
	for _, workload := range workloads {
		mark := "PASS"
		if ratios[workload] < minThroughputRatio {
			mark = "FAIL"
			failed++
		}
		fmt.Printf("%s  %s throughput, through the recording proxy / direct (medians): %.2f (need ≥ %.2f)\n", mark, workload, ratios[workload], minThroughputRatio)
	}
	fmt.Println()
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(workloads))
	}
	fmt.Printf("all %d checks passed\n", len(workloads))
	return nil
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
