package report

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// diffText writes the diff for a terminal: both snapshots side by side,
// the notes, the largest share changes and the findings that changed. It
// is plain ASCII apart from what keys and names hold, and has no control
// bytes.
func diffText(doc DiffDocument) []byte {
	t := &text{}
	b, a := doc.Before, doc.After
	title := nameText(b.Table)
	if a.Table != b.Table {
		title += " -> " + nameText(a.Table)
	}
	t.line("btviz diff: %s", title)
	if b.Label != "" || a.Label != "" {
		t.line("before: %s  after: %s", orDash(b.Label), orDash(a.Label))
	}
	for _, note := range doc.Notes {
		t.wrapped("", "note:", note)
	}
	t.line("")
	rows := [][]string{
		{"", "before", "after", "change"},
		{"source", escape.Text(sideSource(b)), escape.Text(sideSource(a)), ""},
		{"scan", scanText(b.Scan), scanText(a.Scan), ""},
		{"rows", units.Thousands(b.Rows), units.Thousands(a.Rows), countChange(b.Rows, a.Rows)},
		{"bytes", units.Bytes(float64(b.Bytes)), units.Bytes(float64(a.Bytes)), relativeChange(b.Bytes, a.Bytes)},
		{"cells", units.Thousands(b.Cells), units.Thousands(a.Cells), countChange(b.Cells, a.Cells)},
		{"largest row", units.Bytes(float64(b.MaxRowBytes)), units.Bytes(float64(a.MaxRowBytes)), relativeChange(b.MaxRowBytes, a.MaxRowBytes)},
		{"findings", countsText(b.FindingCounts), countsText(a.FindingCounts), countsChange(b.FindingCounts, a.FindingCounts)},
	}
	for _, r := range padColumns(rows) {
		t.line("  %s", strings.TrimRight(strings.Join(r, "  "), " "))
	}
	t.line("  top prefix (largest share of rows among siblings):")
	t.line("    before: %s", topPrefixCell(b.TopPrefix, printable))
	t.line("    after:  %s", topPrefixCell(a.TopPrefix, printable))
	t.line("")
	t.diffPrefixes(doc)
	t.line("")
	if len(doc.Moves) > 0 {
		t.diffMoves(doc.Moves)
		t.line("")
	}
	t.diffFindings(doc.Findings)
	return []byte(t.String())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return nameText(s)
}

func (t *text) diffPrefixes(doc DiffDocument) {
	shown := doc.Prefixes[:min(len(doc.Prefixes), DiffPrefixesShown)]
	t.line("biggest share changes (rows; share of rows; share of writes):")
	if len(shown) == 0 {
		t.line("  none: no prefix's share of rows or writes changed")
	}
	var rows [][]string
	for _, p := range shown {
		bound := ""
		if !p.Exact {
			bound = ">="
		}
		rows = append(rows, []string{p.Status, printable(string(p.Prefix)),
			bound + units.Thousands(p.RowsBefore) + " -> " + bound + units.Thousands(p.RowsAfter),
			shareChange(p.RowShareBefore, p.RowShareAfter, " -> "), shareChange(p.WriteShareBefore, p.WriteShareAfter, " -> ")})
	}
	for _, r := range padColumns(rows) {
		t.line("  %s %s", r[0], strings.Join(r[1:], "  "))
	}
	t.wrapped("  ", "", prefixCountsText(doc))
}

func (t *text) diffMoves(moves []MoveDoc) {
	t.line("moved prefixes (behind a new leading key segment, as salting puts them, or out from behind one):")
	rows := [][]string{{"prefix", "moved", "pieces", "rows", "where it leads the key", "largest piece"}}
	for _, m := range moves[:min(len(moves), DiffMovesShown)] {
		rows = append(rows, moveCells(m, printable, " -> ", ">="))
	}
	for _, r := range padColumns(rows) {
		t.line("  %s", strings.Join(r, "  "))
	}
	if len(moves) > DiffMovesShown {
		t.line("  and %d more (the JSON diff lists them)", len(moves)-DiffMovesShown)
	}
}

// padColumns pads every cell but the last of each row to its column's
// width, so that rows joined cell by cell line up on screen. Widths are
// display widths ([ansi.StringWidth]: a key or file name in another
// script takes the cells a terminal gives it, "é" one and "表" two), not
// bytes.
func padColumns(rows [][]string) [][]string {
	var widths []int
	for _, r := range rows {
		for i, cell := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	padded := make([][]string, len(rows))
	for j, r := range rows {
		padded[j] = make([]string, len(r))
		for i, cell := range r {
			if i < len(r)-1 {
				cell += strings.Repeat(" ", widths[i]-ansi.StringWidth(cell))
			}
			padded[j][i] = cell
		}
	}
	return padded
}

func (t *text) diffFindings(f FindingsDiffDoc) {
	t.line("findings (matched by kind and prefix; scan notes left out):")
	t.line("  resolved (only before): %d", len(f.Disappeared))
	for _, d := range f.Disappeared {
		t.finding(d, "    ")
	}
	t.line("  new (only after): %d", len(f.Appeared))
	for _, d := range f.Appeared {
		t.finding(d, "    ")
	}
	t.line("  changed: %d", len(f.Changed))
	for _, c := range f.Changed {
		t.line("    %s %s %s", c.Kind, severityChange(c.SeverityBefore, c.SeverityAfter, " -> "), rangeText(c.Start, c.End, printable))
		t.wrapped("      ", "evidence:", evidenceChanges(c.Evidence, func(s string) string { return s }, " -> "))
		t.wrapped("      ", "now:", escape.Text(c.SummaryAfter))
	}
	t.line("  unchanged: %d", len(f.Unchanged))
	for _, u := range f.Unchanged {
		prefix := "(table)"
		if u.Prefix != "" {
			prefix = printable(string(u.Prefix))
		}
		t.line("    %-7s %s %s", u.Severity, u.Kind, prefix)
	}
}
