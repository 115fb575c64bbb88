package main

import (
	"context"
	"flag"
	"fmt"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
)

// The benchmark table: benchRows rows of one 16-byte cell, keys
// user#NNNNNN#profile.
const (
	benchTable  = "proxybench"
	benchFamily = "f"
	benchRows   = 100_000
	loadBatch   = 5_000
)

func benchKey(i int) string { return fmt.Sprintf("user#%06d#profile", i) }

// load creates the benchmark table (dropping an old one) and fills it.
func load(args []string) error {
	flags := flag.NewFlagSet("load", flag.ContinueOnError)
	addr := flags.String("emulator", "", "emulator host:port")
	if err := flags.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, *addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		return err
	}
	defer client.Close()
	defer admin.Close()
	_ = admin.DeleteTable(ctx, benchTable)
	if err := admin.CreateTable(ctx, benchTable); err != nil {
		return err
	}
	if err := admin.CreateColumnFamily(ctx, benchTable, benchFamily); err != nil {
		return err
	}
	table := client.Open(benchTable)
	for start := 0; start < benchRows; start += loadBatch {
		var keys []string
		var muts []*bigtable.Mutation
		for i := start; i < min(start+loadBatch, benchRows); i++ {
			m := bigtable.NewMutation()
			m.Set(benchFamily, "q", 1000, []byte("0123456789abcdef"))
			keys, muts = append(keys, benchKey(i)), append(muts, m)
		}
		errs, err := table.ApplyBulk(ctx, keys, muts)
		if err != nil {
			return err
		}
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	}
	return nil
}
