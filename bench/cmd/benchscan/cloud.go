package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"runtime"

	"github.com/btviz/btviz/bench/internal/benchproc"
)

// Pass marks of the Cloud-like benchmark (issue 12): a sample of a table
// whose SampleRowKeys answers tablets reads about its fraction of rows at
// the server, is far faster than a full scan, keeps every top-level
// prefix's share and brackets the true row count.
const (
	cloudTable         = "cloud2m"
	maxServerReadRatio = 1.5 // rows read at the server / (fraction × rows)
	minCloudSpeedup    = 30  // full scan / sample, time
)

// cloudFractions are the fractions measured, with the share error each
// must stay within.
var cloudFractions = []struct {
	fraction, maxShareErrorPP float64
}{{0.01, 1}, {0.001, 2}}

// cloud measures cloud2m behind an emulator started with serve -tablets:
// one full scan, then seeds samples at each fraction, each in a fresh
// process, and prints the table the README quotes.
func cloud(args []string) error {
	flags := flag.NewFlagSet("cloud", flag.ContinueOnError)
	emulator := flags.String("emulator", "", "emulator host:port holding cloud2m, started with serve -tablets")
	control := flags.String("control", "", "host:port of its control endpoint (/gc, /reads)")
	seeds := flags.Int("seeds", 3, "sample runs at each fraction")
	if err := flags.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	run := func(how string, fraction float64, seed int) (result, error) {
		if err := benchproc.CollectGarbage(*control); err != nil {
			return result{}, err
		}
		if _, _, err := serverReads(*control); err != nil { // start counting afresh
			return result{}, err
		}
		cmd := exec.Command(self, "measure", "-emulator", *emulator, "-table", cloudTable, "-how", how,
			"-fraction", fmt.Sprint(fraction), "-seed", fmt.Sprint(seed))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("measuring %s of %s: %w", how, cloudTable, err)
		}
		var res result
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			return res, err
		}
		res.ServerRows, res.ServerCalls, err = serverReads(*control)
		fmt.Fprintf(os.Stderr, "%-6s %-6g seed %d: %8d rows (%d at the server, %d calls) in %6.2fs\n", how, fraction, seed, res.Rows, res.ServerRows, res.ServerCalls, res.Seconds)
		return res, err
	}
	full, err := run("full", 1, 0)
	if err != nil {
		return err
	}
	total := full.Rows
	fmt.Printf("\n### Cloud-like tablets\n\n")
	fmt.Printf("%s: %d rows, 20 top-level prefixes of Zipf sizes, values of 40–159 B, behind an emulator whose SampleRowKeys\n", cloudTable, total)
	fmt.Printf("answers like Cloud Bigtable (internal/emulator/cloudlike: about 50 tablets by bytes, one 5× and one a fifth the others' size);\n")
	fmt.Printf("%d CPUs, %s. Rows read are counted at the emulator. Every run is a fresh process; times include SampleRowKeys.\n\n", runtime.NumCPU(), runtime.Version())
	fmt.Printf("| scan | rows read at the server | share of rows | ReadRows calls | time | full / sample | estimated rows (95%%) | worst prefix share error |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---|---:|\n")
	fmt.Printf("| full | %d | 100%% | %d | %.2f s | | %d (exact) | |\n", full.ServerRows, full.ServerCalls, full.Seconds, full.RowsEstimated)
	var checks []check
	for _, fc := range cloudFractions {
		for seed := range *seeds {
			s, err := run("sample", fc.fraction, seed)
			if err != nil {
				return err
			}
			worst := 0.0
			for _, p := range prefixes {
				worst = max(worst, math.Abs(s.Shares[p]-full.Shares[p])*100)
			}
			readShare := float64(s.ServerRows) / float64(total)
			speedup := full.Seconds / s.Seconds
			inside := s.RowsLow <= total && total <= s.RowsHigh
			fmt.Printf("| %s sample, seed %d | %d | %.3f%% | %d | %.3f s | %.0f× | %d [%d, %d] | %.2f pp |\n", percent(fc.fraction), seed,
				s.ServerRows, 100*readShare, s.ServerCalls, s.Seconds, speedup, s.RowsEstimated, s.RowsLow, s.RowsHigh, worst)
			name := fmt.Sprintf("%s sample, seed %d", percent(fc.fraction), seed)
			checks = append(checks,
				check{readShare <= maxServerReadRatio*fc.fraction, fmt.Sprintf("%s: the server read %.3f%% of the rows (need ≤ %.3f%%)", name, 100*readShare, 100*maxServerReadRatio*fc.fraction)},
				check{speedup >= minCloudSpeedup, fmt.Sprintf("%s: full scan / sample time %.0f× (need ≥ %d×)", name, speedup, minCloudSpeedup)},
				check{worst <= fc.maxShareErrorPP, fmt.Sprintf("%s: worst top-level share error %.2f pp (need ≤ %g pp)", name, worst, fc.maxShareErrorPP)},
				check{inside, fmt.Sprintf("%s: the true %d rows lie in the 95%% interval [%d, %d]", name, total, s.RowsLow, s.RowsHigh)},
			)
		}
	}
	return printChecks(checks, "Cloud-like ")
}

// serverReads returns the rows and ReadRows calls the emulator behind
// the control endpoint counted since the last call, and resets them.
func serverReads(addr string) (rows, calls int64, err error) {
	resp, err := http.Get("http://" + addr + "/reads")
	if err != nil {
		return 0, 0, fmt.Errorf("reading the emulator's counts: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, 0, err
	}
	_, err = fmt.Sscan(string(body), &rows, &calls)
	return rows, calls, err
}
