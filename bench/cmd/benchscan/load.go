package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/units"
)

// benchTables are the tables the benchmark loads: one design, three sizes.
var benchTables = []struct {
	name string
	rows int
	// varied gives rows values of 40 to 159 bytes (a hash of the row
	// number) instead of 8: the Cloud-like table, whose sample weighs
	// rows by their bytes, must not have it easy.
	varied bool
}{
	{"bench1m", 1_000_000, false},
	{"bench500k", 500_000, false},
	{"bench5m", 5_000_000, false},
	{"cloud2m", 2_000_000, true},
}

// prefixes are 20 top-level key prefixes; prefix i holds a share of rows
// proportional to 1/(i+1) (Zipf), from 28% down to 1.4%.
var prefixes = []string{
	"acct", "user", "ordr", "cart", "sess", "evnt", "item", "inv", "ship", "pay",
	"rfnd", "revw", "srch", "ntfy", "msg", "grp", "tag", "geo", "dev", "log",
}

// prefixShares returns each prefix's share of rows.
func prefixShares() []float64 {
	shares := make([]float64, len(prefixes))
	total := 0.0
	for i := range prefixes {
		shares[i] = 1 / float64(i+1)
		total += shares[i]
	}
	for i := range shares {
		shares[i] /= total
	}
	return shares
}

// benchKey returns row i of n: rows are dealt to prefixes by their shares,
// in key order, so each prefix's rows are one contiguous run with ids
// 0000000, 0000001, …
func benchKey(i, n int, bounds []int) string {
	p := 0
	for i >= bounds[p+1] {
		p++
	}
	return fmt.Sprintf("%s#%07d", prefixes[p], i-bounds[p])
}

// prefixBounds returns the first row index of each prefix, and n.
func prefixBounds(n int) []int {
	bounds := []int{0}
	acc := 0.0
	for _, share := range prefixShares() {
		acc += share
		bounds = append(bounds, min(n, int(acc*float64(n)+0.5)))
	}
	bounds[len(bounds)-1] = n
	return bounds
}

// load creates the benchmark tables (dropping old ones) and writes one
// small cell per row: family "f", qualifier "v", an 8-byte value, with
// write times spread over a day.
func load(args []string) error {
	flags := flag.NewFlagSet("load", flag.ContinueOnError)
	emulator := flags.String("emulator", "", "emulator host:port")
	only := flags.String("tables", "", "comma-separated tables to load (default: all)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: *emulator})
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, table := range benchTables {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), table.name) {
			continue
		}
		start := time.Now()
		conn.Admin.DeleteTable(ctx, table.name) // absent on a fresh emulator
		if err := conn.Admin.CreateTable(ctx, table.name); err != nil {
			return fmt.Errorf("creating %s: %w", table.name, err)
		}
		if err := conn.Admin.CreateColumnFamily(ctx, table.name, "f"); err != nil {
			return fmt.Errorf("creating %s: %w", table.name, err)
		}
		if err := loadRows(ctx, conn.Client.Open(table.name), table.rows, table.varied); err != nil {
			return fmt.Errorf("loading %s: %w", table.name, err)
		}
		fmt.Printf("loaded %-9s %9d rows in %6s\n", table.name, table.rows, units.Duration(time.Since(start)))
	}
	return nil
}

// loadRows writes n rows in chunks, a few ApplyBulk calls at a time.
func loadRows(ctx context.Context, tbl *bigtable.Table, n int, varied bool) error {
	const chunk, inFlight = 5000, 4
	bounds := prefixBounds(n)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	slots := make(chan struct{}, inFlight)
	for from := 0; from < n; from += chunk {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			to := min(from+chunk, n)
			keys := make([]string, 0, to-from)
			muts := make([]*bigtable.Mutation, 0, to-from)
			for i := from; i < to; i++ {
				size := 8
				if varied {
					size = 40 + int(mix(uint64(i))%120)
				}
				value := make([]byte, size)
				binary.BigEndian.PutUint64(value, uint64(i))
				mut := bigtable.NewMutation()
				// Truncated to the millisecond, as Bigtable keeps timestamps.
				ts := base + int64(i%86_400)*1_000_000 + int64(i%1000)*1000
				mut.Set("f", "v", bigtable.Timestamp(ts), value)
				keys = append(keys, benchKey(i, n, bounds))
				muts = append(muts, mut)
			}
			errs, err := tbl.ApplyBulk(ctx, keys, muts)
			for _, e := range errs {
				if e != nil && err == nil {
					err = e
				}
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// mix is SplitMix64's finaliser: a row number to 64 bits that look
// random, so that neighbouring rows' sizes are not related.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
