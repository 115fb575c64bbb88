package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
)

// targetFlags are the flags that name a table: every command that talks
// to Bigtable has them.
type targetFlags struct {
	connect.Flags
}

func (f *targetFlags) register(flags *pflag.FlagSet) {
	flags.StringVar(&f.Project, "project", "", "Google Cloud project (default: `project` in ~/.cbtrc, $GOOGLE_CLOUD_PROJECT; \"local\" on an emulator)")
	flags.StringVar(&f.Instance, "instance", "", "Bigtable instance (default: `instance` in ~/.cbtrc; \"btviz\" on an emulator)")
	flags.StringVar(&f.Table, "table", "", "table to look at (default: pick one from a list)")
	flags.StringVar(&f.AppProfile, "app-profile", "", "app profile for reads (default: the instance's default profile)")
	flags.BoolVar(&f.Emulator, "emulator", false, "use the emulator at $BIGTABLE_EMULATOR_HOST, or start an embedded one loaded with the demo tables")
	flags.StringVar(&f.EmulatorHost, "emulator-host", "", "host:port of a Bigtable emulator (overrides $BIGTABLE_EMULATOR_HOST)")
}

// scanFlags are the flags that say what part of a table to read and how.
type scanFlags struct {
	prefix, start, end string
	full               bool
	fraction           float64
	maxRows            int64
	maxRead            string
	concurrency        int
	delimiters         string
	seed               uint64
}

func (f *scanFlags) register(flags *pflag.FlagSet) {
	flags.StringVar(&f.prefix, "prefix", "", `read only rows whose key starts with this (bytes as \xNN)`)
	flags.StringVar(&f.start, "start", "", `first key to read, inclusive (bytes as \xNN)`)
	flags.StringVar(&f.end, "end", "", `key to stop before, exclusive (bytes as \xNN)`)
	flags.BoolVar(&f.full, "full", false, "read every row (default for small tables)")
	flags.Var(fractionValue{&f.fraction}, "sample", "read about this share of the rows at random: a fraction (0.05) or a percentage (5%), above 0 and at most all (default for large tables)")
	flags.Int64Var(&f.maxRows, "max-rows", 0, "read at most about N rows, spread over the key space")
	flags.StringVar(&f.maxRead, "max-read", "", "read at most about this many bytes without --full, e.g. 500MB or 10GB (default 2GB): a larger sample is made smaller")
	flags.IntVar(&f.concurrency, "concurrency", 0, "key ranges read in parallel (default 8; on an emulator 2, or 8 for a sample inside tablets)")
	flags.StringVar(&f.delimiters, "delimiters", "", "key-segment delimiter characters, e.g. '#' or '#:' (default: detect from the keys)")
	flags.Uint64Var(&f.seed, "seed", 0, "seed of a sample's random choices: the same seed over an unchanged table draws the same sample, another seed another one")
}

// validate decodes the scan flags (escaped keys, sizes) into
// [sampler.Options] and checks them with [sampler.Options.Validate], the
// one check of a scan's options.
func (f *scanFlags) validate(cmd *cobra.Command) (sampler.Options, error) {
	opts := sampler.Options{
		Full: f.full, Fraction: f.fraction, MaxRows: f.maxRows,
		Concurrency: f.concurrency, Delimiters: f.delimiters, Seed: f.seed,
	}
	var err error
	for _, key := range []struct {
		flag string
		raw  string
		out  *string
	}{{"prefix", f.prefix, &opts.Prefix}, {"start", f.start, &opts.Start}, {"end", f.end, &opts.End}} {
		if *key.out, err = keyspace.ParseKey(key.raw); err != nil {
			return opts, usageErrorf("--%s: %w", key.flag, err)
		}
	}
	if f.maxRead != "" {
		if opts.MaxRead, err = parseBytes(f.maxRead); err != nil {
			return opts, usageErrorf("--max-read %s: %w", escape.Text(f.maxRead), err)
		}
	}
	if err := opts.Validate(); err != nil {
		return opts, usageError(err)
	}
	return opts, nil
}

// parseBytes reads a size such as 2GB, 500MB, 1.5TB or 1000000 (bytes),
// in decimal units as btviz writes them.
func parseBytes(text string) (int64, error) {
	number := strings.TrimSpace(text)
	scale := 1.0
	upper := strings.ToUpper(number)
	for _, unit := range []struct {
		suffix string
		scale  float64
	}{{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
		if strings.HasSuffix(upper, unit.suffix) {
			number, scale = strings.TrimSpace(number[:len(number)-len(unit.suffix)]), unit.scale
			break
		}
	}
	value, err := strconv.ParseFloat(number, 64)
	if err != nil || math.IsNaN(value) || value*scale < 1 || math.IsInf(value, 0) || value*scale > math.MaxInt64/2 {
		return 0, fmt.Errorf("give a positive size in bytes, e.g. 500MB, 2GB or 1TB")
	}
	return int64(value * scale), nil
}
