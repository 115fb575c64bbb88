package record

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/emulator"
	"github.com/btviz/btviz/keyspace"
)

// prefixSink aggregates Ops in memory by their keys' first segment, as
// a traffic builder would, at about its cost.
type prefixSink struct {
	byPrefix map[string]*[4]int64
}

func (s *prefixSink) Add(op *keyspace.Op) {
	add := func(key keyspace.Key, column int, bytes int64) {
		prefix, _, _ := strings.Cut(string(key), "#")
		totals := s.byPrefix[prefix]
		if totals == nil {
			totals = new([4]int64)
			s.byPrefix[prefix] = totals
		}
		totals[column]++
		totals[column+1] += bytes
	}
	for _, r := range op.RowsRead {
		add(r.Key, 0, r.Bytes)
	}
	for _, r := range op.RowsWritten {
		add(r.Key, 2, r.Bytes)
	}
}

func (s *prefixSink) Flush(FlushInfo) error { return nil }

const benchRows = 10_000

func benchKey(i int) string { return fmt.Sprintf("user#%05d#profile", i) }

// benchTarget starts an emulator with benchRows rows and returns its
// address and, through recording proxy in front of it, the proxy's.
func benchTarget(b *testing.B) (direct, proxied string) {
	b.Helper()
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	client, admin := dial(b, srv.Addr)
	ctx := context.Background()
	if err := admin.CreateTable(ctx, "bench"); err != nil {
		b.Fatal(err)
	}
	if err := admin.CreateColumnFamily(ctx, "bench", "f"); err != nil {
		b.Fatal(err)
	}
	var keys []string
	var muts []*bigtable.Mutation
	for i := range benchRows {
		m := bigtable.NewMutation()
		m.Set("f", "q", 1000, []byte("0123456789abcdef"))
		keys, muts = append(keys, benchKey(i)), append(muts, m)
	}
	if _, err := client.Open("bench").ApplyBulk(ctx, keys, muts); err != nil {
		b.Fatal(err)
	}
	upstream, err := DialEmulator(srv.Addr)
	if err != nil {
		b.Fatal(err)
	}
	rec := NewRecorder(&prefixSink{byPrefix: map[string]*[4]int64{}}, RecorderOptions{})
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec})
	if err != nil {
		b.Fatal(err)
	}
	go proxy.Serve()
	b.Cleanup(func() {
		proxy.Stop(context.Background())
		rec.Close()
		upstream.Close()
	})
	return srv.Addr, proxy.Addr()
}

// runParallel runs op from 8 goroutines, b.N times in all.
func runParallel(b *testing.B, op func(r *rand.Rand) error) {
	workers := 8
	if s := os.Getenv("BENCH_WORKERS"); s != "" {
		workers, _ = strconv.Atoi(s)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	b.ResetTimer()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for next.Add(1) <= int64(b.N) {
				if err := op(r); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

// BenchmarkPointReads reads single rows from 8 goroutines, directly and
// through the recording proxy.
func BenchmarkPointReads(b *testing.B) {
	direct, proxied := benchTarget(b)
	for _, target := range []struct{ name, addr string }{{"direct", direct}, {"proxy", proxied}} {
		b.Run(target.name, func(b *testing.B) {
			client, _ := dial(b, target.addr)
			table := client.Open("bench")
			runParallel(b, func(r *rand.Rand) error {
				_, err := table.ReadRow(context.Background(), benchKey(r.IntN(benchRows)))
				return err
			})
		})
	}
}

// BenchmarkMutateRows writes batches of 100 rows from 8 goroutines,
// directly and through the recording proxy.
func BenchmarkMutateRows(b *testing.B) {
	direct, proxied := benchTarget(b)
	for _, target := range []struct{ name, addr string }{{"direct", direct}, {"proxy", proxied}} {
		b.Run(target.name, func(b *testing.B) {
			client, _ := dial(b, target.addr)
			table := client.Open("bench")
			runParallel(b, func(r *rand.Rand) error {
				keys := make([]string, 100)
				muts := make([]*bigtable.Mutation, 100)
				for i := range keys {
					keys[i] = benchKey(r.IntN(benchRows))
					muts[i] = bigtable.NewMutation()
					muts[i].Set("f", "q", 2000, []byte("fedcba9876543210"))
				}
				_, err := table.ApplyBulk(context.Background(), keys, muts)
				return err
			})
		})
	}
}
