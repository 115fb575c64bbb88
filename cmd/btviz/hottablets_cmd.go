package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/hottablets"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/units"
)

// hotFlags ask for hot tablets: --hot-tablets DURATION and --cluster C.
type hotFlags struct {
	window, cluster string
}

func (f *hotFlags) register(flags *pflag.FlagSet) {
	flags.StringVar(&f.window, "hot-tablets", "", "also read the table's hot tablets of this last window from Cloud Bigtable's ListHotTablets, e.g. 24h or 14d (at most 14d): the cpu metric and the hot-tablet finding")
	flags.StringVar(&f.cluster, "cluster", "", "with --hot-tablets: only this cluster's (default: every cluster of the instance)")
}

// asked reports whether hot tablets were asked for.
func (f *hotFlags) asked() bool { return f.window != "" }

// parse checks the flags: the window they ask, within what the API
// answers.
func (f *hotFlags) parse(cmd *cobra.Command) (time.Duration, error) {
	if !f.asked() {
		if cmd.Flags().Changed("cluster") {
			return 0, usageErrorf("--cluster picks the cluster of --hot-tablets: give --hot-tablets DURATION too")
		}
		return 0, nil
	}
	w, err := hottablets.ParseWindow(f.window)
	if err != nil {
		return 0, usageErrorf("--hot-tablets: %w", err)
	}
	if w, err = hottablets.CheckWindow(w); err != nil {
		return 0, usageErrorf("--hot-tablets: %w", err)
	}
	return w, nil
}

// fetchHotTablets reads the hot tablets of table (every table's when
// empty) in the last window from the instance of t.
func (a *app) fetchHotTablets(ctx context.Context, t connect.Target, window time.Duration, cluster, table string) (*keyspace.HotTablets, error) {
	client, err := hottablets.Dial(ctx, t)
	if err != nil {
		return nil, usageError(err)
	}
	defer client.Close()
	hot, err := client.Fetch(ctx, hottablets.Options{Window: window, Cluster: cluster, Table: table})
	if err != nil {
		return nil, usageError(err)
	}
	if len(hot.Tablets) == 0 {
		fmt.Fprintf(a.stderr, "btviz: %s\n", safeMessage(hottablets.NoneError(hot, table).Error()))
	}
	return hot, nil
}

func (a *app) hotTabletsCommand() *cobra.Command {
	var target targetFlags
	var last, cluster, format, out string
	cmd := &cobra.Command{
		Use:   "hot-tablets [--project P --instance I] [--table T] [--last DURATION] [--cluster C] [--format text|json] [--out FILE]",
		Short: "List an instance's hot tablets (Cloud Bigtable's ListHotTablets): cluster, table, key range, node CPU, when",
		Long: "Ask every cluster of the instance (or --cluster) for its hot tablets of the last window\n" +
			"(--last, default 24h, at most 14d: asked in requests of 48 hours, every page) and list\n" +
			"them, the highest node CPU first: cluster, table, key range (both keys inclusive, as the\n" +
			"API gives them; a one-row tablet is its row), the share of its node's CPU and when.\n" +
			"--table keeps one table's; --out FILE.btviz (with --table) also saves them as a snapshot\n" +
			"of hot tablets alone, which `btviz open`, `report` and `export` read, on their own key\n" +
			"axis or joined with a scan of the table (btviz open scan.btviz hot.btviz).\n\n" +
			"It needs the IAM permission " + hottablets.Permission + " on the instance (" + hottablets.PermissionRole + "\n" +
			"grants it) and Application Default Credentials, as scans do. The emulator has no hot\n" +
			"tablets; `btviz --emulator --traffic WORKLOAD` shows simulated ones.",
		Example: "  btviz hot-tablets --project my-project --instance prod\n" +
			"  btviz hot-tablets --project my-project --instance prod --table events --last 14d --format json\n" +
			"  btviz hot-tablets --project my-project --instance prod --table events --out hot.btviz\n" +
			"  btviz open events.btviz hot.btviz   # the hot tablets on a scan's key axis",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			window := hottablets.DefaultWindow
			if last != "" {
				w, err := hottablets.ParseWindow(last)
				if err != nil {
					return usageErrorf("--last: %w", err)
				}
				if window, err = hottablets.CheckWindow(w); err != nil {
					return usageErrorf("--last: %w", err)
				}
			}
			if format != "text" && format != "json" {
				return usageErrorf("--format %s: give text or json", escape.Quote(format))
			}
			if out != "" && target.Table == "" {
				return usageErrorf("--out saves one table's hot tablets: name it with --table")
			}
			t, err := a.resolveTarget(target.Flags)
			if err != nil {
				return err
			}
			hot, err := a.fetchHotTablets(cmd.Context(), t, window, cluster, target.Table)
			if err != nil {
				return err
			}
			if out != "" {
				source := keyspace.SourceBigtable
				if t.IsEmulator() {
					source = keyspace.SourceEmulator
				}
				if err := keyspace.Save(out, keyspace.HotTabletsSnapshot(hot, target.Table, source)); err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "wrote %s: %s hot-tablet samples of table %s\n", escape.Text(out), units.Thousands(int64(len(hot.Tablets))), escape.Quote(target.Table))
			}
			if format == "json" {
				return writeHotJSON(a.stdout, hot)
			}
			return writeHotText(a.stdout, hot, t)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return commandLineError(err) })
	target.register(cmd.Flags())
	cmd.Flags().MarkHidden("app-profile")
	cmd.Flags().StringVar(&last, "last", "", "the window to ask for, back from now: e.g. 6h, 24h, 7d (default 24h, at most 14d)")
	cmd.Flags().StringVar(&cluster, "cluster", "", "only this cluster's (default: every cluster of the instance)")
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	cmd.Flags().StringVar(&out, "out", "", "with --table: also save the hot tablets as a snapshot file (btviz open, report and export read it)")
	return cmd
}

// resolveTarget resolves the target flags of a command that needs a
// named instance (no embedded emulator).
func (a *app) resolveTarget(flags connect.Flags) (connect.Target, error) {
	t, scenarios, err := a.resolve(flags)
	if err != nil {
		return t, err
	}
	if scenarios != nil {
		return t, usageErrorf("the embedded emulator has no hot tablets (only Cloud Bigtable does): give --project and --instance, or see simulated ones with `btviz --emulator --traffic read-hotspot`")
	}
	return t, nil
}

// writeHotJSON writes `btviz hot-tablets --format json`: the report's
// hot_tablets document with every sample, and a version.
func writeHotJSON(w io.Writer, hot *keyspace.HotTablets) error {
	doc := struct {
		Version int `json:"version"`
		*report.HotTabletsDoc
	}{report.DocumentVersion, report.HotTablets(hot, -1)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func writeHotText(w io.Writer, hot *keyspace.HotTablets, t connect.Target) error {
	fmt.Fprintf(w, "hot tablets of %s, %s to %s, %s (ListHotTablets)\n", t.Where(), hot.From.Format("2006-01-02 15:04Z"), hot.To.Format("2006-01-02 15:04Z"),
		"cluster "+escape.Text(strings.Join(hot.Clusters, ", ")))
	if len(hot.Tablets) == 0 {
		_, err := fmt.Fprintln(w, "none: no tablet used a large share of a node's CPU in the window")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLUSTER\tTABLE\tKEYS (INCLUSIVE)\tNODE CPU\tFROM\tTO")
	for _, h := range hot.Tablets {
		keys := "[" + tabletKey(h.StartKey, "(table start)") + ", " + tabletKey(h.EndKey, "(table end)") + "]"
		if row, ok := h.OneRow(); ok {
			keys = "row " + row.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", escape.Text(h.Cluster), escape.Text(h.Table), keys, units.Percent(h.CPU/100),
			h.Start.Format("2006-01-02 15:04Z"), h.End.Format("15:04Z"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	tablets := map[[3]string]bool{}
	for _, h := range hot.Tablets {
		tablets[[3]string{h.Cluster, string(h.StartKey), string(h.EndKey)}] = true
	}
	_, err := fmt.Fprintf(w, "%s samples of %s tablets; keys escaped as \\xNN\n", units.Thousands(int64(len(hot.Tablets))), units.Thousands(int64(len(tablets))))
	return err
}

// tabletKey writes a hot tablet's bound, empty as what it stands for.
func tabletKey(k keyspace.Key, empty string) string {
	if k == "" {
		return empty
	}
	return k.String()
}
