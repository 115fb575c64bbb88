package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
)

// renderChart writes the chart of the view o describes ([buildChart]) in
// o.Format: a PNG or SVG of the size the same view's frame would have
// ([Options.Frame]), or text of o's size in cells.
func renderChart(w io.Writer, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	if !o.Format.IsImage() {
		return renderTextChart(w, snap, findings, o)
	}
	size, err := pngFrame(o.Width, o.Height).PixelSize()
	if err != nil {
		return err
	}
	c, err := buildChart(snap, findings, o, size.X/chartColumnPixels)
	if err != nil {
		return err
	}
	opts := render.ImageOptions{Width: size.X, Height: size.Y, Theme: render.NewTheme(!o.Light), Palette: c.palette,
		Scale: c.scale, Caption: c.caption, Marks: c.marks, Notes: c.notes}
	if o.Format == artifact.FormatSVG {
		return render.ChartSVG(w, c.matrix, opts)
	}
	return render.ChartPNG(w, c.matrix, opts)
}

// minTextHeatLines is the least a text chart keeps for its heatmap when
// its caption and notes are long.
const minTextHeatLines = 10

// renderTextChart writes the chart as o.Width×o.Height cells of text:
// the title and subtitle wrapped, the heatmap with its key labels, marks,
// time axis and legend ([render.HeatText]), and the notes wrapped under
// it (as many as fit, then a line saying how many are left out). ANSI
// text has colours and a bold title; plain text none.
func renderTextChart(w io.Writer, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	width := o.Width
	probe, err := buildChart(snap, findings, o, 1)
	if err != nil {
		return err
	}
	captionLines := func(c *chart) (title, rest []string) {
		subtitle := c.caption.Subtitle
		if shared := sharedPrefixNote(c.matrix); shared != "" {
			subtitle += " · " + shared
		}
		return wrapCells(c.caption.Title, width, 0), wrapCells(subtitle, width, 0)
	}
	title, subtitle := captionLines(probe)
	var notes []string
	for _, note := range probe.notes {
		notes = append(notes, wrapCells(note, width, 3)...)
	}
	heatLines := o.Height - len(title) - len(subtitle) - 1
	if len(notes) > 0 {
		room := max(heatLines-minTextHeatLines-1, 0)
		if len(notes) > room {
			left := len(notes) - max(room-1, 0)
			notes = append(notes[:max(room-1, 0)], fmt.Sprintf("… and %d more lines (the report lists everything)", left))
			if room == 0 {
				notes = nil
			}
		}
		if len(notes) > 0 {
			heatLines -= len(notes) + 1
		}
	}
	textOpts := render.TextOptions{Width: width, Height: max(heatLines, 1), Profile: o.profile(), Theme: render.NewTheme(!o.Light),
		Palette: probe.palette, Scale: probe.scale, Marks: probe.marks}
	layout := render.TextLayout(textOpts, probe.view.Metric.Timed())
	c, err := buildChartSized(snap, findings, o, max(layout.HeatLines, 1), layout.HeatWidth)
	if err != nil {
		return err
	}
	textOpts.Marks = c.marks
	if finalTitle, finalSubtitle := captionLines(c); len(finalTitle) == len(title) && len(finalSubtitle) == len(subtitle) {
		title, subtitle = finalTitle, finalSubtitle // the bucket count as drawn, on as many lines
	}
	bold := func(s string) string { return s }
	if o.Format == artifact.FormatANSI {
		bold = func(s string) string { return "\x1b[1m" + s + "\x1b[m" }
	}
	var b strings.Builder
	for _, line := range title {
		b.WriteString(bold(line) + "\n")
	}
	for _, line := range subtitle {
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
	for _, line := range strings.Split(render.HeatText(c.matrix, textOpts), "\n") {
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, line := range notes {
			b.WriteString(line + "\n")
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// sharedPrefixNote says what the "…" that starts a text chart's key
// labels stands for ("… = user#"), or "" when no label has one.
func sharedPrefixNote(m *heatmap.Matrix) string {
	for i := range m.Buckets {
		if strings.HasPrefix(m.Buckets[i].ShortLabel, "…") {
			return "… = " + m.SharedPrefix.String()
		}
	}
	return ""
}

// buildChartSized is [buildChart] with the matrix's rows and time columns
// given.
func buildChartSized(snap *keyspace.Snapshot, findings []diagnose.Finding, o Options, rows, columns int) (*chart, error) {
	o.rows = rows
	return buildChart(snap, findings, o, columns)
}

// wrapCells wraps text (escaped first) at spaces into lines of at most
// width cells, the lines after the first indented by hanging; a word
// wider than a line is cut with "…".
func wrapCells(text string, width, hanging int) []string {
	text = escape.Text(text)
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if ansi.StringWidth(word) > width-hanging {
			word = ansi.Truncate(word, width-hanging, "…")
		}
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = strings.Repeat(" ", hanging) + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
