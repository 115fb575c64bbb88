package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/export"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/units"
)

func (a *app) diffCommand() *cobra.Command {
	var format, out string
	var force bool
	cmd := &cobra.Command{
		Use:   "diff BEFORE.btviz AFTER.btviz [--format FORMAT] [--out IMAGE]",
		Short: "Show what changed between two snapshots of a table",
		Long: "Compare two snapshots of the same table, before and after a key redesign or a data load:\n" +
			"per-prefix changes in rows, bytes and write share, and the findings that appeared or\n" +
			"disappeared. --out also draws the two heatmaps side by side on one colour scale.\n" +
			"Snapshots of two different tables (a table and its redesigned copy) need --force.",
		Example: "  btviz diff before.btviz after.btviz\n" +
			"  btviz diff celebrity.btviz salted.btviz --force --format markdown --out salting.png",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return flagError(fmt.Errorf("diff takes two snapshot files, BEFORE and AFTER (got %d); `btviz scan --out FILE` writes them", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			outFormat, err := report.ParseFormat(format)
			if err != nil {
				return usageErrorf("--format: %w", err)
			}
			var snaps [2]*keyspace.Snapshot
			for i, path := range args {
				if snaps[i], err = a.loadSnapshot(path); err != nil {
					return err
				}
			}
			in := report.DiffInput{
				A: snaps[0], B: snaps[1],
				FindingsA: diagnose.Diagnose(snaps[0]), FindingsB: diagnose.Diagnose(snaps[1]),
				LabelA: filepath.Base(args[0]), LabelB: filepath.Base(args[1]),
				AllowDifferentTables: force,
			}
			if out != "" {
				if err := export.WriteDiffImage(out, snaps[0], snaps[1], export.DiffImageOptions{FindingsA: in.FindingsA, FindingsB: in.FindingsB}); err != nil {
					return usageError(err)
				}
				in.Images = append(in.Images, report.Image{Alt: "before and after, one colour scale", Path: out})
			}
			body, err := report.Diff(outFormat, in)
			if errors.Is(err, keyspace.ErrDifferentTables) {
				return usageErrorf("%w", err)
			}
			if err != nil {
				return err
			}
			if _, err := a.stdout.Write(body); err != nil {
				return fmt.Errorf("writing the diff: %w", err)
			}
			if out != "" {
				fmt.Fprintf(a.stderr, "wrote %s\n", escape.Text(out))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "diff format: "+units.OrList(report.Formats()))
	cmd.Flags().StringVar(&out, "out", "", "also draw both heatmaps side by side into this "+artifact.ExtensionList(artifact.ImageFormats())+" file")
	cmd.Flags().BoolVar(&force, "force", false, "compare snapshots of two different tables (a table and its redesigned copy)")
	return cmd
}
