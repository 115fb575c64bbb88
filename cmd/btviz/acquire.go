package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
)

// snapshotFlags select where a command's snapshot comes from: a live scan
// of the target, or a snapshot file.
type snapshotFlags struct {
	target    targetFlags
	scan      scanFlags
	hot       hotFlags
	snapshots []string
	// prefixIsView says that --prefix also places the view (export), so
	// it goes with --snapshot too: there it only places the view.
	prefixIsView bool
}

func (f *snapshotFlags) register(cmd *cobra.Command) {
	f.target.register(cmd.Flags())
	f.scan.register(cmd.Flags())
	f.hot.register(cmd.Flags())
	cmd.Flags().StringArrayVar(&f.snapshots, "snapshot", nil, "read a snapshot (`btviz scan --out`), a traffic recording (`btviz record --out`) or hot tablets (`btviz hot-tablets --out`) instead of scanning; "+
		"give a scan and its traffic to join them, several recordings of one table to merge them")
}

// acquired is a snapshot and how it was obtained. partial holds the
// error of a scan that stopped part-way: the snapshot is still usable and
// must be written, then the command exits 3.
type acquired struct {
	snap     *keyspace.Snapshot
	fromFile bool
	partial  error
}

// acquire loads the --snapshot file or scans the target's table.
func (a *app) acquire(cmd *cobra.Command, f *snapshotFlags) (acquired, error) {
	req, err := f.scan.validate(cmd)
	if err != nil {
		return acquired{}, err
	}
	window, err := f.hot.parse(cmd)
	if err != nil {
		return acquired{}, err
	}
	if len(f.snapshots) > 0 {
		if f.hot.asked() {
			return acquired{}, usageErrorf("--hot-tablets reads them from an instance, --snapshot reads files: save a table's hot tablets with " +
				"`btviz hot-tablets --table T --out hot.btviz` and give that file as another --snapshot, or scan with --hot-tablets")
		}
		for _, name := range []string{"project", "instance", "emulator", "emulator-host", "prefix", "start", "end", "full", "sample", "max-rows", "max-read"} {
			if cmd.Flags().Changed(name) && !(name == "prefix" && f.prefixIsView) {
				return acquired{}, usageErrorf("--snapshot reads a saved scan; --%s would need a new one: give one or the other", name)
			}
		}
		snaps, err := a.readSnapshots(f.snapshots)
		if err != nil {
			return acquired{}, err
		}
		snap, err := pickTable(snaps, f.target.Table)
		if err != nil {
			return acquired{}, err
		}
		return acquired{snap: snap, fromFile: true}, nil
	}
	if f.target.Table == "" {
		return acquired{}, usageErrorf("name the table to scan with --table, or read a saved scan with --snapshot FILE (`btviz --emulator` or `btviz` alone lists the tables)")
	}
	t, stop, err := a.target(cmd.Context(), f.target.Flags)
	if err != nil {
		return acquired{}, err
	}
	defer stop()
	// Hot tablets first: a refused permission stops the command before
	// a scan is spent.
	var hot *keyspace.HotTablets
	if f.hot.asked() {
		if hot, err = a.fetchHotTablets(cmd.Context(), t, window, f.hot.cluster, t.Table); err != nil {
			return acquired{}, err
		}
	}
	// sampler.Scan checks that the table exists (and names the ones that
	// do); no need to ask twice.
	conn, err := connect.Open(cmd.Context(), t)
	if err != nil {
		return acquired{}, usageError(err)
	}
	defer conn.Close()
	snap, err := sampler.Scan(cmd.Context(), conn, t.Table, a.samplerOptions(req))
	if snap != nil && hot != nil {
		snap = keyspace.WithHotTablets(snap, hot)
	}
	switch {
	case errors.Is(err, sampler.ErrIncomplete) && snap != nil:
		return acquired{snap: snap, partial: partialError(err)}, nil
	case errors.Is(err, connect.ErrTableNotFound), errors.Is(err, sampler.ErrBadOptions):
		return acquired{}, usageError(err)
	case err != nil:
		return acquired{}, fmt.Errorf("scanning table %s in %s: %w", escape.Quote(t.Table), t.Where(), err)
	}
	return acquired{snap: snap}, nil
}

// samplerOptions adds to validated scan options a progress bar on
// stderr when it is a terminal, and the scan's preview of what it will
// read when the tablet map is tablets (a real instance), or else why it
// reads other than asked (a --sample too small to read anything, a
// --max-rows below a row a key range).
func (a *app) samplerOptions(opts sampler.Options) sampler.Options {
	if f, ok := a.stderr.(*os.File); ok {
		opts.Progress = newProgressBar(f).update
	}
	opts.Preview = func(p sampler.Preview) {
		switch {
		case p.Tablets:
			fmt.Fprintln(a.stderr, "btviz:", p)
		case p.Note != "":
			fmt.Fprintln(a.stderr, "btviz:", p.Note)
		}
	}
	return opts
}
