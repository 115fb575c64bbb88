package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
)

// Workloads: what each client goroutine does in a loop.
const (
	workloadReads      = "point-reads" // ReadRow of a random row
	workloadMutateRows = "mutate-rows" // ApplyBulk of mutateBatch random rows
	mutateBatch        = 100
)

// result is one run of one workload, as measure prints it.
type result struct {
	Workload string  `json:"workload"`
	Target   string  `json:"target"`
	Workers  int     `json:"workers"`
	Calls    int64   `json:"calls"`
	Rows     int64   `json:"rows"` // rows read or written
	Seconds  float64 `json:"seconds"`
	// ClientCPU, EmulatorCPU and ProxyCPU are the CPU time of each
	// process during the run, in seconds (0: not measured).
	ClientCPU   float64 `json:"client_cpu"`
	EmulatorCPU float64 `json:"emulator_cpu"`
	ProxyCPU    float64 `json:"proxy_cpu"`
}

func (r result) callsPerSecond() float64 { return float64(r.Calls) / r.Seconds }

// measure runs one workload against -target for -duration, after a
// warm-up, with a client that finds the target as an application does,
// through BIGTABLE_EMULATOR_HOST.
func measure(args []string) error {
	flags := flag.NewFlagSet("measure", flag.ContinueOnError)
	target := flags.String("target", "", "emulator or proxy host:port")
	workload := flags.String("workload", workloadReads, "point-reads or mutate-rows")
	workers := flags.Int("workers", 16, "calls in flight")
	duration := flags.Duration("duration", 4*time.Second, "how long to measure")
	warmup := flags.Duration("warmup", time.Second, "how long to run before measuring")
	emulatorPID := flags.Int("emulator-pid", 0, "the emulator's process, for its CPU time")
	proxyPID := flags.Int("proxy-pid", 0, "the proxy's process, for its CPU time")
	if err := flags.Parse(args); err != nil {
		return err
	}
	os.Setenv(connect.EmulatorHostEnv, *target)
	ctx := context.Background()
	client, err := bigtable.NewClientWithConfig(ctx, connect.EmulatorProject, connect.EmulatorInstance,
		bigtable.ClientConfig{MetricsProvider: bigtable.NoopMetricsProvider{}})
	if err != nil {
		return err
	}
	defer client.Close()
	table := client.Open(benchTable)
	var call func(r *rand.Rand) (int64, error)
	switch *workload {
	case workloadReads:
		call = func(r *rand.Rand) (int64, error) {
			row, err := table.ReadRow(ctx, benchKey(r.IntN(benchRows)))
			if err == nil && row == nil {
				err = fmt.Errorf("a row of %s is missing: run benchproxy load first", benchTable)
			}
			return 1, err
		}
	case workloadMutateRows:
		call = func(r *rand.Rand) (int64, error) {
			keys := make([]string, mutateBatch)
			muts := make([]*bigtable.Mutation, mutateBatch)
			for i := range keys {
				keys[i] = benchKey(r.IntN(benchRows))
				muts[i] = bigtable.NewMutation()
				muts[i].Set(benchFamily, "q", 2000, []byte("fedcba9876543210"))
			}
			errs, err := table.ApplyBulk(ctx, keys, muts)
			for _, e := range errs {
				if e != nil {
					return 0, e
				}
			}
			return mutateBatch, err
		}
	default:
		return fmt.Errorf("unknown -workload %q: want %s or %s", *workload, workloadReads, workloadMutateRows)
	}

	var measuring atomic.Bool
	var calls, rows atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, *workers)
	var wg sync.WaitGroup
	for w := range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			for {
				select {
				case <-stop:
					return
				default:
				}
				n, err := call(r)
				if err != nil {
					errs <- err
					return
				}
				if measuring.Load() {
					calls.Add(1)
					rows.Add(n)
				}
			}
		}()
	}
	time.Sleep(*warmup)
	cpuBefore, emulatorBefore, proxyBefore := processCPU(), cpuSeconds(*emulatorPID), cpuSeconds(*proxyPID)
	began := time.Now()
	measuring.Store(true)
	time.Sleep(*duration)
	measuring.Store(false)
	elapsed := time.Since(began)
	cpu, emulatorCPU, proxyCPU := processCPU()-cpuBefore, cpuSeconds(*emulatorPID)-emulatorBefore, cpuSeconds(*proxyPID)-proxyBefore
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(result{
		Workload: *workload, Target: *target, Workers: *workers,
		Calls: calls.Load(), Rows: rows.Load(), Seconds: elapsed.Seconds(),
		ClientCPU: cpu, EmulatorCPU: emulatorCPU, ProxyCPU: proxyCPU,
	})
}

// processCPU returns this process's user and system CPU time, in seconds.
func processCPU() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
}
