package main

import (
	"context"
	"errors"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/tui"
)

func (a *app) rootCommand() *cobra.Command {
	var target targetFlags
	var scan scanFlags
	var theme, screenshots string
	cmd := &cobra.Command{
		Use:   "btviz [--project P --instance I] [--table T] [scan flags]",
		Short: "An offline Key Visualizer for Cloud Bigtable, in the terminal",
		Long: "btviz reads a Bigtable table's row keys (SampleRowKeys plus parallel scans), shows where\n" +
			"rows, bytes and writes concentrate in an interactive heatmap with drill-down into key\n" +
			"prefixes, and names the row-key design problems it finds: hotspots, timestamp-leading\n" +
			"and sequential keys, oversized rows and more. No Key Visualizer, no hour of traffic needed.\n\n" +
			"Without --table it starts on a list of the instance's tables. Press ? inside for the keys.",
		Example: "  btviz --emulator                       # embedded emulator with demo tables\n" +
			"  btviz --project p --instance i --table events\n" +
			"  btviz open events.btviz",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req, err := scan.validate(cmd)
			if err != nil {
				return err
			}
			cfg := tui.Config{Table: target.Table, Scan: req.options()}
			if cfg.Theme, err = tui.ParseTheme(theme); err != nil {
				return usageError(err)
			}
			if cfg.ScreenshotDir, err = screenshotDir(screenshots); err != nil {
				return err
			}
			if err := a.requireTerminal(); err != nil {
				return err
			}
			backend, closeBackend, err := a.backend(cmd.Context(), target.Flags)
			if err != nil {
				return err
			}
			defer closeBackend()
			cfg.Backend = backend
			return a.runTUI(cmd.Context(), cfg)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError(err) })
	target.register(cmd.Flags())
	scan.register(cmd.Flags())
	cmd.Flags().StringVar(&theme, "theme", "auto", "colours: auto (from the terminal's background), dark or light")
	registerScreenshotDir(cmd, &screenshots)
	cmd.AddCommand(a.openCommand(), a.scanCommand(), a.reportCommand(), a.exportCommand(), a.diffCommand(), a.seedCommand(), a.emulatorCommand())
	return cmd
}

func (a *app) openCommand() *cobra.Command {
	var theme, screenshots string
	cmd := &cobra.Command{
		Use:     "open FILE.btviz",
		Short:   "Explore a saved snapshot in the interactive view (no network)",
		Example: "  btviz scan --emulator --table social-celebrity --out celebrity.btviz\n  btviz open celebrity.btviz",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return flagError(errors.New("open takes one snapshot file, written by `btviz scan --out FILE`"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			parsed, err := tui.ParseTheme(theme)
			if err != nil {
				return usageError(err)
			}
			dir, err := screenshotDir(screenshots)
			if err != nil {
				return err
			}
			snap, err := a.loadSnapshot(args[0])
			if err != nil {
				return err
			}
			if err := a.requireTerminal(); err != nil {
				return err
			}
			return a.runTUI(cmd.Context(), tui.Config{
				Snapshot: snap, Table: snap.Table, Theme: parsed, ScreenshotDir: dir,
				Backend: tui.NewSnapshotBackend(args[0], snap),
			})
		},
	}
	cmd.Flags().StringVar(&theme, "theme", "auto", "colours: auto, dark or light")
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
	if err != nil {
		return "", usageErrorf("--screenshot-dir %s: %w; name an existing directory", dir, err)
	}
	if !info.IsDir() {
		return "", usageErrorf("--screenshot-dir %s is a file; name a directory", dir)
	}
	return dir, nil
}

// backend opens what the interactive view reads tables through: the
// embedded demo (loading in the background, so the picker shows at once)
// for --emulator without an address, otherwise a connection to the target.
func (a *app) backend(ctx context.Context, flags connect.Flags) (tui.Backend, func(), error) {
	t, demo, err := a.resolve(flags)
	switch {
	case err != nil:
		return nil, nil, err
	case demo != nil:
		// Every demo table, even with --table: the picker lists them all.
		backend, err := tui.NewDemoBackend(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		return backend, func() { backend.Close() }, nil
	}
	conn, err := a.open(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return tui.NewConnBackend(conn), func() { conn.Close() }, nil
}

// runTUI runs the interactive view until the user quits; Ctrl+C from
// outside (SIGINT, SIGTERM) is a normal way out too.
func (a *app) runTUI(ctx context.Context, cfg tui.Config) error {
	if in, ok := a.stdin.(*os.File); ok {
		a.terminal.save(in, a.stdout)
		defer a.terminal.forget()
	}
	err := tui.Run(ctx, cfg, a.stdin, a.stdout)
	if errors.Is(err, context.Canceled) {
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
