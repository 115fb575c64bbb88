// Command benchreport compares what `btviz report` costs at two
// revisions: it runs the report package's BenchmarkReport_100k, compiled
// at each (go test -c), in interleaved rounds, each run a process of its
// own, and prints each sub-benchmark's CPU time per report at both and
// the median of the rounds' paired ratios, with a PASS or FAIL line for
// the report time requirement, then the same for wall time. The check is
// on CPU time: on a 2-core machine shared with other work, a run's wall
// time swings by half with the load, its CPU time far less. bench/run.sh builds both binaries (`bench/run.sh report`):
//
//	benchreport -new report-new.test -base report-base.test [-rounds 9] [-benchtime 10x] [-max 1.2]
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/btviz/btviz/bench/internal/benchproc"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// checked is the sub-benchmark the requirement is on: the whole report
// path on the table whose keys the newer diagnostics cut into parts.
const checked = "greetings/report"

func run(args []string) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	newer := fs.String("new", "", "test binary of the report package at the revision measured")
	base := fs.String("base", "", "test binary of the report package at the revision compared against")
	baseName := fs.String("base-name", "base", "what to call the base revision in the table")
	rounds := fs.Int("rounds", 9, "interleaved rounds")
	benchtime := fs.String("benchtime", "10x", "-test.benchtime of each run")
	limit := fs.Float64("max", 1.2, "the largest ratio of the new time to the base time that passes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *newer == "" || *base == "" {
		return errors.New("give both -new and -base test binaries")
	}
	// times[which][metric][name] holds each round's figure.
	times := map[string]map[string]map[string][]float64{"new": {"cpu-ns/op": {}, "ns/op": {}}, "base": {"cpu-ns/op": {}, "ns/op": {}}}
	for round := range *rounds {
		// Alternate which runs first, so that neither always meets a
		// machine warmed (or slowed) by the other.
		order := []string{"new", "base"}
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, which := range order {
			binary := *newer
			if which == "base" {
				binary = *base
			}
			got, err := measure(binary, *benchtime)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", round+1, which, err)
			}
			for metric, byName := range got {
				for name, ns := range byName {
					times[which][metric][name] = append(times[which][metric][name], ns)
				}
			}
		}
		fmt.Fprintf(os.Stderr, "round %d of %d done\n", round+1, *rounds)
	}
	var status error
	var verdict string
	for _, metric := range []string{"cpu-ns/op", "ns/op"} {
		what := map[string]string{"cpu-ns/op": "CPU time", "ns/op": "wall time"}[metric]
		names := make([]string, 0, len(times["new"][metric]))
		for name := range times["new"][metric] {
			names = append(names, name)
		}
		slices.Sort(names)
		fmt.Printf("BenchmarkReport_100k %s, ms per report (median of %d interleaved rounds of -benchtime %s)\n", what, *rounds, *benchtime)
		fmt.Printf("%-20s %10s %10s  %-8s %s\n", "", "new", *baseName, "paired", "rounds' ratios new/"+*baseName)
		for _, name := range names {
			newTimes, baseTimes := times["new"][metric][name], times["base"][metric][name]
			if len(newTimes) != *rounds || len(baseTimes) != *rounds {
				return fmt.Errorf("%s %s: %d runs at the new revision and %d at the base, want %d each", name, metric, len(newTimes), len(baseTimes), *rounds)
			}
			paired := benchproc.Pair(newTimes, baseTimes)
			fmt.Printf("%-20s %10.1f %10.1f  %-8.2f %s\n", name, median(newTimes)/1e6, median(baseTimes)/1e6, paired.Median, paired)
			if name == checked && metric == "cpu-ns/op" {
				mark := "PASS"
				if paired.Median > *limit {
					mark, status = "FAIL", fmt.Errorf("%s takes %.2f× the base's CPU time, above %.2f×", name, paired.Median, *limit)
				}
				verdict = fmt.Sprintf("%s report time on a 100k-row table (%s, CPU): %.2f× %s, requirement ≤ %.2f×", mark, name, paired.Median, *baseName, *limit)
			}
		}
		fmt.Println()
	}
	fmt.Println(verdict)
	return status
}

// measure runs one binary's BenchmarkReport_100k once and returns each
// sub-benchmark's figures by metric (ns/op, cpu-ns/op) and name
// ("greetings/report").
func measure(binary, benchtime string) (map[string]map[string]float64, error) {
	cmd := exec.Command(binary, "-test.run=^$", "-test.bench=^BenchmarkReport_100k$", "-test.benchtime="+benchtime)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s%s", binary, err, out, stderr.Bytes())
	}
	got := map[string]map[string]float64{"ns/op": {}, "cpu-ns/op": {}}
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		// BenchmarkReport_100k/greetings/report-2   10   204530746 ns/op   91949800 cpu-ns/op
		fields := strings.Fields(scanner.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "BenchmarkReport_100k/") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "BenchmarkReport_100k/")
		if dash := strings.LastIndexByte(name, '-'); dash > 0 {
			name = name[:dash]
		}
		for i := 2; i+1 < len(fields); i += 2 {
			if _, ok := got[fields[i+1]]; !ok {
				continue
			}
			value, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: reading %q: %w", binary, scanner.Text(), err)
			}
			got[fields[i+1]][name] = value
		}
	}
	if len(got["cpu-ns/op"]) == 0 || len(got["cpu-ns/op"]) != len(got["ns/op"]) {
		return nil, fmt.Errorf("%s printed no BenchmarkReport_100k result with CPU time:\n%s", binary, out)
	}
	return got, nil
}

// median returns the upper median of values.
func median(values []float64) float64 {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}
