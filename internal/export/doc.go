// Package export makes the review artifacts of btviz without a terminal,
// so that they can be made in CI: a chart of any TUI view as PNG, SVG,
// plain text or ANSI text ([Write], the engine of `btviz export`),
// heatmap pictures for a Markdown report ([ReportImages], behind `btviz
// report --images DIR`) and a side-by-side before/after heatmap of two
// snapshots ([DiffImage], behind `btviz diff A B --out FILE`).
//
// A chart is the view drawn for a reader ([Render]): the heatmap of the
// buckets the TUI shows at the same size ([view.HeatView]), its title and
// subtitle whole, every bucket a finding names labelled and the finding's
// range marked with its number and share ([render.Mark]), the legend in
// whole counts, and the view's list under it; no key help, no selection.
// With [Options.Frame] the export is instead exactly the frame the TUI
// shows: [Frame] draws it with the TUI's headless renderer
// ([view.RenderFrame]), and package render ([render.FramePNG],
// [render.FrameSVG], [render.FrameText], [render.FrameANSI]) turns it into an
// image or text under a title bar "btviz — table — view/metric", as the
// TUI's screenshot key writes it. A view the snapshot cannot draw is an
// error ([ErrCannotDraw]), never a picture of the error. Heatmap pictures
// are drawn by [render.ChartPNG] and [render.ChartSVG]; two of them
// side by side share one colour scale ([ShareScale]) so that brightness
// means the same on both. Every file is written atomically: to a
// temporary file in the same directory, renamed into place once complete
// and synced.
//
// Keys never reach an output raw: the TUI, the heatmap renderers and the
// captions made here escape them with [keyspace.Printable], and file
// names are built from indexes and finding kinds, never from keys.
package export
