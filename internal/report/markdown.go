package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Markdown renders the report for a design review: a summary table, the
// findings with their range, summary, advice and evidence, the largest
// prefixes and rows, and the what-ifs. Keys are code spans built by
// [mdCode], free text is escaped by [mdText], so no key or summary can
// break a table or inject markup. [Input.Images] are linked under their
// section headings.
func Markdown(in Input) []byte {
	doc := Build(in)
	md := &markdown{images: in.Images}
	md.line("# btviz report: " + mdName(doc.Table))
	md.line("")
	md.section(SectionSummary)
	md.summary(doc)
	md.datasets(doc)
	md.heading("## Findings", SectionFindings)
	md.findings(doc.Findings)
	if doc.stored() {
		md.heading("## Top prefixes", SectionPrefixes)
		md.prefixes(doc.Prefixes)
		md.heading("## Largest rows", SectionLargestRows)
		md.largestRows(doc.LargestRows)
	}
	if doc.Traffic != nil {
		md.heading("## Traffic", SectionTraffic)
		md.traffic(doc.Traffic)
	}
	if doc.HotTablets != nil {
		md.heading("## Hot tablets", SectionHotTablets)
		md.hotTablets(doc.HotTablets)
	}
	for _, w := range doc.WhatIf {
		md.heading("## What-if: "+mdCode(w.Transform), SectionWhatIf)
		md.whatIf(w)
	}
	return []byte(md.String())
}

// markdown accumulates the Markdown report.
type markdown struct {
	strings.Builder
	images map[Section][]Image
}

func (md *markdown) line(s string) {
	md.WriteString(s)
	md.WriteByte('\n')
}

// heading writes a section heading and the section's images.
func (md *markdown) heading(title string, section Section) {
	md.line(title)
	md.line("")
	md.section(section)
}

// section links the images of a section, one paragraph each.
func (md *markdown) section(section Section) {
	for _, img := range md.images[section] {
		md.line("![" + mdText(img.Alt) + "](" + mdLink(img.Path) + ")")
		md.line("")
	}
}

// mdLink writes an image path as a link destination: in angle brackets,
// which allow spaces, with the characters that would end it escaped.
func mdLink(path string) string {
	path = keyspace.Printable(path)
	path = strings.NewReplacer("<", "%3C", ">", "%3E").Replace(path)
	return "<" + path + ">"
}

// table writes a Markdown table; cells must already be escaped.
func (md *markdown) table(header []string, rows [][]string) {
	md.line("| " + strings.Join(header, " | ") + " |")
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	md.line("|" + strings.Join(sep, "|") + "|")
	for _, row := range rows {
		md.line("| " + strings.Join(row, " | ") + " |")
	}
	md.line("")
}

func (md *markdown) summary(doc Document) {
	table := mdName(doc.Table)
	if where := whereText(doc, mdName); where != "" {
		table += " in " + where
	}
	source := originText(doc)
	if doc.Origin != "" && !doc.RecordingOnly() {
		source = doc.Source + " (scanned from " + doc.Origin + ")"
	}
	rows := [][]string{{"Table", table}, {"Source", mdText(source)}}
	switch {
	case doc.RecordingOnly():
		rows = append(rows, []string{"Recorded", mdText(trafficSummary(doc.Traffic))})
	case doc.HotTabletsOnly():
		rows = append(rows, []string{"Hot tablets", mdText(hotTabletsSummary(doc.HotTablets))})
	default:
		ranges := fmt.Sprintf("%s tablets", units.Thousands(int64(len(doc.Tablets))))
		if !doc.RangesAreTablets {
			ranges = fmt.Sprintf("%s ranges (samples, not tablets)", units.Thousands(int64(len(doc.Tablets))))
		}
		rows = append(rows,
			[]string{"Scan", mdText(scanText(doc.Scan))},
			[]string{"Rows", estimateText(doc.Scan.RowsEstimated, doc.Scan.RowsEstimatedLow, doc.Scan.RowsEstimatedHigh, units.Count)},
			[]string{"Bytes", estimateText(doc.Scan.BytesEstimated, doc.Scan.BytesEstimatedLow, doc.Scan.BytesEstimatedHigh, units.Bytes)},
			[]string{"Key ranges", mdText(ranges)})
	}
	md.table([]string{"Item", "Value"}, append(rows,
		[]string{"Findings", fmt.Sprintf("%d error, %d warning, %d info", doc.FindingCounts.Error, doc.FindingCounts.Warning, doc.FindingCounts.Info)},
		[]string{"Key escaping", mdText(doc.KeyEscaping)}))
}

// scanText describes the scan in one line.
func scanText(scan ScanDoc) string {
	var parts []string
	switch {
	case keyspace.Mode(scan.Mode).IsSample():
		info := keyspace.ScanInfo{Mode: keyspace.ModeSample, Fraction: scan.Fraction, Method: keyspace.SampleMethod(scan.Method)}
		parts = append(parts, fmt.Sprintf("%s, %s rows read", info.ModeText(), units.Thousands(scan.RowsRead)))
	case scan.Mode != "":
		parts = append(parts, scan.Mode)
	}
	if scan.Complete {
		parts = append(parts, "complete")
	} else {
		reason := "incomplete"
		if scan.Incomplete != "" {
			reason += ": " + scan.Incomplete
		}
		parts = append(parts, reason)
	}
	if scan.Started != "" {
		parts = append(parts, "started "+scan.Started+" in "+units.Duration(millis(scan.DurationMillis)))
	}
	return strings.Join(parts, ", ")
}

func (md *markdown) findings(findings []FindingDoc) {
	if len(findings) == 0 {
		md.line("No findings.")
		md.line("")
		return
	}
	var rows [][]string
	for i, f := range findings {
		rows = append(rows, []string{fmt.Sprint(i + 1), f.Severity, mdText(f.Kind), prefixCell(f.Prefix), mdText(f.Summary)})
	}
	md.table([]string{"#", "Severity", "Kind", "Prefix", "Summary"}, rows)
	for i, f := range findings {
		md.line(fmt.Sprintf("### %d. %s: %s", i+1, f.Severity, mdText(f.Kind)))
		md.line("")
		md.line("- **Range:** " + rangeText(f.Start, f.End, mdKey))
		if f.Prefix != "" {
			md.line("- **Prefix:** " + mdKey(string(f.Prefix)))
		}
		md.line("- **Summary:** " + mdText(f.Summary))
		md.line("- **Advice:** " + mdText(f.Advice))
		md.line("- **Evidence:** " + evidenceText(f.Evidence, mdCode))
		md.line("")
	}
}

// prefixCell writes a finding's prefix for a table, "(table)" when empty.
func prefixCell(prefix keyspace.Key) string {
	if prefix == "" {
		return "(table)"
	}
	return mdKey(string(prefix))
}

// evidenceText writes evidence as name=value pairs in name order.
func evidenceText(evidence map[string]float64, code func(string) string) string {
	var parts []string
	for _, name := range diagnose.Evidence(evidence).Names() {
		parts = append(parts, code(name+"="+units.Number(evidence[name])))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func (md *markdown) prefixes(prefixes []PrefixDoc) {
	if len(prefixes) == 0 {
		md.line("No prefixes.")
		md.line("")
		return
	}
	var rows [][]string
	for _, p := range prefixes {
		rows = append(rows, []string{fmt.Sprint(p.Depth), mdKey(string(p.Prefix)), units.Thousands(p.Rows),
			units.Percent(p.RowShare), units.Bytes(float64(p.Bytes)), units.Thousands(p.Cells), units.Bytes(float64(p.MaxRowBytes))})
	}
	md.table([]string{"Depth", "Prefix", "Rows", "Share", "Bytes", "Cells", "Largest row"}, rows)
}

func (md *markdown) largestRows(rows []RowDoc) {
	if len(rows) == 0 {
		md.line("No rows.")
		md.line("")
		return
	}
	var cells [][]string
	timed := slices.ContainsFunc(rows, func(r RowDoc) bool { return r.KeyTime != "" })
	for _, r := range rows {
		row := []string{mdKey(string(r.Key)), units.Bytes(float64(r.Bytes)), units.Thousands(r.Cells),
			units.Thousands(r.Columns), units.Thousands(r.MaxVersions), units.Bytes(float64(r.MaxCellBytes))}
		if timed {
			row = append(row, r.KeyTime)
		}
		cells = append(cells, row)
	}
	head := []string{"Key", "Bytes", "Cells", "Columns", "Max versions", "Largest cell"}
	if timed {
		head = append(head, "Time in key")
	}
	md.table(head, cells)
}
