package report

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// textWidth is the width the text report wraps advice at.
const textWidth = 100

// Text renders a compact terminal report: a header with the scan and the
// finding counts, each finding with its range, summary, advice and
// evidence, the largest prefixes and rows, and the what-ifs. It is plain
// ASCII apart from what keys and names hold, never has control bytes, and
// has no colour: the command may style it.
func Text(in Input) []byte {
	doc := Build(in)
	t := &text{}
	t.line("btviz report: %s (%s)", nameText(doc.Table), sourceText(doc))
	if doc.stored() {
		t.line("scan: %s", scanText(doc.Scan))
		ranges := "tablets"
		if !doc.RangesAreTablets {
			ranges = "ranges (samples, not tablets)"
		}
		t.line("size: %s rows, %s; %s %s", estimateText(doc.Scan.RowsEstimated, doc.Scan.RowsEstimatedLow, doc.Scan.RowsEstimatedHigh, units.Count),
			estimateText(doc.Scan.BytesEstimated, doc.Scan.BytesEstimatedLow, doc.Scan.BytesEstimatedHigh, units.Bytes),
			units.Thousands(int64(len(doc.Tablets))), ranges)
	}
	t.line("findings: %d error, %d warning, %d info", doc.FindingCounts.Error, doc.FindingCounts.Warning, doc.FindingCounts.Info)
	t.datasets(doc)
	for _, f := range doc.Findings {
		t.line("")
		t.finding(f, "")
	}
	if doc.stored() {
		t.storage(doc)
	}
	if doc.Traffic != nil {
		t.traffic(doc.Traffic)
	}
	if doc.HotTablets != nil {
		t.hotTablets(doc.HotTablets)
	}
	for _, w := range doc.WhatIf {
		t.line("")
		t.whatIf(w)
	}
	return []byte(t.String())
}

// storage writes the largest prefixes and rows of a scan.
func (t *text) storage(doc Document) {
	t.line("")
	t.line("top prefixes (depth, rows, share, bytes):")
	prefixWidth := 0
	for _, p := range doc.Prefixes {
		prefixWidth = max(prefixWidth, len(printable(string(p.Prefix))))
	}
	if len(doc.Prefixes) == 0 {
		t.line("  none: the keys share no delimited prefix")
	}
	for _, p := range doc.Prefixes {
		t.line("  %d  %-*s %10s %5s %10s", p.Depth, prefixWidth, printable(string(p.Prefix)), units.Thousands(p.Rows), units.Percent(p.RowShare), units.Bytes(float64(p.Bytes)))
	}
	t.line("")
	t.line("largest rows (bytes, cells, columns, max versions):")
	keyWidth := 0
	for _, r := range doc.LargestRows {
		keyWidth = max(keyWidth, len(printable(string(r.Key))))
	}
	for _, r := range doc.LargestRows {
		line := fmt.Sprintf("  %-*s %10s %8s %8s %6s", keyWidth, printable(string(r.Key)), units.Bytes(float64(r.Bytes)), units.Thousands(r.Cells), units.Thousands(r.Columns), units.Thousands(r.MaxVersions))
		if r.KeyTime != "" {
			line += "  (" + r.KeyTime + ")"
		}
		t.line("%s", line)
	}
}

// text accumulates the text report.
type text struct{ strings.Builder }

func (t *text) line(format string, args ...any) {
	t.WriteString(fmt.Sprintf(format, args...))
	t.WriteByte('\n')
}

// wrapped writes label and s, wrapped at [textWidth] with a hanging
// indent.
func (t *text) wrapped(indent, label, s string) {
	line := indent + label
	hanging := indent
	if label != "" {
		hanging += strings.Repeat(" ", len(label)+1)
	}
	for _, word := range strings.Fields(s) {
		if len(line)+1+len(word) > textWidth && strings.TrimSpace(line) != strings.TrimSpace(indent+label) {
			t.line("%s", line)
			line = hanging + word
			continue
		}
		if !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += word
	}
	t.line("%s", line)
}

func (t *text) finding(f FindingDoc, indent string) {
	t.line("%s%-7s %s %s", indent, strings.ToUpper(f.Severity), f.Kind, rangeText(f.Start, f.End, printable))
	t.wrapped(indent+"  ", "", escape.Text(f.Summary))
	t.wrapped(indent+"  ", "advice:", escape.Text(f.Advice))
	t.wrapped(indent+"  ", "evidence:", evidenceText(f.Evidence, func(s string) string { return s }))
}

func (t *text) whatIf(w WhatIfDoc) {
	t.line("what-if %s (from %s sampled rows, %s re-keyed):", w.Transform, units.Thousands(int64(w.SampledRows)), units.Thousands(int64(w.ChangedRows)))
	t.wrapped("  ", "read cost:", escape.Text(w.ReadCost.Summary))
	for _, h := range w.HotRanges {
		t.line("  hot range %s: %s of rows and %s of recent writes before; largest of %d pieces after: %s and %s (%s)",
			printable(string(h.Prefix)), units.Percent(h.BeforeRowShare), units.Percent(h.BeforeWriteShare), h.Pieces,
			units.Percent(h.AfterRowShare), units.Percent(h.AfterWriteShare), printable(string(h.AfterLargestPiece)))
	}
	for _, c := range w.Findings {
		t.line("  %-26s %-12s -> %-12s %s", c.Kind, severityCell(c.Before, c.CountBefore), severityCell(c.After, c.CountAfter), c.Status)
	}
	for _, level := range w.Levels {
		if len(level.Before) == 0 && len(level.After) == 0 {
			continue
		}
		t.line("  %s (rows / recent writes):", strings.ToLower(levelTitle(level)[:1])+levelTitle(level)[1:])
		for i := range max(len(level.Before), len(level.After)) {
			before, after := "", ""
			if i < len(level.Before) {
				before = shareKey(level.Before[i], printable) + " " + shares(level.Before[i])
			}
			if i < len(level.After) {
				after = shareKey(level.After[i], printable) + " " + shares(level.After[i])
			}
			t.line("    %-44s -> %s", before, after)
		}
	}
}
