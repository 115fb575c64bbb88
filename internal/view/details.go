package view

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Details pane limits.
const (
	detailTopRows     = 3
	detailFindings    = 3
	detailLabelColumn = 9
	timeLayout        = "2006-01-02 15:04"
)

// field writes "label  value" with the label in the muted style.
func (f *Frame) field(label, value string) string {
	return f.styledField(label, value, f.Styles.Text)
}

// styledField is [Frame.field] with the value drawn in style.
func (f *Frame) styledField(label, value string, style lipgloss.Style) string {
	return " " + f.Styles.Muted.Render(padRight(label, detailLabelColumn)) + style.Render(value)
}

// bucketDetails describes the selected bucket.
func (f *Frame) bucketDetails(r Rect) []string {
	st := &f.Styles
	if f.Matrix == nil || len(f.Matrix.Buckets) == 0 {
		return append([]string{paneTitle(st, "Details", "", r.W, false)}, f.planLines(r.W)...)
	}
	i := f.State.Selected
	b := &f.Matrix.Buckets[i]
	kind := "merged range"
	switch {
	case b.Node != nil:
		kind = b.Node.Kind.String()
	case b.Units == 1:
		kind = "range"
	}
	lines := []string{paneTitle(st, fmt.Sprintf("Bucket %d of %d", i+1, len(f.Matrix.Buckets)), kind, r.W, false)}
	valueWidth := r.W - detailLabelColumn - 2
	startText, endText := f.Matrix.BoundTexts(i)
	lines = append(lines, f.boundFields("start", b.Start, startText, "(table start)", valueWidth)...)
	lines = append(lines, f.boundFields("end excl", b.End, endText, "(table end)", valueWidth)...)
	if f.Snap.HasTraffic() {
		lines = append(lines, f.trafficFields(b)...)
	}
	if !b.Latency.Empty() {
		lines = append(lines, f.field("latency", "median "+units.Latency(b.Latency.Median())+"   max "+units.Latency(b.Latency.Max())+
			"   ("+units.Count(b.Latency.Count())+" calls)"))
	}
	if h := f.Snap.HotTablets; h != nil {
		text := "none in the window"
		if minutes := f.Snap.CPUMinutes(); minutes != nil && minutes.Total() > 0 {
			text = units.Percent(b.CPU/minutes.Total()/100) + " of a node on average in the sampled minutes"
		}
		if h.Simulated() {
			text += " (simulated)"
		}
		lines = append(lines, f.field("node CPU", text))
	}
	total := f.Snap.Totals()
	if total.Rows > 0 || !f.Snap.HasTraffic() && !f.Snap.HotTabletsOnly() {
		share := ""
		if total.Rows > 0 {
			share = "  (" + heatmap.UnitShare.Format(b.Stats.Rows/total.Rows) + " of rows)"
		}
		lines = append(lines, f.field("rows", heatmap.UnitCount.Format(b.Stats.Rows)+share))
		if f.Snap.Scan.HasInterval() {
			low, high := f.Snap.Scan.RowsInterval(b.Stats.Rows)
			lines = append(lines, f.field("95% rows", heatmap.UnitCount.Format(low)+" – "+heatmap.UnitCount.Format(high)+"  (sampled)"))
		}
		lines = append(lines,
			f.field("bytes", heatmap.UnitBytes.Format(b.Stats.Bytes)+"   cells "+heatmap.UnitCount.Format(b.Stats.Cells)),
			f.field("max row", heatmap.UnitBytes.Format(float64(b.Stats.MaxRowBytes))+"   versions/col "+heatmap.UnitRatio.Format(b.Stats.VersionsPerColumn())),
		)
	}
	if b.Stats.Cells > 0 {
		lines = append(lines, f.field("writes", microsTime(b.Stats.FirstWrite)+" → "+microsTime(b.Stats.LastWrite)))
	}
	if m, c := f.Matrix, f.State.column(); m.Timed() && c >= 0 && c < m.Columns() {
		at := m.Time.ColumnStart(c)
		lines = append(lines, f.field("column", fmt.Sprintf("%s +%s: %s", at.Format(timeLayout), units.Duration(m.Time.ColumnDuration()),
			m.View.Metric.Unit().Format(m.Value(i, c)))))
	}
	rowLine := func(key keyspace.Key, figure string) string {
		return "   " + st.Text.Render(keyWithTime(key, f.delimiters(), max(r.W-4-ansi.StringWidth(figure)-2, 8))) + "  " + st.Muted.Render(figure)
	}
	if top := topRowsIn(b.Start, b.End, bySize, f.Snap.Largest, nodeList(b.Node, false)); len(top) > 0 {
		lines = append(lines, " "+st.Strong.Render("Largest rows here"))
		for _, row := range top {
			lines = append(lines, rowLine(row.Key, heatmap.UnitBytes.Format(float64(row.Bytes))))
		}
	}
	if top := topRowsIn(b.Start, b.End, byVersions, f.Snap.MostVersioned, nodeList(b.Node, true)); len(top) > 0 && top[0].MaxVersions > 1 {
		lines = append(lines, " "+st.Strong.Render("Most versions here"))
		for _, row := range top {
			if row.MaxVersions > 1 {
				lines = append(lines, rowLine(row.Key, heatmap.UnitCount.Format(float64(row.MaxVersions))+" versions"))
			}
		}
	}
	if f.Snap.HasTraffic() {
		lines = append(lines, f.hotRowsIn(b, r.W)...)
	}
	if here, wide := findingsIn(f.Findings, b.Start, b.End); len(here)+wide > 0 {
		lines = append(lines, " "+st.Strong.Render("Findings here"))
		for _, fi := range here[:min(len(here), detailFindings)] {
			lines = append(lines, "   "+f.severityMark(fi.Severity)+" "+st.Text.Render(escape.Text(string(fi.Kind)))+" "+st.Muted.Render(KeyText(fi.Prefix, r.W/2)))
		}
		if wide > 0 {
			lines = append(lines, "   "+st.Muted.Render(fmt.Sprintf("+ %d table-wide (f lists them)", wide)))
		}
	}
	lines = append(lines, " "+st.Muted.Render(f.drillHint(b)))
	return append(lines, f.planLines(r.W)...)
}

// drillHint says what enter does on bucket b.
func (f *Frame) drillHint(b *heatmap.Bucket) string {
	sampled := f.Snap != nil && f.Snap.Scan.Mode.IsSample()
	switch {
	case b.CanDrill() && sampled:
		return "enter: drill in and re-read this range in full"
	case b.CanDrill():
		return "enter: drill in"
	case b.Node != nil && b.Node.Kind == keyspace.KindRow:
		return "a single row: enter re-reads it in full"
	}
	return "enter: re-read this range in full for more detail"
}

// boundFields writes a range bound whole under label, escaped as text
// says (as the bucket's labels escape it: [heatmap.Matrix.BoundTexts]),
// and on the next line the time its first time segment holds, when it
// holds one.
func (f *Frame) boundFields(label string, k keyspace.Key, text, tableEnd string, width int) []string {
	var lines []string
	for i, line := range keyLines(text, width, tableEnd) {
		if i > 0 {
			label = ""
		}
		lines = append(lines, f.field(label, line))
	}
	if t := keyTime(k, f.delimiters()); t != "" {
		lines = append(lines, f.field("", f.Styles.Muted.Render(Cut(t, width))))
	}
	return lines
}

// microsTime writes a cell timestamp.
func microsTime(us int64) string { return time.UnixMicro(us).UTC().Format(timeLayout) }

// topRowsIn returns the rows of the lists that lie in [start, end),
// without repeats, ordered by measure, at most detailTopRows of them.
func topRowsIn(start, end keyspace.Key, measure func(*keyspace.RowStat) int64, lists ...[]keyspace.RowStat) []keyspace.RowStat {
	var rows []keyspace.RowStat
	for _, list := range lists {
		for _, row := range list {
			if keyspace.InRange(string(row.Key), string(start), string(end)) &&
				!slices.ContainsFunc(rows, func(r keyspace.RowStat) bool { return r.Key == row.Key }) {
				rows = append(rows, row)
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b keyspace.RowStat) int { return cmp.Compare(measure(&b), measure(&a)) })
	return rows[:min(len(rows), detailTopRows)]
}

func bySize(r *keyspace.RowStat) int64     { return r.Bytes }
func byVersions(r *keyspace.RowStat) int64 { return r.MaxVersions }

// nodeList returns a bucket's node's own top rows, by size or by
// versions; nil when the bucket has no node.
func nodeList(n *keyspace.Node, versions bool) []keyspace.RowStat {
	switch {
	case n == nil:
		return nil
	case versions:
		return n.TopVersioned
	}
	return n.Top
}

// findingsIn returns the findings that name a key range overlapping
// [start, end), and how many table-wide findings (no prefix, and no
// dataset of a table of several) there are.
func findingsIn(findings []diagnose.Finding, start, end keyspace.Key) (here []diagnose.Finding, tableWide int) {
	for _, fi := range findings {
		if fi.Prefix == "" && fi.Dataset == "" {
			tableWide++
			continue
		}
		if overlaps(string(fi.Start), string(fi.End), string(start), string(end)) {
			here = append(here, fi)
		}
	}
	return here, tableWide
}

// overlaps reports whether [aStart, aEnd) and [bStart, bEnd) share a key
// (empty ends mean the end of the table).
func overlaps(aStart, aEnd, bStart, bEnd string) bool {
	return (aEnd == "" || bStart < aEnd) && (bEnd == "" || aStart < bEnd)
}

// findingDetails describes the selected finding in full.
func (f *Frame) findingDetails(r Rect) []string {
	st := &f.Styles
	if len(f.Findings) == 0 {
		return []string{paneTitle(st, "Finding", "", r.W, false), "", " " + st.Muted.Render("no findings")}
	}
	i := ClampIndex(f.State.Line(PaneFindings), len(f.Findings))
	fi := f.Findings[i]
	lines := []string{paneTitle(st, fmt.Sprintf("Finding %d of %d", i+1, len(f.Findings)), fi.Severity.String(), r.W, false)}
	head := " " + f.severityMark(fi.Severity) + " " + st.Strong.Render(escape.Text(string(fi.Kind)))
	if fi.Prefix != "" {
		head += st.Muted.Render(" at ") + st.Text.Render(KeyText(fi.Prefix, r.W-ansi.StringWidth(string(fi.Kind))-8))
	}
	lines = append(lines, head)
	if fi.Start != "" || fi.End != "" {
		lines = append(lines, f.field("range", Cut(RangeText(fi.Start, fi.End), r.W-detailLabelColumn-2)))
	}
	text := r.W - 2
	for _, line := range wrap(escape.Text(fi.Summary), text) {
		lines = append(lines, " "+st.Text.Render(line))
	}
	if fi.Advice != "" {
		lines = append(lines, " "+st.Strong.Render("Advice"))
		for _, line := range wrap(escape.Text(fi.Advice), text) {
			lines = append(lines, " "+st.Text.Render(line))
		}
	}
	if len(fi.Evidence) > 0 {
		parts := make([]string, 0, len(fi.Evidence))
		for _, name := range fi.Evidence.Names() {
			parts = append(parts, fmt.Sprintf("%s=%s", escape.Text(name), trimFloat(fi.Evidence[name])))
		}
		lines = append(lines, " "+st.Strong.Render("Evidence"))
		for _, line := range wrap(strings.Join(parts, "  "), text) {
			lines = append(lines, " "+st.Muted.Render(line))
		}
	}
	return lines
}

// trimFloat writes an evidence number without trailing zeros.
func trimFloat(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// severityMark is the coloured mark of a severity.
func (f *Frame) severityMark(s diagnose.Severity) string {
	switch s {
	case diagnose.SeverityError:
		return f.Styles.Error.Render("✗")
	case diagnose.SeverityWarning:
		return f.Styles.Warning.Render("▲")
	}
	return f.Styles.Info.Render("•")
}
