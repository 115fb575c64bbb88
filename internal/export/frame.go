package export

import (
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// Frame returns the frame the TUI shows for snap and its findings in the
// view o describes, at o's size and theme: exactly what the interactive
// program would draw in a terminal of that size (see [view.RenderFrame]).
// [artifact.FormatText] frames are drawn without colour, others with o.Profile
// (default true colour).
func Frame(snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) string {
	o = o.withDefaults()
	return view.RenderFrame(snap, findings, o.viewState(), o.Width, o.Height, !o.Light, o.profile())
}

// viewState is the TUI view state the options describe.
func (o Options) viewState() view.ViewState {
	return view.ViewState{Prefix: o.Prefix, Metric: o.Metric, Bucketing: o.Bucketing, Scale: heatmap.Scale{Kind: o.Scale}, Palette: o.Palette}.Showing(o.View)
}

// profile is the colour profile the frame is drawn for.
func (o Options) profile() colorprofile.Profile {
	switch {
	case o.Format == artifact.FormatText:
		return colorprofile.NoTTY
	case o.Profile == 0:
		return colorprofile.TrueColor
	}
	return o.Profile
}

// frame is the review artifact of the view o describes: the TUI's frame,
// its size and theme, and the screenshot title the TUI's screenshot key
// gives the same view ([view.ScreenshotTitle]).
func (o Options) frame(snap *keyspace.Snapshot, findings []diagnose.Finding) artifact.Frame {
	return artifact.Frame{
		Text: Frame(snap, findings, o), Columns: o.Width, Rows: o.Height, Dark: !o.Light,
		Title: view.ScreenshotTitle(snap, o.viewState()),
	}
}
