package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/tui"
	"github.com/btviz/btviz/internal/units"
	"github.com/btviz/btviz/internal/view"
)

func (a *app) rootCommand() *cobra.Command {
	var target targetFlags
	var scan scanFlags
	var hot hotFlags
	var theme, traffic, screenshots string
	var listTraffic bool
	cmd := &cobra.Command{
		Use:   "btviz [--project P --instance I] [--table T] [scan flags]",
		Short: "An offline Key Visualizer for Cloud Bigtable, in the terminal",
		Long: "btviz reads a Bigtable table's row keys (SampleRowKeys plus parallel scans), shows where\n" +
			"rows, bytes and writes concentrate in an interactive heatmap with drill-down into key\n" +
			"prefixes, and names the row-key design problems it finds: hotspots, timestamp-leading\n" +
			"and sequential keys, oversized rows and more. No Key Visualizer, no hour of traffic needed.\n\n" +
			"Without --table it starts on a list of the instance's tables. Press ? inside for the keys.",
		Example: "  btviz --emulator                         # an embedded emulator with the demo tables\n" +
			"  btviz --emulator --traffic read-hotspot  # live demo traffic: a read hotspot appears\n" +
			"  btviz --project my-project --instance prod --table events\n" +
			"  btviz open events.btviz",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listTraffic {
				return a.listWorkloads()
			}
			req, err := scan.validate(cmd)
			if err != nil {
				return err
			}
			window, err := hot.parse(cmd)
			if err != nil {
				return err
			}
			cfg := tui.Config{Table: target.Table}
			if cfg.Theme, err = view.ParseTheme(theme); err != nil {
				return usageErrorf("--theme: %w", err)
			}
			if cfg.ScreenshotDir, err = screenshotDir(screenshots); err != nil {
				return err
			}
			if traffic != "" {
				if _, err := loadgen.Lookup(traffic); err != nil {
					return usageError(err)
				}
				for _, name := range []string{"project", "instance", "table", "emulator-host", "hot-tablets", "cluster"} {
					if cmd.Flags().Changed(name) {
						return usageErrorf("--traffic runs a demo workload on an embedded emulator of its own; --%s does not go with it (btviz record records your own application's traffic)", name)
					}
				}
			}
			if err := a.requireTerminal(); err != nil {
				return err
			}
			if traffic != "" {
				return a.trafficDemo(cmd.Context(), traffic, cfg, req)
			}
			if hot.asked() {
				t, err := a.resolveTarget(target.Flags)
				if err != nil {
					return err
				}
				cfg.HotTablets = &session.CloudHotTablets{Target: t, Window: window, Cluster: hot.cluster}
			}
			src, closeSource, err := a.source(cmd.Context(), target.Flags, req)
			if err != nil {
				return err
			}
			defer closeSource()
			cfg.Source = src
			return a.runTUI(cmd.Context(), cfg)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return commandLineError(err) })
	target.register(cmd.Flags())
	scan.register(cmd.Flags())
	hot.register(cmd.Flags())
	cmd.Flags().StringVar(&theme, "theme", "auto", "colours: "+units.OrList(view.Themes())+"; auto follows the terminal's background")
	registerScreenshotDir(cmd, &screenshots)
	cmd.Flags().StringVar(&traffic, "traffic", "", "with --emulator: run a demo workload through a recording proxy and show its traffic live (--list-traffic lists them)")
	cmd.Flags().BoolVar(&listTraffic, "list-traffic", false, "list the demo traffic workloads and exit")
	cmd.AddCommand(a.openCommand(), a.scanCommand(), a.reportCommand(), a.exportCommand(), a.diffCommand(), a.seedCommand(), a.emulatorCommand(), a.recordCommand(),
		a.hotTabletsCommand())
	a.registerCompletions(cmd)
	return cmd
}

func (a *app) openCommand() *cobra.Command {
	var theme, screenshots string
	cmd := &cobra.Command{
		Use:   "open FILE.btviz [FILE.btviz…]",
		Short: "Explore saved snapshots, traffic recordings and hot tablets in the interactive view (no network)",
		Long: "Open a snapshot (`btviz scan --out`), a traffic recording (`btviz record --out`) or hot\n" +
			"tablets (`btviz hot-tablets --out`) in the interactive view. Given a recording and a scan\n" +
			"of the same table, the view joins them: operations, reads and writes beside rows and\n" +
			"bytes, on one key axis. Several recordings of one table (one recording proxy beside each\n" +
			"instance of a service) are merged into one: counts add up, time is wall-clock time, and\n" +
			"a recorder whose clock seems off is noted. Hot tablets go on the scan's key axis, or on\n" +
			"their own. Files of several tables start on a list of them.",
		Example: "  btviz scan --emulator --table social-celebrity --out celebrity.btviz\n  btviz open celebrity.btviz\n" +
			"  btviz open traffic.btviz celebrity.btviz   # the recorded traffic on the scan's key axis\n" +
			"  btviz open pod-a.btviz pod-b.btviz pod-c.btviz events.btviz   # three sidecars' recordings as one",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 {
				return flagError(errors.New("open takes snapshot, recording or hot-tablet files: at least one"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			parsed, err := view.ParseTheme(theme)
			if err != nil {
				return usageErrorf("--theme: %w", err)
			}
			dir, err := screenshotDir(screenshots)
			if err != nil {
				return err
			}
			snaps, err := a.readSnapshots(args)
			if err != nil {
				return err
			}
			if err := a.requireTerminal(); err != nil {
				return err
			}
			cfg := tui.Config{Theme: parsed, ScreenshotDir: dir, Source: session.NewSnapshotSource(strings.Join(args, " + "), snaps...)}
			if len(snaps) == 1 {
				cfg.Snapshot, cfg.Table = snaps[0], snaps[0].Table
			}
			return a.runTUI(cmd.Context(), cfg)
		},
	}
	cmd.Flags().StringVar(&theme, "theme", "auto", "colours: "+units.OrList(view.Themes())+"; auto follows the terminal's background")
	registerScreenshotDir(cmd, &screenshots)
	return cmd
}

// registerScreenshotDir adds --screenshot-dir to an interactive command.
func registerScreenshotDir(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "screenshot-dir", "", "directory the s key saves screenshots in (default: the current directory)")
}

// screenshotDir checks a --screenshot-dir before the view starts, so that
// a typo is reported now rather than at the first screenshot.
func screenshotDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", usageErrorf("--screenshot-dir %s does not exist; name an existing directory", escape.Text(dir))
	}
	if err != nil {
		return "", usageErrorf("--screenshot-dir %s: %w; name an existing directory", escape.Text(dir), pathCause(err))
	}
	if !info.IsDir() {
		return "", usageErrorf("--screenshot-dir %s is a file; name a directory", escape.Text(dir))
	}
	return dir, nil
}

// source opens what the interactive view reads tables through: the
// embedded demo (loading in the background, so the picker shows at once)
// for --emulator without an address, otherwise a connection to the target;
// either scans a table with opts.
func (a *app) source(ctx context.Context, flags connect.Flags, opts sampler.Options) (source.Source, func(), error) {
	t, demo, err := a.resolve(flags)
	switch {
	case err != nil:
		return nil, nil, err
	case demo != nil:
		// Every demo table, even with --table: the picker lists them all.
		src, err := session.NewDemoSource(ctx, nil, opts)
		if err != nil {
			return nil, nil, err
		}
		return src, func() { src.Close() }, nil
	}
	conn, err := a.open(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return session.NewConnSource(conn, opts), func() { conn.Close() }, nil
}

// runTUI runs the interactive view until the user quits (q, or Ctrl+C as
// a key: exit 0) or SIGINT or SIGTERM from outside stops it: then it
// returns the [interrupted] cause, for exit 130 or 143.
func (a *app) runTUI(ctx context.Context, cfg tui.Config) error {
	if in, ok := a.stdin.(*os.File); ok {
		a.terminal.save(in, a.stdout)
	}
	err := tui.Run(ctx, cfg, a.stdin, a.stdout)
	// Not deferred: a panic that escapes the view leaves the saved state
	// for [app.recoverPanic] to put back.
	a.terminal.forget()
	if errors.Is(err, context.Canceled) {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause
		}
		return nil
	}
	return err
}

// requireTerminal refuses to start the interactive view without one.
func (a *app) requireTerminal() error {
	in, inOK := a.stdin.(*os.File)
	out, outOK := a.stdout.(*os.File)
	if inOK && outOK && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd()) {
		return nil
	}
	return usageErrorf("the interactive view needs a terminal, and stdin or stdout is not one; for scripts use `btviz report` or `btviz export`")
}
