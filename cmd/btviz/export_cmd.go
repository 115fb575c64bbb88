package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/export"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/units"
	"github.com/btviz/btviz/internal/view"
)

func (a *app) exportCommand() *cobra.Command {
	f := snapshotFlags{prefixIsView: true}
	var flags export.Flags
	cmd := &cobra.Command{
		Use:   "export [--table T | --snapshot FILE] --out FILE [--view V] [--size WxH]",
		Short: "Write what btviz shows as an image or text, without a terminal",
		Long: "Draw a view of a table as a chart for a reader and write it to a file: the heatmap with\n" +
			"its title and subtitle, a label on every key bucket a finding names, each finding's key\n" +
			"range marked with its number (as the report numbers it) and its share, the legend, and\n" +
			"the view's list under it (the findings, the largest rows, the hottest rows); no key help\n" +
			"and no selection. --view picks the view: " + view.PaneNames() + ". --size is the terminal\n" +
			"size the view is drawn for: the chart shows the key buckets the interactive view shows at\n" +
			"that size, and an image is as large as a screenshot of it. --frame writes the interactive\n" +
			"frame instead, exactly what the view's `s` key saves.\n\n" +
			"The end of --out picks the format: " + artifact.ExtensionList(artifact.Formats()) + " (PNG or SVG for\n" +
			"reviews, plain text, or text with colours for `cat` in a terminal). It needs no terminal,\n" +
			"so it runs in CI and scripts. A view the snapshot cannot draw (a traffic metric of a scan)\n" +
			"is an error: exit 2, and no file is written.",
		Example: "  btviz export --emulator --table social-celebrity --out celebrity.png\n" +
			"  btviz export --snapshot events.btviz --view findings --size 160x50 --out findings.svg\n" +
			"  btviz export --snapshot events.btviz --prefix 'user#' --metric bytes --theme light --out users.png\n" +
			"  btviz export --snapshot events.btviz --frame --out frame.png   # the interactive frame",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			flags.Prefix = f.scan.prefix
			opts, err := export.ParseOptions(flags)
			if err != nil {
				return usageError(err)
			}
			got, err := a.acquire(cmd, &f)
			if err != nil {
				return err
			}
			if err := export.Write(flags.Out, got.snap, diagnose.Diagnose(got.snap), opts); err != nil {
				return usageError(err)
			}
			what := "chart"
			if opts.Frame {
				what = "frame"
			}
			fmt.Fprintf(a.stderr, "wrote %s (%s of the %s view of table %s)\n", escape.Text(flags.Out), what, opts.View, escape.Quote(got.snap.Table))
			return got.partial
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&flags.Out, "out", "", "file to write, ending in "+artifact.ExtensionList(artifact.Formats()))
	cmd.Flags().StringVar(&flags.View, "view", "", "what to show: "+view.PaneNames()+" (default heatmap)")
	cmd.Flags().StringVar(&flags.Metric, "metric", "", "heatmap metric: "+units.OrList(heatmap.Metrics()))
	cmd.Flags().StringVar(&flags.Bucketing, "bucketing", "", "key buckets: "+units.OrList(heatmap.Bucketings()))
	cmd.Flags().StringVar(&flags.Scale, "scale", "", "colour scale: "+units.OrList(heatmap.ScaleKinds())+" (default linear)")
	cmd.Flags().StringVar(&flags.Palette, "palette", "", "colours of the heat: "+units.OrList(render.PaletteNames())+" (default viridis)")
	cmd.Flags().StringVar(&flags.Size, "size", "", fmt.Sprintf("terminal size to draw, columns x rows (default %dx%d; %s)", export.DefaultWidth, export.DefaultHeight, export.SizeLimits()))
	cmd.Flags().BoolVar(&flags.Frame, "frame", false, "write the interactive frame (key help, selection), as the view's s key does, instead of a chart")
	cmd.Flags().StringVar(&flags.Theme, "theme", "", "colours: "+units.OrList(view.Themes())+" (default dark: a file has no terminal background to follow)")
	return cmd
}
