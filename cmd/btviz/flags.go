package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/keyspace"
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
	concurrency        int
	delimiters         string
}

func (f *scanFlags) register(flags *pflag.FlagSet) {
	flags.StringVar(&f.prefix, "prefix", "", `read only rows whose key starts with this (bytes as \xNN)`)
	flags.StringVar(&f.start, "start", "", `first key to read, inclusive (bytes as \xNN)`)
	flags.StringVar(&f.end, "end", "", `key to stop before, exclusive (bytes as \xNN)`)
	flags.BoolVar(&f.full, "full", false, "read every row (default for small tables)")
	flags.Float64Var(&f.fraction, "sample", 0, "read this fraction of rows, 0 < F ≤ 1, chosen by the server at random (default for large tables)")
	flags.Int64Var(&f.maxRows, "max-rows", 0, "read at most about N rows, spread over the key space")
	flags.IntVar(&f.concurrency, "concurrency", 0, "key ranges read in parallel (default 8)")
	flags.StringVar(&f.delimiters, "delimiters", "", "key-segment delimiter characters, e.g. '#' or '#:' (default: detect from the keys)")
}

// validate checks the scan flags and returns them with the escaped keys
// decoded to raw bytes.
func (f *scanFlags) validate(cmd *cobra.Command) (scanFlags, error) {
	req := *f
	modes := 0
	for _, name := range []string{"full", "sample", "max-rows"} {
		if cmd.Flags().Changed(name) {
			modes++
		}
	}
	if modes > 1 {
		return req, usageErrorf("--full, --sample and --max-rows choose the scan mode: give at most one")
	}
	if cmd.Flags().Changed("sample") && (f.fraction <= 0 || f.fraction > 1) {
		return req, usageErrorf("--sample %v: give a fraction of rows between 0 and 1, e.g. --sample 0.05", f.fraction)
	}
	if cmd.Flags().Changed("max-rows") && f.maxRows <= 0 {
		return req, usageErrorf("--max-rows %d: give a positive number of rows", f.maxRows)
	}
	if cmd.Flags().Changed("concurrency") && (f.concurrency < 1 || f.concurrency > 256) {
		return req, usageErrorf("--concurrency %d: give 1 to 256 ranges read in parallel", f.concurrency)
	}
	for _, c := range []byte(f.delimiters) {
		if c < 0x21 || c > 0x7e {
			return req, usageErrorf("--delimiters %q: give printable characters such as '#:/'", f.delimiters)
		}
	}
	var err error
	for _, key := range []struct {
		flag string
		raw  string
		out  *string
	}{{"prefix", f.prefix, &req.prefix}, {"start", f.start, &req.start}, {"end", f.end, &req.end}} {
		if *key.out, err = keyspace.ParseKey(key.raw); err != nil {
			return req, usageErrorf("--%s: %w", key.flag, err)
		}
	}
	if req.prefix != "" && (req.start != "" || req.end != "") {
		return req, usageErrorf("--prefix and --start/--end both bound the key range: give one or the other")
	}
	if req.end != "" && req.start >= req.end {
		return req, usageErrorf("--start %s is not before --end %s: the range [start, end) would be empty",
			keyspace.Printable(req.start), keyspace.Printable(req.end))
	}
	return req, nil
}
