// Package export makes the review artifacts of btviz without a terminal,
// so that they can be made in CI: a screenshot of any TUI view as PNG,
// SVG, plain text or ANSI text ([Write], the engine of `btviz export`),
// heatmap pictures for a Markdown report ([ReportImages], behind `btviz
// report --images DIR`) and a side-by-side before/after heatmap of two
// snapshots ([DiffImage], behind `btviz diff A B --out FILE`).
//
// A screenshot is exactly the frame the TUI shows for the same snapshot,
// view and size: [Frame] draws it with the TUI's headless renderer
// ([tui.RenderFrame]), and the screenshot package ([screenshot.PNG],
// [screenshot.SVG], [screenshot.Text], [screenshot.ANSI]) turns it into an
// image or text under a title bar "btviz — table — view/metric" ([Title]).
// Heatmap pictures are drawn by [heatmap.RenderPNG] and
// [heatmap.RenderSVG]; two of them side by side share one colour scale
// ([ShareScale]) so that brightness means the same on both. Every file is
// written atomically: to a temporary file in the same directory, renamed
// into place once complete.
//
// Keys never reach an output raw: the TUI, the heatmap renderers and the
// captions made here escape them with [keyspace.Printable], and file
// names are built from indexes and finding kinds, never from keys.
package export
