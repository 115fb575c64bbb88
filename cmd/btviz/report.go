package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/export"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/units"
)

func (a *app) reportCommand() *cobra.Command {
	var f snapshotFlags
	var format, failOn, out, images string
	var whatIfs []string
	var allPrefixes bool
	cmd := &cobra.Command{
		Use:   "report [--table T | --snapshot FILE] [--format FORMAT] [--fail-on SEVERITY]",
		Short: "Write the findings about a table's key design as text, JSON or Markdown",
		Long: "Scan a table (or read a snapshot) and report what btviz finds: hotspots, timestamp-leading\n" +
			"and sequential keys, oversized rows and cells, and the other key-design problems of the\n" +
			"Bigtable schema guide, each with its key range, evidence and advice. With --fail-on, exit 1\n" +
			"when a finding reaches that severity, so that CI can gate on it. --what-if re-keys the\n" +
			"sampled rows to show what a redesign would do before you migrate.",
		Example: "  btviz report --emulator --table social-celebrity --format markdown\n" +
			"  btviz report --snapshot events.btviz --format json --fail-on warning\n" +
			"  btviz report --snapshot events.btviz --what-if 'salt(8)' --what-if 'promote(2)'",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			outFormat, err := report.ParseFormat(format)
			if err != nil {
				return usageErrorf("--format: %w", err)
			}
			var threshold diagnose.Severity
			if failOn != "" {
				if threshold, err = report.ParseFailOn(failOn); err != nil {
					return usageErrorf("--fail-on: %w", err)
				}
			}
			var transforms []diagnose.Transform
			for _, expr := range whatIfs {
				transform, err := diagnose.ParseTransform(expr)
				if err != nil {
					return usageErrorf("--what-if %q: %w", expr, err)
				}
				transforms = append(transforms, transform)
			}
			// Before the scan: a wrong flag must not cost a table's reading.
			if images != "" && outFormat != report.FormatMarkdown {
				return usageErrorf("--images draws pictures for the Markdown report: add --format markdown")
			}
			got, err := a.acquire(cmd, &f)
			if err != nil {
				return err
			}
			found := diagnose.Run(got.snap)
			in := report.Input{Snapshot: got.snap, Findings: found.Findings, Datasets: found.Datasets, FromFile: got.fromFile, AllTopPrefixes: allPrefixes}
			if len(transforms) > 0 && got.snap.Totals().Rows == 0 {
				return usageErrorf("--what-if: the scan of table %s found no rows, so there is nothing to transform; run the report without --what-if, or point it at a table or prefix that holds rows", escape.Quote(got.snap.Table))
			}
			for _, transform := range transforms {
				result, err := diagnose.RunWhatIf(got.snap, transform)
				if errors.Is(err, diagnose.ErrNoSample) {
					return usageErrorf("--what-if: %w", err)
				}
				if err != nil {
					return fmt.Errorf("--what-if: %w", err)
				}
				in.WhatIfs = append(in.WhatIfs, result)
			}
			if images != "" {
				if err := export.ReportImages(images, &in, export.ReportImageOptions{MarkdownDir: filepath.Dir(out)}); err != nil {
					return err
				}
			}
			body, err := report.Render(outFormat, in)
			if err != nil {
				return err
			}
			if err := a.writeOutput(out, body); err != nil {
				return err
			}
			if got.partial != nil {
				return got.partial
			}
			if failOn != "" && report.Gate(in.Findings, threshold) {
				return errFindingsGate
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "report format: "+units.OrList(report.Formats()))
	cmd.Flags().StringVar(&failOn, "fail-on", "", "exit 1 when a finding is at least this severe: "+diagnose.SeverityNames())
	cmd.Flags().StringVar(&out, "out", "", "write the report to this file instead of stdout")
	cmd.Flags().StringVar(&images, "images", "", "with --format markdown: draw heatmap PNGs into this directory and link them")
	cmd.Flags().BoolVar(&allPrefixes, "all-prefixes", false, "list every top-level prefix, with its rows' 95% interval, not only the largest ten")
	cmd.Flags().StringArrayVar(&whatIfs, "what-if", nil, "re-key the sampled rows and compare: salt(N), salt(N, prefix=K), reverse-ts(S), reverse(S), promote(S)")
	return cmd
}

// writeOutput writes body to path, or to stdout when path is empty.
func (a *app) writeOutput(path string, body []byte) error {
	if path == "" {
		if _, err := a.stdout.Write(body); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
		return nil
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(body); return err }); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	fmt.Fprintf(a.stderr, "wrote %s\n", escape.Text(path))
	return nil
}
