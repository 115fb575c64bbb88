package report

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// HotTabletsDoc is the table's hot tablets (the "hot_tablets" field of
// the JSON report): where they came from (Cloud Bigtable's ListHotTablets,
// or simulated by the demo: simulated is then true and note says how),
// the clusters asked, the window, the cluster the cpu metric draws, and
// the samples, the highest CPU first ([HotTabletsListed] of them; count
// says how many there are). start_key and end_key are both inclusive, as
// the API gives them; one_row names the row of a one-row tablet. None
// says so when the window held no hot tablet of the table.
type HotTabletsDoc struct {
	Source       string         `json:"source"`
	Simulated    bool           `json:"simulated"`
	Note         string         `json:"note,omitempty"`
	Project      string         `json:"project,omitempty"`
	Instance     string         `json:"instance,omitempty"`
	Clusters     []string       `json:"clusters"`
	ShownCluster string         `json:"shown_cluster,omitempty"`
	From         string         `json:"from"`
	To           string         `json:"to"`
	Count        int            `json:"count"`
	None         string         `json:"none,omitempty"`
	Tablets      []HotTabletDoc `json:"tablets"`
}

// HotTabletDoc is one hot-tablet sample.
type HotTabletDoc struct {
	Cluster  string       `json:"cluster"`
	Table    string       `json:"table"`
	StartKey keyspace.Key `json:"start_key"`
	EndKey   keyspace.Key `json:"end_key"`
	OneRow   keyspace.Key `json:"one_row,omitempty"`
	Start    string       `json:"start_time"`
	End      string       `json:"end_time"`
	CPU      float64      `json:"node_cpu_percent"`
}

// HotTabletsListed is how many samples a report lists.
const HotTabletsListed = 50

// hotTabletsDoc builds the hot tablets part of the report, nil without
// hot tablets.
func hotTabletsDoc(snap *keyspace.Snapshot) *HotTabletsDoc {
	if snap.HotTablets == nil {
		return nil
	}
	return HotTablets(snap.HotTablets, HotTabletsListed)
}

// HotTablets returns the document of h with its first listed samples (all
// of them when listed is below 0): the report's "hot_tablets", and what
// `btviz hot-tablets --format json` writes.
func HotTablets(h *keyspace.HotTablets, listed int) *HotTabletsDoc {
	if listed < 0 {
		listed = len(h.Tablets)
	}
	doc := &HotTabletsDoc{
		Source: escape.Text(string(h.Source)), Simulated: h.Simulated(), Note: escape.Text(h.Note),
		Project: escape.Text(h.Project), Instance: escape.Text(h.Instance), Clusters: []string{}, ShownCluster: escape.Text(h.Shown()),
		From: timestamp(h.From), To: timestamp(h.To), Count: len(h.Tablets), Tablets: []HotTabletDoc{},
	}
	for _, c := range h.Clusters {
		doc.Clusters = append(doc.Clusters, escape.Text(c))
	}
	for _, t := range h.Tablets[:min(len(h.Tablets), listed)] {
		row, _ := t.OneRow()
		doc.Tablets = append(doc.Tablets, HotTabletDoc{
			Cluster: escape.Text(t.Cluster), Table: escape.Text(t.Table), StartKey: t.StartKey, EndKey: t.EndKey, OneRow: row,
			Start: timestamp(t.Start), End: timestamp(t.End), CPU: t.CPU,
		})
	}
	if len(h.Tablets) == 0 {
		doc.None = fmt.Sprintf("no hot tablets from %s to %s on %s: ListHotTablets lists only tablets that used a large share of a node's CPU",
			doc.From, doc.To, joinNames(doc.Clusters))
	}
	return doc
}

// joinNames writes names as a list.
func joinNames(names []string) string {
	if len(names) == 0 {
		return "no cluster"
	}
	out := "cluster " + names[0]
	for _, n := range names[1:] {
		out += ", " + n
	}
	return out
}

// LatencyDoc is the table's recorded call latencies (the
// "traffic.latency" field): per kind of call (point-read, scan,
// MutateRow, …) the calls, the median and the 99th percentile and the
// slowest, in nanoseconds, as the recording proxy saw them from request
// to trailers. Medians and percentiles come from a mergeable sketch and
// are within relative_error of a recorded latency.
type LatencyDoc struct {
	RelativeError float64          `json:"relative_error"`
	Kinds         []LatencyKindDoc `json:"kinds"`
}

// LatencyKindDoc is the latency of one kind of call.
type LatencyKindDoc struct {
	Kind     string `json:"kind"`
	Calls    int64  `json:"calls"`
	MedianNs int64  `json:"median_ns"`
	P99Ns    int64  `json:"p99_ns"`
	MaxNs    int64  `json:"max_ns"`
}

// latencyDoc builds the latency part of a recording's report, nil when
// it kept none.
func latencyDoc(snap *keyspace.Snapshot) *LatencyDoc {
	if snap.Root == nil || snap.Root.Traffic == nil || snap.Root.Traffic.Latency == nil {
		return nil
	}
	doc := &LatencyDoc{Kinds: []LatencyKindDoc{}}
	for _, k := range snap.Root.Traffic.Latency.Kinds {
		s := &k.Sketch
		doc.RelativeError = max(doc.RelativeError, roundShare(s.RelativeError()))
		doc.Kinds = append(doc.Kinds, LatencyKindDoc{Kind: escape.Text(k.Kind), Calls: units.Round(s.Count()),
			MedianNs: int64(s.Median()), P99Ns: int64(s.Quantile(0.99)), MaxNs: int64(s.Max())})
	}
	return doc
}

// roundShare rounds a share to four decimals.
func roundShare(v float64) float64 { return float64(int64(v*1e4+0.5)) / 1e4 }

// MergedDoc says what a report of several recordings merged was made of
// (the "traffic.merged" field): how many, their names, and the clock
// offsets found between recorders (offset_ns positive: the recorder's
// clock is ahead of the others').
type MergedDoc struct {
	Recordings   int              `json:"recordings"`
	Names        []string         `json:"names"`
	ClockOffsets []ClockOffsetDoc `json:"clock_offsets"`
	Notes        []string         `json:"notes,omitempty"`
}

// ClockOffsetDoc is a recorder whose clock seems off from the others'.
type ClockOffsetDoc struct {
	Name        string  `json:"name"`
	OffsetNs    int64   `json:"offset_ns"`
	Correlation float64 `json:"correlation"`
	AtZero      float64 `json:"correlation_at_zero"`
	Text        string  `json:"text"`
}

// mergedDoc builds the merge part of a recording's report, nil for one
// recording.
func mergedDoc(t *keyspace.Traffic) *MergedDoc {
	m := t.Merged
	if m == nil {
		return nil
	}
	doc := &MergedDoc{Recordings: m.Recordings, Names: []string{}, ClockOffsets: []ClockOffsetDoc{}}
	for _, n := range m.Names {
		doc.Names = append(doc.Names, escape.Text(n))
	}
	for _, o := range m.ClockOffsets {
		doc.ClockOffsets = append(doc.ClockOffsets, ClockOffsetDoc{Name: escape.Text(o.Name), OffsetNs: int64(o.Offset), Correlation: roundShare(o.Correlation),
			AtZero: roundShare(o.AtZero), Text: escape.Text(o.Text())})
	}
	for _, n := range m.Notes {
		doc.Notes = append(doc.Notes, escape.Text(n))
	}
	return doc
}

// hotTabletsText writes the hot tablets' lines of the text report.
func (t *text) hotTablets(doc *HotTabletsDoc) {
	t.line("")
	t.line("hot tablets: %s", hotTabletsSummary(doc))
	if doc.Note != "" {
		t.line("  %s", doc.Note)
	}
	if doc.None != "" {
		t.line("  %s", doc.None)
		return
	}
	t.line("  cluster, key range (inclusive), node CPU, when:")
	for _, h := range doc.Tablets[:min(len(doc.Tablets), 20)] {
		t.line("  %s  %s  %s  %s", h.Cluster, tabletRange(h, printable), units.Percent(h.CPU/100), h.Start)
	}
}

// hotTabletsSummary says in one line where hot tablets came from and how
// many there are.
func hotTabletsSummary(doc *HotTabletsDoc) string {
	source := "ListHotTablets"
	if doc.Simulated {
		source = "SIMULATED from the recorded operations"
	}
	return fmt.Sprintf("%s samples of %s from %s to %s (%s)", units.Thousands(int64(doc.Count)), joinNames(doc.Clusters), doc.From, doc.To, source)
}

// tabletRange writes a hot tablet's keys: "row K" for a one-row tablet,
// else "[start, end]".
func tabletRange(h HotTabletDoc, key func(string) string) string {
	if h.OneRow != "" {
		return "row " + key(string(h.OneRow))
	}
	start, end := key(string(h.StartKey)), key(string(h.EndKey))
	if h.StartKey == "" {
		start = "(table start)"
	}
	if h.EndKey == "" {
		end = "(table end)"
	}
	return "[" + start + ", " + end + "]"
}

// latencyText writes the latency line of the text report.
func (t *text) latency(doc *LatencyDoc) {
	t.line("latency (as the proxy saw it, request to trailers; within %s):", units.Percent(doc.RelativeError))
	for _, k := range doc.Kinds {
		t.line("  %-20s %10s calls  median %8s  p99 %8s  max %8s", k.Kind, units.Thousands(k.Calls),
			units.Latency(time.Duration(k.MedianNs)), units.Latency(time.Duration(k.P99Ns)), units.Latency(time.Duration(k.MaxNs)))
	}
}

// merged writes what a merged recording was made of.
func (t *text) merged(doc *MergedDoc) {
	t.line("merged from %d recordings: %s", doc.Recordings, joinList(doc.Names))
	for _, o := range doc.ClockOffsets {
		t.line("  note: %s", o.Text)
	}
	for _, n := range doc.Notes {
		t.line("  note: %s", n)
	}
}

// joinList writes names separated by commas.
func joinList(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// hotTablets writes the hot tablets section of the Markdown report.
func (md *markdown) hotTablets(doc *HotTabletsDoc) {
	md.line(mdText(hotTabletsSummary(doc)) + ".")
	md.line("")
	if doc.Note != "" {
		md.line(mdText(doc.Note) + ".")
		md.line("")
	}
	if doc.None != "" {
		md.line(mdText(doc.None) + ".")
		md.line("")
		return
	}
	var rows [][]string
	for _, h := range doc.Tablets[:min(len(doc.Tablets), 20)] {
		rows = append(rows, []string{mdText(h.Cluster), tabletRange(h, func(k string) string { return mdKey(k) }), units.Percent(h.CPU / 100), mdText(h.Start)})
	}
	md.table([]string{"Cluster", "Keys (inclusive)", "Node CPU", "Sample"}, rows)
}

// latency and merged write a recording's latency and merge in Markdown.
func (md *markdown) latency(doc *LatencyDoc) {
	var rows [][]string
	for _, k := range doc.Kinds {
		rows = append(rows, []string{mdText(k.Kind), units.Thousands(k.Calls), units.Latency(time.Duration(k.MedianNs)),
			units.Latency(time.Duration(k.P99Ns)), units.Latency(time.Duration(k.MaxNs))})
	}
	md.line(mdText(fmt.Sprintf("Latency as the recording proxy saw it, request to trailers (medians within %s):", units.Percent(doc.RelativeError))))
	md.line("")
	md.table([]string{"Call", "Calls", "Median", "p99", "Max"}, rows)
}

func (md *markdown) merged(doc *MergedDoc) {
	md.line(mdText(fmt.Sprintf("Merged from %d recordings: %s.", doc.Recordings, joinList(doc.Names))))
	md.line("")
	for _, o := range doc.ClockOffsets {
		md.line("- " + mdText(o.Text))
	}
	for _, n := range doc.Notes {
		md.line("- " + mdText(n))
	}
	if len(doc.ClockOffsets)+len(doc.Notes) > 0 {
		md.line("")
	}
}
