package report

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// TrafficDoc is what a traffic recording saw of the table (the
// "traffic" field of the JSON report): when and how long, the calls by
// method, the totals, the busiest prefixes by operations, and the rows
// read and written and the ranges scanned most often. Counts of the hot
// lists come from a bounded top-K counter: the true count lies in
// [count_low, count]; the row lists hold only rows read or written more
// than once for certain (count_low ≥ 2).
type TrafficDoc struct {
	Started        string  `json:"started"`
	DurationMillis int64   `json:"duration_ms"`
	BucketSeconds  float64 `json:"bucket_seconds"`
	Upstream       string  `json:"upstream,omitempty"`
	// Complete is false for a recording that was cut off (btviz record
	// killed or crashed): Incomplete says so, and the counts stop at its
	// last periodic write.
	Complete   bool               `json:"complete"`
	Incomplete string             `json:"incomplete,omitempty"`
	Totals     TrafficCountsDoc   `json:"totals"`
	Methods    []MethodDoc        `json:"methods"`
	Prefixes   []TrafficPrefixDoc `json:"prefixes"`
	TopReads   []HotRowDoc        `json:"top_reads"`
	TopWrites  []HotRowDoc        `json:"top_writes"`
	TopScans   []HotScanDoc       `json:"top_scans"`
	// Latency is the calls' latency by kind, when the recording kept it;
	// Merged says what a recording merged from several was made of.
	Latency *LatencyDoc `json:"latency,omitempty"`
	Merged  *MergedDoc  `json:"merged,omitempty"`
}

// TrafficCountsDoc are traffic totals: operations (one per row named by a
// point read or mutation, one per range a scan asked for), point reads,
// scans, and rows and bytes read and written.
type TrafficCountsDoc struct {
	Ops          int64 `json:"ops"`
	PointReads   int64 `json:"point_reads"`
	Scans        int64 `json:"scans"`
	RowsRead     int64 `json:"rows_read"`
	BytesRead    int64 `json:"bytes_read"`
	RowsWritten  int64 `json:"rows_written"`
	BytesWritten int64 `json:"bytes_written"`
}

// MethodDoc counts the calls of one data-API method.
type MethodDoc struct {
	Method string `json:"method"`
	Calls  int64  `json:"calls"`
	Errors int64  `json:"errors"`
}

// TrafficPrefixDoc is one of the busiest prefixes of a tree level.
type TrafficPrefixDoc struct {
	Prefix   keyspace.Key `json:"prefix"`
	Depth    int          `json:"depth"`
	OpsShare float64      `json:"ops_share"`
	TrafficCountsDoc
	// LatencyMedianNs and LatencyMaxNs are the median and the slowest
	// latency of the calls that touched the prefix, when kept.
	LatencyMedianNs int64 `json:"latency_median_ns,omitempty"`
	LatencyMaxNs    int64 `json:"latency_max_ns,omitempty"`
}

// HotRowDoc is one of the rows read or written most often.
type HotRowDoc struct {
	Key      keyspace.Key `json:"key"`
	Count    int64        `json:"count"`
	CountLow int64        `json:"count_low"`
	Bytes    int64        `json:"bytes"`
}

// HotScanDoc is one of the key ranges scanned most often.
type HotScanDoc struct {
	Start    keyspace.Key `json:"start"`
	End      keyspace.Key `json:"end"`
	Count    int64        `json:"count"`
	CountLow int64        `json:"count_low"`
	Rows     int64        `json:"rows"`
}

// trafficDoc builds the traffic part of the report, nil without a
// recording.
func trafficDoc(snap *keyspace.Snapshot) *TrafficDoc {
	if !snap.HasTraffic() || snap.Root == nil {
		return nil
	}
	t := snap.Traffic
	doc := &TrafficDoc{
		Started: timestamp(t.Started), DurationMillis: t.Duration.Milliseconds(),
		BucketSeconds: float64(t.BucketMicros) / 1e6, Upstream: escape.Text(t.Upstream),
		Complete: t.Incomplete == "", Incomplete: escape.Text(t.Incomplete),
		Totals: countsDoc(snap.TrafficTotals()), Methods: []MethodDoc{}, Prefixes: trafficPrefixes(snap),
		TopReads: hotRowDocs(t.TopReads), TopWrites: hotRowDocs(t.TopWrites), TopScans: []HotScanDoc{},
		Latency: latencyDoc(snap), Merged: mergedDoc(t),
	}
	for _, m := range t.Methods {
		doc.Methods = append(doc.Methods, MethodDoc{Method: escape.Text(m.Method), Calls: units.Round(m.Calls), Errors: units.Round(m.Errors)})
	}
	for _, s := range t.TopScans {
		doc.TopScans = append(doc.TopScans, HotScanDoc{Start: s.Start, End: s.End, Count: units.Round(s.Count), CountLow: units.Round(s.Count - s.Error), Rows: units.Round(s.Rows)})
	}
	return doc
}

func countsDoc(c *keyspace.OpCounts) TrafficCountsDoc {
	return TrafficCountsDoc{
		Ops: units.Round(c.Ops), PointReads: units.Round(c.PointReads), Scans: units.Round(c.Scans),
		RowsRead: units.Round(c.RowsRead), BytesRead: units.Round(c.BytesRead),
		RowsWritten: units.Round(c.RowsWritten), BytesWritten: units.Round(c.BytesWritten),
	}
}

// hotRowDocs lists the rows read (or written) more than once for certain
// ([keyspace.RepeatedRows]).
func hotRowDocs(rows []keyspace.HotRow) []HotRowDoc {
	docs := []HotRowDoc{}
	for _, r := range keyspace.RepeatedRows(rows) {
		docs = append(docs, HotRowDoc{Key: r.Key, Count: units.Round(r.Count), CountLow: units.Round(r.Count - r.Error), Bytes: units.Round(r.Bytes)})
	}
	return docs
}

// trafficPrefixes lists the busiest prefix nodes by operations at each of
// the first [PrefixDepths] levels.
func trafficPrefixes(snap *keyspace.Snapshot) []TrafficPrefixDoc {
	docs := []TrafficPrefixDoc{}
	total := snap.TrafficTotals().Ops
	for depth := 1; depth <= PrefixDepths; depth++ {
		var nodes []*keyspace.Node
		snap.Root.Walk(func(n *keyspace.Node) bool {
			if n.Depth == depth && n.Kind == keyspace.KindPrefix && n.Traffic != nil && n.Traffic.Ops > 0 {
				nodes = append(nodes, n)
			}
			return n.Depth < depth
		})
		slices.SortStableFunc(nodes, func(a, b *keyspace.Node) int { return cmp.Compare(b.Traffic.Ops, a.Traffic.Ops) })
		for _, n := range nodes[:min(len(nodes), PrefixesPerDepth)] {
			doc := TrafficPrefixDoc{Prefix: n.Prefix, Depth: n.Depth, OpsShare: shareOf(n.Traffic.Ops, total), TrafficCountsDoc: countsDoc(&n.Traffic.OpCounts)}
			if l := n.Traffic.Latency; l != nil {
				whole := l.Whole()
				doc.LatencyMedianNs, doc.LatencyMaxNs = int64(whole.Median()), int64(whole.Max())
			}
			docs = append(docs, doc)
		}
	}
	return docs
}

// trafficSummary says in one line what the recording saw.
func trafficSummary(t *TrafficDoc) string {
	summary := trafficCounts(t)
	if !t.Complete {
		summary += "; incomplete: " + firstNonEmpty(t.Incomplete, "the recording was cut off")
	}
	return summary
}

// trafficCounts says when and how long the recording ran and what it
// counted.
func trafficCounts(t *TrafficDoc) string {
	return fmt.Sprintf("%s recorded from %s: %s (%s, %s), %s read (%s), %s written (%s)",
		units.Duration(time.Duration(t.DurationMillis)*time.Millisecond), t.Started,
		units.Plural(t.Totals.Ops, "op"), units.Plural(t.Totals.PointReads, "point read"), units.Plural(t.Totals.Scans, "scan"),
		units.Plural(t.Totals.RowsRead, "row"), units.Bytes(float64(t.Totals.BytesRead)),
		units.Plural(t.Totals.RowsWritten, "row"), units.Bytes(float64(t.Totals.BytesWritten)))
}

// trafficText writes the traffic section of the text report.
func (t *text) traffic(doc *TrafficDoc) {
	t.line("")
	t.line("traffic: %s", trafficSummary(doc))
	for _, m := range doc.Methods {
		t.line("  %-20s %10s calls %6s errors", m.Method, units.Thousands(m.Calls), units.Thousands(m.Errors))
	}
	t.line("busiest prefixes (depth, ops, share, rows read, rows written):")
	width := 0
	for _, p := range doc.Prefixes {
		width = max(width, len(printable(string(p.Prefix))))
	}
	for _, p := range doc.Prefixes {
		t.line("  %d  %-*s %10s %5s %10s %10s", p.Depth, width, printable(string(p.Prefix)), units.Thousands(p.Ops), units.Percent(p.OpsShare),
			units.Thousands(p.RowsRead), units.Thousands(p.RowsWritten))
	}
	for _, list := range []struct {
		title string
		rows  []HotRowDoc
	}{{"most read rows", doc.TopReads}, {"most written rows", doc.TopWrites}} {
		if len(list.rows) == 0 {
			continue
		}
		t.line("%s (count, bytes):", list.title)
		for _, r := range list.rows {
			t.line("  %-*s %10s %10s", width, printable(string(r.Key)), units.CountRange(float64(r.CountLow), float64(r.Count)), units.Bytes(float64(r.Bytes)))
		}
	}
	if len(doc.TopScans) > 0 {
		t.line("most scanned ranges (scans, rows returned):")
		for _, s := range doc.TopScans {
			t.line("  %s %10s %10s", rangeText(s.Start, s.End, printable), units.CountRange(float64(s.CountLow), float64(s.Count)), units.Thousands(s.Rows))
		}
	}
	if doc.Latency != nil {
		t.latency(doc.Latency)
	}
	if doc.Merged != nil {
		t.merged(doc.Merged)
	}
}

// traffic writes the traffic section of the Markdown report.
func (md *markdown) traffic(doc *TrafficDoc) {
	md.line(mdText(trafficSummary(doc)) + ".")
	md.line("")
	var methods [][]string
	for _, m := range doc.Methods {
		methods = append(methods, []string{mdText(m.Method), units.Thousands(m.Calls), units.Thousands(m.Errors)})
	}
	md.table([]string{"Method", "Calls", "Errors"}, methods)
	var prefixes [][]string
	for _, p := range doc.Prefixes {
		prefixes = append(prefixes, []string{fmt.Sprint(p.Depth), mdKey(string(p.Prefix)), units.Thousands(p.Ops), units.Percent(p.OpsShare),
			units.Thousands(p.RowsRead), units.Thousands(p.RowsWritten)})
	}
	if len(prefixes) > 0 {
		md.table([]string{"Depth", "Prefix", "Ops", "Share", "Rows read", "Rows written"}, prefixes)
	}
	var hot [][]string
	for _, list := range []struct {
		what string
		rows []HotRowDoc
	}{{"read", doc.TopReads}, {"written", doc.TopWrites}} {
		for _, r := range list.rows {
			hot = append(hot, []string{list.what, mdKey(string(r.Key)), units.CountRange(float64(r.CountLow), float64(r.Count)), units.Bytes(float64(r.Bytes))})
		}
	}
	if len(hot) > 0 {
		md.table([]string{"Hot row", "Key", "Count", "Bytes"}, hot)
	}
	if doc.Latency != nil {
		md.latency(doc.Latency)
	}
	if doc.Merged != nil {
		md.merged(doc.Merged)
	}
}

// firstNonEmpty returns the first of texts that is not empty.
func firstNonEmpty(texts ...string) string {
	for _, t := range texts {
		if t != "" {
			return t
		}
	}
	return ""
}
