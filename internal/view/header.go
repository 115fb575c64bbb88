package view

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Header notes, stable strings an end-to-end test may wait for.
const (
	noteEmulator = "emulator: boundaries are samples, not tablets"
	noteGC       = "only versions kept by GC are visible"
	noteTraffic  = "traffic: only calls made through btviz record"
	// noteSimulated labels the demo's hot tablets wherever they are drawn.
	noteSimulated  = "SIMULATED hot tablets: computed from the recorded operations, not Cloud Bigtable's"
	noteHotTablets = "hot tablets: one node's CPU of one cluster, one-minute samples (ListHotTablets)"
)

// hotTabletsHeader sums up the hot tablets for the header: how many
// samples, the peak, the cluster drawn, and SIMULATED for the demo's.
func hotTabletsHeader(h *keyspace.HotTablets) string {
	if len(h.Tablets) == 0 {
		return "no hot tablets in the window"
	}
	peak := 0.0
	for _, t := range h.Tablets {
		if t.Cluster == h.Shown() {
			peak = max(peak, t.CPU)
		}
	}
	text := fmt.Sprintf("%s · peak %s · cluster %s", units.Plural(int64(len(h.Tablets)), "hot-tablet sample"), units.Percent(peak/100), h.Shown())
	if h.Simulated() {
		text = "SIMULATED · " + text
	}
	return text
}

// headerLines draws the three header lines: table, source and scan;
// breadcrumb and view settings; notes.
func (f *Frame) headerLines() []string {
	st := &f.Styles
	w := f.Layout.Header.W
	table := f.tableName()
	left := st.AppName.Render(" btviz ") + " " + st.Table.Render(escape.Text(table)) + "  " + st.Text.Render(escape.Text(f.scanText()))
	right := ""
	switch {
	case f.Snap != nil && f.State.Metric == heatmap.MetricCPU && f.Snap.HotTablets != nil:
		right = st.Muted.Render(hotTabletsHeader(f.Snap.HotTablets) + " ")
	case f.Snap != nil && f.State.Metric.FromTraffic(f.Snap):
		t := f.Snap.TrafficTotals()
		right = st.Muted.Render(fmt.Sprintf("%s ops · %s rows read · %s rows written ",
			heatmap.UnitCount.Format(t.Ops), heatmap.UnitCount.Format(t.RowsRead), heatmap.UnitCount.Format(t.RowsWritten)))
	case f.Snap != nil:
		t := f.Snap.Totals()
		right = st.Muted.Render(fmt.Sprintf("%s rows · %s · %s cells ",
			heatmap.UnitCount.Format(t.Rows), heatmap.UnitBytes.Format(t.Bytes), heatmap.UnitCount.Format(t.Cells)))
	}
	line1 := joinEnds(left, right, w)

	crumbs := f.crumbs()
	var b strings.Builder
	b.WriteString(" ")
	for i, c := range crumbs {
		if i > 0 {
			b.WriteString(st.Muted.Render(crumbSeparator))
		}
		style := st.Crumb
		if i == len(crumbs)-1 {
			style = st.CrumbCurrent
		}
		b.WriteString(style.Render(c.label))
	}
	s := f.State
	settings := st.Muted.Render(fmt.Sprintf("%s · %s buckets · %s ", s.Metric, s.Bucketing, s.Scale))
	line2 := joinEnds(b.String(), settings, w)

	line3 := " " + st.Note.Render(strings.Join(f.notes(), " · "))
	return []string{line1, line2, line3}
}

// joinEnds puts left and right on one line of width cells, dropping right
// when they do not both fit.
func joinEnds(left, right string, width int) string {
	lw, rw := lipgloss.Width(left), lipgloss.Width(right)
	if right == "" || lw+rw+1 > width {
		return fitLine(left, width)
	}
	return left + strings.Repeat(" ", width-lw-rw) + right
}

// scanText says how the snapshot was read and whether it is complete:
// "full scan · complete", "sample 5% · incomplete (cancelled …)",
// "scanning 41%".
func (f *Frame) scanText() string {
	if f.Snap == nil {
		switch {
		case f.Scan != nil && f.Scan.Loading:
			return "waiting for the demo to load it"
		case f.Scan != nil && f.Scan.Running:
			return "connecting…"
		}
		return ""
	}
	text := f.Snap.Summary()
	if f.Scan != nil && f.Scan.Running {
		return strings.SplitN(text, " · ", 2)[0] + fmt.Sprintf(" · scanning %.0f%%", f.Scan.Progress.Done*100)
	}
	return text
}

// notes are the caveats of what the view shows.
func (f *Frame) notes() []string {
	var notes []string
	if f.Snap != nil && f.Snap.Source == keyspace.SourceEmulator && !f.Snap.RangesAreTablets {
		notes = append(notes, noteEmulator)
	}
	switch {
	case f.Snap != nil && f.State.Metric == heatmap.MetricCPU && f.Snap.HotTablets.Simulated():
		notes = append(notes, noteSimulated)
	case f.Snap != nil && f.State.Metric == heatmap.MetricCPU:
		notes = append(notes, noteHotTablets)
	case f.Snap != nil && f.State.Metric.FromTraffic(f.Snap):
		notes = append(notes, noteTraffic)
	case f.State.Metric.Timed() || f.State.Metric == heatmap.MetricVersions:
		notes = append(notes, noteGC)
	}
	if f.Snap != nil && f.Snap.Scan.Mode.IsSample() {
		notes = append(notes, "counts are estimates from a sample")
	}
	return notes
}

// crumbSeparator stands between breadcrumb segments.
const crumbSeparator = " › "

// crumb is one breadcrumb segment: a node of the path, or the explicit
// range at its end.
type crumb struct {
	label string
	// prefix is the node's prefix to go to when clicked; rangeEnd marks
	// the final range segment (not a node).
	prefix  keyspace.Key
	isRange bool
	// x0 and x1 bound the segment on the header's second line.
	x0, x1 int
}

// crumbs returns the breadcrumb of the current view with the cells each
// segment takes on the header's second line.
func (f *Frame) crumbs() []crumb {
	crumbs := []crumb{{label: "⌂ " + escape.Text(f.tableName())}}
	var parent keyspace.Key
	for _, n := range f.Path {
		if n.Depth == 0 {
			continue
		}
		label := strings.TrimPrefix(string(n.Prefix), string(parent))
		crumbs = append(crumbs, crumb{label: KeyText(keyspace.Key(label), maxCrumbWidth), prefix: n.Prefix})
		parent = n.Prefix
	}
	s := f.State
	if s.IsRange() || (s.Prefix != "" && (len(f.Path) == 0 || f.Path[len(f.Path)-1].Prefix != s.Prefix)) {
		label := RangeText(s.Start, s.End)
		if s.Prefix != "" {
			label = KeyText(s.Prefix, maxCrumbWidth) + "*"
		}
		crumbs = append(crumbs, crumb{label: label, isRange: true})
	}
	x := 1
	for i := range crumbs {
		if i > 0 {
			x += lipgloss.Width(crumbSeparator)
		}
		crumbs[i].x0 = x
		x += lipgloss.Width(crumbs[i].label)
		crumbs[i].x1 = x
	}
	return crumbs
}

// maxCrumbWidth bounds one breadcrumb segment.
const maxCrumbWidth = 32

// tableName is the snapshot's table, or a placeholder.
func (f *Frame) tableName() string {
	switch {
	case f.Snap != nil && f.Snap.Table != "":
		return f.Snap.Table
	case f.Table != "":
		return f.Table
	}
	return "table"
}
