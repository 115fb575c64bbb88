package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/emulator"
)

func (a *app) rootCommand() *cobra.Command {
	var target targetFlags
	var scan scanFlags
	cmd := &cobra.Command{
		Use:   "btviz [--project P --instance I] [--table T] [scan flags]",
		Short: "An offline Key Visualizer for Cloud Bigtable, in the terminal",
		Long: "btviz reads a Bigtable table's row keys (SampleRowKeys plus parallel scans), shows where\n" +
			"rows, bytes and writes concentrate in an interactive heatmap with drill-down into key\n" +
			"prefixes, and names the row-key design problems it finds: hotspots, timestamp-leading\n" +
			"and sequential keys, oversized rows and more. No Key Visualizer, no hour of traffic needed.",
		Example: "  btviz --emulator                       # embedded emulator with demo tables\n" +
			"  btviz --project p --instance i --table events\n" +
			"  btviz open events.btviz",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := scan.validate(cmd); err != nil {
				return err
			}
			t, stop, err := a.target(cmd.Context(), target.Flags)
			if err != nil {
				return err
			}
			defer stop()
			return a.summary(cmd, t)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError(err) })
	target.register(cmd.Flags())
	scan.register(cmd.Flags())
	cmd.AddCommand(a.scanCommand(), a.reportCommand(), a.seedCommand(), a.emulatorCommand())
	return cmd
}

// summary prints the instance's tables and how to look at them.
func (a *app) summary(cmd *cobra.Command, t connect.Target) error {
	conn, err := a.open(cmd.Context(), t)
	if err != nil {
		return err
	}
	defer conn.Close()
	tables, err := conn.Tables(cmd.Context())
	if err != nil {
		return usageError(err)
	}
	descriptions := map[string]string{}
	for _, sc := range emulator.Scenarios() {
		descriptions[sc.Name] = sc.Description
	}
	fmt.Fprintf(a.stdout, "%d tables in %s:\n\n", len(tables), t.Where())
	w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tFAMILIES\tDESCRIPTION")
	for _, table := range tables {
		fmt.Fprintf(w, "%s\t%d\t%s\n", table.Name, len(table.Families), descriptions[table.Name])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return nil
}
