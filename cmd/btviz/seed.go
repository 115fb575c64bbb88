package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/units"
)

func (a *app) seedCommand() *cobra.Command {
	var target targetFlags
	var scenarios string
	var list bool
	cmd := &cobra.Command{
		Use:   "seed --scenario NAME[,NAME…]|all",
		Short: "Load demo tables with row-key patterns into an emulator",
		Long: "Load demo tables into the Bigtable emulator at $BIGTABLE_EMULATOR_HOST (or --emulator-host):\n" +
			"each scenario is one table showing a row-key design from the Bigtable schema-design guide,\n" +
			"good or bad. seed writes only to an emulator; it refuses any other target.",
		Example: "  btviz seed --list\n  btviz seed --scenario all\n" +
			"  btviz seed --scenario social-celebrity,social-celebrity-salted --emulator-host localhost:8086",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if list {
				return a.listScenarios()
			}
			if scenarios == "" {
				return usageErrorf("name the scenarios to load: --scenario NAME[,NAME…] or --scenario all (btviz seed --list shows them)")
			}
			chosen, err := demo.Lookup(scenarios)
			if err != nil {
				return usageError(err)
			}
			t, err := connect.Resolve(target.Flags, a.getenv, connect.Cbtrc{})
			if !t.IsEmulator() {
				return usageErrorf("btviz seed writes demo tables and only into an emulator, and no emulator is named: set %s or pass --emulator-host (`btviz emulator` starts one); nothing was written",
					connect.EmulatorHostEnv)
			}
			if err != nil {
				return usageError(err)
			}
			return a.seed(cmd.Context(), t, chosen)
		},
	}
	target.register(cmd.Flags())
	cmd.Flags().MarkHidden("table")
	cmd.Flags().MarkHidden("app-profile")
	cmd.Flags().MarkHidden("emulator")
	cmd.Flags().StringVar(&scenarios, "scenario", "", "scenarios to load, comma-separated, or \"all\"")
	cmd.Flags().BoolVar(&list, "list", false, "list the scenarios and exit")
	return cmd
}

func (a *app) listScenarios() error {
	w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SCENARIO\tROWS\tDESIGN\tDESCRIPTION")
	for _, sc := range demo.Scenarios() {
		design := "bad"
		if sc.Good {
			design = "good"
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", sc.Name, sc.Rows, design, sc.Description)
	}
	return w.Flush()
}

// seed loads scenarios into the emulator target t, reporting progress on
// stderr.
func (a *app) seed(ctx context.Context, t connect.Target, scenarios []demo.Scenario) error {
	conn, err := connect.Open(ctx, t)
	if err != nil {
		return usageError(err)
	}
	defer conn.Close()
	started := time.Now()
	fmt.Fprintf(a.stderr, "loading %d demo tables into %s …\n", len(scenarios), t.Where())
	err = emulator.Seed(ctx, conn.Admin, conn.Client, scenarios, nil)
	if err != nil {
		return fmt.Errorf("seeding %s: %w", t.Where(), err)
	}
	fmt.Fprintf(a.stderr, "loaded %d tables in %s\n", len(scenarios), units.Duration(time.Since(started)))
	return nil
}
