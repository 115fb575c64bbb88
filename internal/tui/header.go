package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

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
func (f *frame) headerLines() []string {
	st := &f.styles
	w := f.layout.header.w
	table := f.tableName()
	left := st.AppName.Render(" btviz ") + " " + st.Table.Render(safeText(table)) + "  " + st.Text.Render(safeText(f.scanText()))
	right := ""
	switch {
	case f.snap != nil && f.state.Metric == heatmap.MetricCPU && f.snap.HotTablets != nil:
		right = st.Muted.Render(hotTabletsHeader(f.snap.HotTablets) + " ")
	case f.snap != nil && f.state.Metric.FromTraffic(f.snap):
		t := f.snap.TrafficTotals()
		right = st.Muted.Render(fmt.Sprintf("%s ops · %s rows read · %s rows written ",
			heatmap.UnitCount.Format(t.Ops), heatmap.UnitCount.Format(t.RowsRead), heatmap.UnitCount.Format(t.RowsWritten)))
	case f.snap != nil:
		t := f.snap.Totals()
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
	s := f.state
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
func (f *frame) scanText() string {
	if f.snap == nil {
		switch {
		case f.scan != nil && f.scan.loading:
			return "waiting for the demo to load it"
		case f.scan != nil && f.scan.running:
			return "connecting…"
		}
		return ""
	}
	text := f.snap.Summary()
	if f.scan != nil && f.scan.running {
		return strings.SplitN(text, " · ", 2)[0] + fmt.Sprintf(" · scanning %.0f%%", f.scan.progress.Done*100)
	}
	return text
}

// notes are the caveats of what the view shows.
func (f *frame) notes() []string {
	var notes []string
	if f.snap != nil && f.snap.Source == keyspace.SourceEmulator && !f.snap.RangesAreTablets {
		notes = append(notes, noteEmulator)
	}
	switch {
	case f.snap != nil && f.state.Metric == heatmap.MetricCPU && f.snap.HotTablets.Simulated():
		notes = append(notes, noteSimulated)
	case f.snap != nil && f.state.Metric == heatmap.MetricCPU:
		notes = append(notes, noteHotTablets)
	case f.snap != nil && f.state.Metric.FromTraffic(f.snap):
		notes = append(notes, noteTraffic)
	case f.state.Metric.Timed() || f.state.Metric == heatmap.MetricVersions:
		notes = append(notes, noteGC)
	}
	if f.snap != nil && f.snap.Scan.Mode == keyspace.ModeSample {
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
func (f *frame) crumbs() []crumb {
	crumbs := []crumb{{label: "⌂ " + safeText(f.tableName())}}
	var parent keyspace.Key
	for _, n := range f.path {
		if n.Depth == 0 {
			continue
		}
		label := strings.TrimPrefix(string(n.Prefix), string(parent))
		crumbs = append(crumbs, crumb{label: keyText(keyspace.Key(label), maxCrumbWidth), prefix: n.Prefix})
		parent = n.Prefix
	}
	s := f.state
	if s.isRange() || (s.Prefix != "" && (len(f.path) == 0 || f.path[len(f.path)-1].Prefix != s.Prefix)) {
		label := rangeText(s.Start, s.End)
		if s.Prefix != "" {
			label = keyText(s.Prefix, maxCrumbWidth) + "*"
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
func (f *frame) tableName() string {
	switch {
	case f.snap != nil && f.snap.Table != "":
		return f.snap.Table
	case f.table != "":
		return f.table
	}
	return "table"
}
