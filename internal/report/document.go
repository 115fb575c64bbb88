package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/keytime"
	"github.com/btviz/btviz/internal/units"
)

// DocumentVersion is the version of the report's JSON shape.
const DocumentVersion = 1

// Limits of the prefix and row lists.
const (
	// PrefixDepths is how many tree levels the prefix list covers.
	PrefixDepths = 4
	// PrefixesPerDepth is how many of the largest prefixes by rows each
	// level lists.
	PrefixesPerDepth = 10
	// LargestRows is how many of the largest rows a report lists.
	LargestRows = 20
)

// SourceSnapshot is the report source of a snapshot read from a file.
const SourceSnapshot = "snapshot"

// Document is the report as JSON writes it: the stable field names the
// README's "Files" section gives for reports, among them key_escaping, ranges_are_tablets, origin,
// finding_counts and what_if. Counts are integers rounded from the
// snapshot's estimates; keys are escaped by [keyspace.Printable], and
// every other string that came from the snapshot (names, the source, the
// scan's mode, method and reason for stopping) by [escape.Text], so that
// no format, not even JSON decoded by a consumer, carries a control or
// bidirectional character from it.
type Document struct {
	Version int `json:"version"`
	// Source is bigtable, emulator or snapshot; for a snapshot, Origin
	// says where it was scanned.
	Source           string       `json:"source"`
	Origin           string       `json:"origin,omitempty"`
	Project          string       `json:"project,omitempty"`
	Instance         string       `json:"instance,omitempty"`
	Table            string       `json:"table"`
	KeyEscaping      string       `json:"key_escaping"`
	Delimiters       keyspace.Key `json:"delimiters"`
	RangesAreTablets bool         `json:"ranges_are_tablets"`
	Scan             ScanDoc      `json:"scan"`
	FindingCounts    CountsDoc    `json:"finding_counts"`
	Tablets          []TabletDoc  `json:"tablets"`
	Prefixes         []PrefixDoc  `json:"prefixes"`
	// Datasets are the table's datasets, each diagnosed on its own when
	// there are several.
	Datasets    []DatasetDoc `json:"datasets"`
	LargestRows []RowDoc     `json:"largest_rows"`
	Findings    []FindingDoc `json:"findings"`
	WhatIf      []WhatIfDoc  `json:"what_if,omitempty"`
	// Traffic is what a traffic recording saw, when the report is of one.
	Traffic *TrafficDoc `json:"traffic,omitempty"`
	// HotTablets are the table's hot tablets, when the report has them.
	HotTablets *HotTabletsDoc `json:"hot_tablets,omitempty"`
	// trafficOnly marks a report of a recording alone
	// ([keyspace.Snapshot.TrafficOnly]), hotOnly one of hot tablets alone.
	trafficOnly, hotOnly bool
}

// RecordingOnly reports whether the report is of a traffic recording
// alone, with no scan of what the table stores: it has no size, prefixes
// by rows or largest rows to report.
func (d Document) RecordingOnly() bool { return d.trafficOnly }

// HotTabletsOnly reports whether the report is of hot tablets alone, with
// no scan and no recording.
func (d Document) HotTabletsOnly() bool { return d.hotOnly }

// stored reports whether the report has a scan of what the table stores.
func (d Document) stored() bool { return !d.trafficOnly && !d.hotOnly }

// originText says where the report's data came from: "emulator",
// "snapshot, scanned from bigtable", "traffic recording through btviz
// record of localhost:8086".
func originText(d Document) string {
	if d.RecordingOnly() {
		text := "traffic recording through btviz record"
		if d.Traffic.Upstream != "" {
			text += " of " + d.Traffic.Upstream
		}
		return escape.Text(text)
	}
	if d.hotOnly {
		return "hot tablets from the instance admin API, no scan" // ListHotTablets; nothing was scanned
	}
	if d.Origin != "" {
		return escape.Text(d.Source + ", scanned from " + d.Origin)
	}
	return escape.Text(d.Source)
}

// whereText names the project and instance, each written by name, or ""
// when neither is known (a recording of an emulator, whose clients pick
// any names).
func whereText(d Document, name func(string) string) string {
	if d.Project == "" && d.Instance == "" {
		return ""
	}
	return "project " + name(d.Project) + ", instance " + name(d.Instance)
}

// sourceText is the report header's parenthesis: where the data came
// from and, when known, the project and instance.
func sourceText(d Document) string {
	if where := whereText(d, nameText); where != "" {
		return originText(d) + "; " + where
	}
	return originText(d)
}

// ScanDoc is how the snapshot was taken.
type ScanDoc struct {
	Mode string `json:"mode"`
	// Method says how a sample was drawn: "spans" (whole key spans, on an
	// emulator) or "rows" (RowSampleFilter); empty for a full scan.
	Method         string  `json:"method,omitempty"`
	Fraction       float64 `json:"fraction"`
	RowsRead       int64   `json:"rows_read"`
	RowsEstimated  int64   `json:"rows_estimated"`
	BytesEstimated int64   `json:"bytes_estimated"`
	// The 95% intervals of a sample's estimates (see
	// keyspace.ScanInfo.RowsEstimatedLow); a high end of 0 is unknown
	// (a scan that stopped part-way); absent for a full scan.
	RowsEstimatedLow   int64  `json:"rows_estimated_low,omitempty"`
	RowsEstimatedHigh  int64  `json:"rows_estimated_high,omitempty"`
	BytesEstimatedLow  int64  `json:"bytes_estimated_low,omitempty"`
	BytesEstimatedHigh int64  `json:"bytes_estimated_high,omitempty"`
	Complete           bool   `json:"complete"`
	Incomplete         string `json:"incomplete,omitempty"`
	ValuesRead         bool   `json:"values_read"`
	Started            string `json:"started"`
	DurationMillis     int64  `json:"duration_ms"`
}

// CountsDoc counts findings by severity.
type CountsDoc struct {
	Info    int `json:"info"`
	Warning int `json:"warning"`
	Error   int `json:"error"`
}

// TabletDoc is one range of the tablet map (a tablet when
// ranges_are_tablets, else the span between two sample keys).
type TabletDoc struct {
	Start keyspace.Key `json:"start"`
	End   keyspace.Key `json:"end"`
	Bytes int64        `json:"bytes"`
	Rows  int64        `json:"rows"`
}

// PrefixDoc is one of the largest prefixes of a tree level.
type PrefixDoc struct {
	Prefix keyspace.Key `json:"prefix"`
	Depth  int          `json:"depth"`
	Rows   int64        `json:"rows"`
	// RowsLow and RowsHigh bound the 95% interval of Rows (see
	// keyspace.Snapshot.NodeRowsInterval): equal to it when the scan
	// counted the prefix's rows exactly.
	RowsLow     int64   `json:"rows_low"`
	RowsHigh    int64   `json:"rows_high"`
	RowShare    float64 `json:"row_share"`
	Bytes       int64   `json:"bytes"`
	Cells       int64   `json:"cells"`
	MaxRowBytes int64   `json:"max_row_bytes"`
}

// RowDoc is one of the largest rows.
type RowDoc struct {
	Key          keyspace.Key `json:"key"`
	Bytes        int64        `json:"bytes"`
	Cells        int64        `json:"cells"`
	Columns      int64        `json:"columns"`
	MaxVersions  int64        `json:"max_versions"`
	MaxCellBytes int64        `json:"max_cell_bytes"`
	// KeyTime is the UTC time the key's first time segment holds
	// ("2026-10-31 00:00:32Z", "reversed: …" for a reversed timestamp,
	// see package keytime), or "" when it holds none.
	KeyTime string `json:"key_time,omitempty"`
}

// FindingDoc is one finding.
type FindingDoc struct {
	Kind     string       `json:"kind"`
	Severity string       `json:"severity"`
	Start    keyspace.Key `json:"start"`
	End      keyspace.Key `json:"end"`
	Prefix   keyspace.Key `json:"prefix"`
	// Dataset names the dataset the finding is about when the table
	// holds several; absent otherwise.
	Dataset  string             `json:"dataset,omitempty"`
	Summary  string             `json:"summary"`
	Advice   string             `json:"advice"`
	Evidence map[string]float64 `json:"evidence"`
	// Uncertain is true when a sample raised the finding on numbers
	// whose 95% intervals hold its threshold (their <metric>_low and
	// <metric>_high are in Evidence); absent otherwise.
	Uncertain bool `json:"uncertain,omitempty"`
}

// Build turns an [Input] into the report [Document].
func Build(in Input) Document {
	snap := in.Snapshot
	if snap == nil {
		snap = &keyspace.Snapshot{}
	}
	totals := snap.Totals()
	doc := Document{
		Version:          DocumentVersion,
		Source:           escape.Text(string(snap.Source)),
		Project:          escape.Text(snap.Project),
		Instance:         escape.Text(snap.Instance),
		Table:            escape.Text(snap.Table),
		KeyEscaping:      keyspace.KeyEscaping,
		Delimiters:       keyspace.Key(snap.Delimiters),
		RangesAreTablets: snap.RangesAreTablets,
		Scan:             scanDoc(snap.Scan, totals),
		Tablets:          []TabletDoc{},
		Prefixes:         topPrefixes(snap, in.AllTopPrefixes),
		Datasets:         datasetDocs(snap, in.Datasets),
		LargestRows:      []RowDoc{},
		Findings:         findingDocs(in.Findings),
		Traffic:          trafficDoc(snap),
		HotTablets:       hotTabletsDoc(snap),
		trafficOnly:      snap.TrafficOnly(),
		hotOnly:          snap.HotTabletsOnly(),
	}
	if in.FromFile {
		doc.Source, doc.Origin = SourceSnapshot, escape.Text(string(snap.Source))
	}
	counts := diagnose.CountBySeverity(in.Findings)
	doc.FindingCounts = CountsDoc{Info: counts.Info, Warning: counts.Warning, Error: counts.Error}
	for _, r := range snap.Ranges {
		bytes := r.SampledBytes
		if bytes == 0 {
			bytes = units.Round(r.Bytes)
		}
		doc.Tablets = append(doc.Tablets, TabletDoc{Start: r.Start, End: r.End, Bytes: bytes, Rows: units.Round(r.Rows)})
	}
	for _, row := range snap.Largest[:min(len(snap.Largest), LargestRows)] {
		doc.LargestRows = append(doc.LargestRows, RowDoc{
			Key: row.Key, Bytes: row.Bytes, Cells: row.Cells, Columns: row.Columns,
			MaxVersions: row.MaxVersions, MaxCellBytes: row.MaxCellBytes,
			KeyTime: keyTime(string(row.Key), snap.Delimiters),
		})
	}
	for _, w := range in.WhatIfs {
		if w != nil {
			doc.WhatIf = append(doc.WhatIf, whatIfDoc(w))
		}
	}
	return doc
}

func scanDoc(scan keyspace.ScanInfo, totals *keyspace.Stats) ScanDoc {
	rows, bytes := scan.RowsEstimated, scan.BytesEstimated
	if rows == 0 {
		rows = units.Round(totals.Rows)
	}
	if bytes == 0 {
		bytes = units.Round(totals.Bytes)
	}
	doc := ScanDoc{
		Mode: escape.Text(string(scan.Mode)), Method: escape.Text(string(scan.Method)), Fraction: scan.Fraction, RowsRead: scan.RowsRead,
		RowsEstimated: rows, BytesEstimated: bytes, Complete: scan.Complete, Incomplete: escape.Text(scan.Incomplete),
		ValuesRead: scan.ValuesRead, Started: timestamp(scan.Started), DurationMillis: scan.Duration.Milliseconds(),
	}
	if scan.Mode.IsSample() || !scan.Complete {
		doc.RowsEstimatedLow, doc.RowsEstimatedHigh = scan.RowsEstimatedLow, scan.RowsEstimatedHigh
		doc.BytesEstimatedLow, doc.BytesEstimatedHigh = scan.BytesEstimatedLow, scan.BytesEstimatedHigh
	}
	return doc
}

// estimateText writes an estimate with its 95% interval, when the scan
// has one: "200,000 (95%: 196,000–204,000)", "at least 120,000" for a
// scan that stopped part-way.
func estimateText(estimate, low, high int64, format func(float64) string) string {
	switch {
	case low > 0 && high > 0 && (low != estimate || high != estimate):
		return fmt.Sprintf("%s (95%%: %s–%s)", format(float64(estimate)), format(float64(low)), format(float64(high)))
	case low > 0 && high == 0:
		return fmt.Sprintf("about %s (at least %s; the scan stopped part-way)", format(float64(estimate)), format(float64(low)))
	}
	return format(float64(estimate))
}

// topPrefixes lists the largest prefix nodes by rows at each of the first
// [PrefixDepths] levels, every top-level one when all is set. Single rows
// are in largest_rows; ranges (runs of small siblings the tree merged)
// are left out, since their common prefix would pass for a prefix they
// do not fill.
func topPrefixes(snap *keyspace.Snapshot, all bool) []PrefixDoc {
	docs := []PrefixDoc{}
	if snap.Root == nil {
		return docs
	}
	total := snap.Root.Rows
	for depth := 1; depth <= PrefixDepths; depth++ {
		var nodes []*keyspace.Node
		snap.Root.Walk(func(n *keyspace.Node) bool {
			if n.Depth == depth && n.Kind == keyspace.KindPrefix {
				nodes = append(nodes, n)
			}
			return n.Depth < depth
		})
		slices.SortStableFunc(nodes, func(a, b *keyspace.Node) int { return cmp.Compare(b.Rows, a.Rows) })
		listed := min(len(nodes), PrefixesPerDepth)
		if all && depth == 1 {
			listed = len(nodes)
		}
		for _, n := range nodes[:listed] {
			low, high := snap.NodeRowsInterval(n)
			docs = append(docs, PrefixDoc{
				Prefix: n.Prefix, Depth: n.Depth, Rows: units.Round(n.Rows),
				RowsLow: units.Round(math.Floor(low)), RowsHigh: units.Round(math.Ceil(high)),
				RowShare: shareOf(n.Rows, total), Bytes: units.Round(n.Bytes), Cells: units.Round(n.Cells), MaxRowBytes: n.MaxRowBytes,
			})
		}
	}
	return docs
}

func findingDocs(findings []diagnose.Finding) []FindingDoc {
	docs := make([]FindingDoc, 0, len(findings))
	for _, f := range findings {
		docs = append(docs, findingDoc(f))
	}
	return docs
}

func findingDoc(f diagnose.Finding) FindingDoc {
	evidence := make(map[string]float64, len(f.Evidence))
	for name, value := range f.Evidence {
		evidence[name] = value
	}
	return FindingDoc{
		Kind: string(f.Kind), Severity: f.Severity.String(), Start: f.Start, End: f.End, Prefix: f.Prefix, Dataset: escape.Text(f.Dataset),
		Summary: escape.Text(f.Summary), Advice: escape.Text(f.Advice), Evidence: evidence, Uncertain: f.Uncertain,
	}
}

// shareOf returns part/whole rounded to 4 decimals, 0 for an empty whole.
func shareOf(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(units.Round(part/whole*1e4)) / 1e4
}

// keyTime returns the time a key's first time segment holds, as reports
// write it, or "".
func keyTime(key, delimiters string) string {
	_, _, t, ok := keytime.InKey(key, delimiters)
	switch {
	case !ok:
		return ""
	case t.Kind == keytime.Reversed:
		return "reversed: " + t.String()
	}
	return t.String()
}
