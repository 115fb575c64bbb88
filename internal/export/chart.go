package export

import (
	"errors"
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/units"
	"github.com/btviz/btviz/internal/view"
)

// Chart sizes: an image's time columns are about this many pixels wide.
const chartColumnPixels = 4

// chart is a view of a snapshot drawn for a reader rather than for the
// keyboard: the view's heatmap with its caption whole, the findings that
// point into it marked on it with their numbers, and the view's list
// (findings, largest rows, hot rows) written under it. It has no key
// help and no selection.
type chart struct {
	view    heatmap.View
	matrix  *heatmap.Matrix
	caption heatmap.Caption
	marks   []render.Mark
	notes   []string
	scale   heatmap.Scale
	palette render.Palette
}

// ErrCannotDraw is wrapped by the error of an export whose view cannot be
// drawn from the snapshot (a traffic metric of a scan, tablets of a
// recording): nothing is written.
var ErrCannotDraw = errors.New("cannot draw this view")

// buildChart builds the chart o describes: the matrix of the view the
// TUI would show at o's size (rows columns for an image's time axis of
// that many columns), the caption, the marks and the notes.
func buildChart(snap *keyspace.Snapshot, findings []diagnose.Finding, o Options, columns int) (*chart, error) {
	state := o.viewState()
	hv := view.HeatView(snap, state, o.Width, o.Height)
	if o.rows > 0 {
		hv.Rows = o.rows
	}
	switch o.View {
	case view.PanePrefixes:
		hv.Columns = 0 // a value a bucket, written beside it
	case view.PaneRows:
		if o.Metric == "" {
			hv.Metric = heatmap.MetricMaxRow
		}
	case view.PaneHot:
		if o.Metric == "" {
			hv.Metric = heatmap.MetricOps
		}
	}
	if hv.Metric.Timed() && columns > 0 && o.View != view.PanePrefixes {
		hv.Columns = columns
	}
	m, err := heatmap.Build(snap, hv)
	if err != nil {
		return nil, fmt.Errorf("%w: the %s view of table %s: %w", ErrCannotDraw, o.View, escape.Quote(snap.Table), err)
	}
	c := &chart{view: hv, matrix: m, scale: heatmap.Scale{Kind: o.Scale}, palette: o.Palette}
	if c.scale.Kind == "" {
		c.scale.Kind = heatmap.ScaleLinear
	}
	c.caption = heatmap.Describe(snap, m, c.scale)
	c.marks = findingMarks(m, findings)
	what := strings.TrimPrefix(c.caption.Title, m.Table+" — ")
	switch o.View {
	case view.PaneFindings:
		c.caption.Title = fmt.Sprintf("%s — %s, on %s", m.Table, findingCount(findings), what)
		c.notes = findingNotes(findings)
	case view.PaneRows:
		c.caption.Title = m.Table + " — largest rows, on " + what
		c.notes = largestRowNotes(snap)
	case view.PaneHot:
		c.caption.Title = m.Table + " — hottest rows and scans, on " + what
		c.notes = hotNotes(snap)
	}
	if len(c.marks) > 0 && o.View != view.PaneFindings {
		c.caption.Subtitle += " · numbers mark the report's findings"
	}
	return c, nil
}

// checkDrawable fails, wrapping [ErrCannotDraw], when the view o
// describes cannot be drawn from snap: a chart whose heatmap cannot be
// built, or a frame whose heatmap pane would show the reason instead of
// the heatmap (a traffic metric of a scan, say).
func checkDrawable(snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	if !o.Frame {
		_, err := buildChart(snap, findings, o, 1)
		return err
	}
	if _, err := heatmap.Build(snap, view.HeatView(snap, o.viewState(), o.Width, o.Height)); err != nil {
		return fmt.Errorf("%w: the %s view of table %s: %w", ErrCannotDraw, o.View, escape.Quote(snap.Table), err)
	}
	return nil
}

// findingCount says how many findings there are, by severity.
func findingCount(findings []diagnose.Finding) string {
	if len(findings) == 0 {
		return "no findings"
	}
	counts := map[diagnose.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []diagnose.Severity{diagnose.SeverityError, diagnose.SeverityWarning, diagnose.SeverityInfo} {
		if n := counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	return "findings: " + strings.Join(parts, ", ")
}

// findingMarks marks, for every finding that names a key range inside
// m's (not the whole view), the buckets its range meets, numbered as the
// report numbers the findings (their order, from 1), with the share of
// the view's metric those buckets hold, or their largest value for a
// metric that does not add up (a row's size, versions).
func findingMarks(m *heatmap.Matrix, findings []diagnose.Finding) []render.Mark {
	var marks []render.Mark
	for i, f := range findings {
		if f.Prefix == "" && f.Start == "" && f.End == "" {
			continue // table-wide
		}
		first, last := -1, -1
		for b := range m.Buckets {
			if overlaps(m.Buckets[b].Start, m.Buckets[b].End, f.Start, f.End) {
				if first < 0 {
					first = b
				}
				last = b
			}
		}
		if first < 0 || (first == 0 && last == len(m.Buckets)-1 && len(m.Buckets) > 1) {
			continue // outside the view, or all of it
		}
		marks = append(marks, render.Mark{First: first, Last: last, Number: i + 1, Note: string(f.Kind) + markShare(m, first, last)})
	}
	return marks
}

// overlaps reports whether [aStart, aEnd) and [bStart, bEnd) share a key;
// an empty end is the end of the table.
func overlaps(aStart, aEnd, bStart, bEnd keyspace.Key) bool {
	return (bEnd == "" || aStart < bEnd) && (aEnd == "" || bStart < aEnd)
}

// markShare says what buckets first to last hold of the view: " · 38% of
// rows" for a metric that adds up, " · 126 MB" (the largest) for one that
// does not.
func markShare(m *heatmap.Matrix, first, last int) string {
	unit := m.View.Metric.Unit()
	var part, whole, largest float64
	for b := range m.Buckets {
		v := m.BucketTotal(b)
		whole += v
		if b >= first && b <= last {
			part += v
			largest = max(largest, v)
		}
	}
	what := strings.TrimPrefix(m.Description(), "share of ")
	if m.View.Metric == heatmap.MetricCPU {
		what = "the node CPU drawn" // not "of node CPU %": the share is of what the chart shows
	}
	switch {
	case unit == heatmap.UnitShare:
		return " · " + units.Percent(part) + " of " + what
	case m.View.Metric == heatmap.MetricMaxRow || m.View.Metric == heatmap.MetricVersions:
		return " · " + unit.Format(largest)
	case whole > 0:
		return " · " + units.Percent(part/whole) + " of " + what
	}
	return ""
}

// findingNotes lists every finding as the report numbers it.
func findingNotes(findings []diagnose.Finding) []string {
	if len(findings) == 0 {
		return []string{"No findings: nothing in this table's key design goes against the schema guide's advice."}
	}
	notes := make([]string, len(findings))
	for i, f := range findings {
		where := "table-wide"
		if f.Prefix != "" {
			where = "at " + f.Prefix.String()
		}
		notes[i] = fmt.Sprintf("%d. %s %s %s: %s", i+1, strings.ToUpper(f.Severity.String()), f.Kind, where, escape.Text(f.Summary))
	}
	return notes
}

// maxChartRows is how many largest or hottest rows a chart lists.
const maxChartRows = 10

// largestRowNotes lists the largest rows.
func largestRowNotes(snap *keyspace.Snapshot) []string {
	if len(snap.Largest) == 0 {
		return []string{"No row sizes: the scan read no rows, or stripped their values."}
	}
	var notes []string
	for i, r := range snap.Largest[:min(len(snap.Largest), maxChartRows)] {
		notes = append(notes, fmt.Sprintf("%d. %s — %s, %s in %s, up to %s of a column",
			i+1, r.Key.String(), units.Bytes(float64(r.Bytes)), count(r.Cells, "cell"), count(r.Columns, "column"), count(r.MaxVersions, "version")))
	}
	return notes
}

// count writes n things: "1 cell", "1,200 cells".
func count(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return units.Thousands(n) + " " + thing + "s"
}

// hotNotes lists the rows read and written most often and the ranges
// scanned most often, by a recording.
func hotNotes(snap *keyspace.Snapshot) []string {
	t := snap.Traffic
	if t == nil {
		return []string{"No recording: the hottest rows come from a traffic recording (btviz record)."}
	}
	var notes []string
	rows := func(what string, list []keyspace.HotRow) {
		for _, r := range list[:min(len(list), maxChartRows/2)] {
			if r.Repeated() {
				notes = append(notes, fmt.Sprintf("%s %s — %s", what, r.Key.String(), count(int64(r.Count), "time")))
			}
		}
	}
	rows("read", t.TopReads)
	rows("written", t.TopWrites)
	for _, s := range t.TopScans[:min(len(t.TopScans), maxChartRows/2)] {
		notes = append(notes, fmt.Sprintf("scanned [%s, %s) — %s, %s", s.Start.String(), s.End.String(), count(int64(s.Count), "time"), count(int64(s.Rows), "row")))
	}
	if len(notes) == 0 {
		notes = []string{"No row or range was read, written or scanned more than once."}
	}
	return notes
}
