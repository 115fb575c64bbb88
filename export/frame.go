package export

import (
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/screenshot"
	"github.com/btviz/btviz/tui"
)

// Frame returns the frame the TUI shows for snap and its findings in the
// view o describes, at o's size and theme: exactly what the interactive
// program would draw in a terminal of that size (see [tui.RenderFrame]).
// [FormatText] frames are drawn without colour, others with o.Profile
// (default true colour).
func Frame(snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) string {
	o = o.withDefaults()
	return tui.RenderFrame(snap, findings, o.viewState(), o.Width, o.Height, !o.Light, o.profile())
}

// viewState is the TUI view state the options describe.
func (o Options) viewState() tui.ViewState {
	return tui.ViewState{Prefix: o.Prefix, Metric: o.Metric, Bucketing: o.Bucketing}.Showing(o.View)
}

// profile is the colour profile the frame is drawn for.
func (o Options) profile() colorprofile.Profile {
	switch {
	case o.Format == FormatText:
		return colorprofile.NoTTY
	case o.Profile == 0:
		return colorprofile.TrueColor
	}
	return o.Profile
}

// Title returns the title bar of a screenshot: "btviz — table —
// view/metric", and the prefix when the view has one, all escaped by
// [keyspace.Printable].
func Title(snap *keyspace.Snapshot, o Options) string {
	o = o.withDefaults()
	table := "(no table)"
	if snap != nil {
		table = keyspace.Printable(snap.Table)
	}
	what := string(o.View)
	if o.View != tui.PaneRows {
		metric := o.Metric
		if metric == "" {
			metric = heatmap.MetricWrites
		}
		what += "/" + string(metric)
	}
	title := "btviz — " + table + " — " + what
	if o.Prefix != "" {
		title += " — " + o.Prefix.String()
	}
	return title
}

// screenshotOptions are the screenshot settings of the options: the
// frame's grid size, the theme's colours and the [Title]. The SVG embeds
// Go Mono so that it looks as the PNG does.
func (o Options) screenshotOptions(snap *keyspace.Snapshot) screenshot.Options {
	theme := screenshot.DarkTheme()
	if o.Light {
		theme = screenshot.LightTheme()
	}
	return screenshot.Options{Theme: theme, Columns: o.Width, Rows: o.Height, EmbedFont: true, Title: Title(snap, o)}
}
