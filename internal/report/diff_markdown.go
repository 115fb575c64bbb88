package report

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/units"
)

// diffMarkdown writes the diff for a pull request: a summary table of
// both snapshots, the notes, the images, the largest share changes and
// the findings that appeared, disappeared or changed.
func diffMarkdown(doc DiffDocument, images []Image) []byte {
	md := &markdown{}
	title := "# btviz diff: " + mdName(doc.Before.Table)
	if doc.After.Table != doc.Before.Table {
		title += " → " + mdName(doc.After.Table)
	}
	md.line(title)
	md.line("")
	if doc.Before.Label != "" || doc.After.Label != "" {
		md.line("Before: " + labelCell(doc.Before.Label) + " · after: " + labelCell(doc.After.Label))
		md.line("")
	}
	md.diffSummary(doc)
	if len(doc.Notes) > 0 {
		md.line("**Read with care:**")
		md.line("")
		for _, note := range doc.Notes {
			md.line("- " + mdText(note))
		}
		md.line("")
	}
	for _, img := range images {
		md.line("![" + mdText(img.Alt) + "](" + mdLink(img.Path) + ")")
		md.line("")
	}
	md.line("## Biggest share changes")
	md.line("")
	md.diffPrefixes(doc)
	if len(doc.Moves) > 0 {
		md.line("## Moved prefixes")
		md.line("")
		md.diffMoves(doc.Moves)
	}
	md.line("## Findings")
	md.line("")
	md.diffFindings(doc.Findings)
	return []byte(md.String())
}

// labelCell writes a snapshot label as a code span, or a dash.
func labelCell(label string) string {
	if label == "" {
		return "-"
	}
	return mdName(label)
}

func (md *markdown) diffSummary(doc DiffDocument) {
	b, a := doc.Before, doc.After
	rows := [][]string{}
	if a.Table != b.Table {
		rows = append(rows, []string{"Table", mdName(b.Table), mdName(a.Table), ""})
	}
	rows = append(rows,
		[]string{"Source", mdText(sideSource(b)), mdText(sideSource(a)), ""},
		[]string{"Scan", mdText(scanText(b.Scan)), mdText(scanText(a.Scan)), ""},
		[]string{"Rows", units.Thousands(b.Rows), units.Thousands(a.Rows), countChange(b.Rows, a.Rows)},
		[]string{"Bytes", units.Bytes(float64(b.Bytes)), units.Bytes(float64(a.Bytes)), relativeChange(b.Bytes, a.Bytes)},
		[]string{"Cells", units.Thousands(b.Cells), units.Thousands(a.Cells), countChange(b.Cells, a.Cells)},
		[]string{"Largest row", units.Bytes(float64(b.MaxRowBytes)), units.Bytes(float64(a.MaxRowBytes)), relativeChange(b.MaxRowBytes, a.MaxRowBytes)},
		[]string{"Top prefix (largest share of rows among siblings)", topPrefixCell(b.TopPrefix, mdKey), topPrefixCell(a.TopPrefix, mdKey), topPrefixChange(b.TopPrefix, a.TopPrefix)},
		[]string{"Findings", countsText(b.FindingCounts), countsText(a.FindingCounts), countsChange(b.FindingCounts, a.FindingCounts)},
	)
	md.table([]string{"", "Before", "After", "Change"}, rows)
}

// sideSource says where a snapshot came from.
func sideSource(side DiffSideDoc) string {
	text := side.Source
	if text == "" {
		text = "unknown source"
	}
	if side.Project != "" || side.Instance != "" {
		text += " " + side.Project + "/" + side.Instance
	}
	return text
}

func (md *markdown) diffPrefixes(doc DiffDocument) {
	shown := doc.Prefixes[:min(len(doc.Prefixes), DiffPrefixesShown)]
	if len(shown) == 0 {
		md.line("No prefix's share of rows or writes changed.")
		md.line("")
	} else {
		var rows [][]string
		for _, p := range shown {
			rows = append(rows, []string{mdKey(string(p.Prefix)), fmt.Sprint(p.Depth), p.Status,
				lowerBound(p) + units.Thousands(p.RowsBefore) + " → " + lowerBound(p) + units.Thousands(p.RowsAfter),
				shareChange(p.RowShareBefore, p.RowShareAfter, " → "), shareChange(p.WriteShareBefore, p.WriteShareAfter, " → ")})
		}
		md.table([]string{"Prefix", "Depth", "Status", "Rows", "Share of rows", "Share of writes"}, rows)
	}
	md.line(prefixCountsText(doc) + " Shares are of each snapshot's own total; a count marked ≥ is a lower bound (the prefix cuts through a merged key range).")
	md.line("")
}

func (md *markdown) diffMoves(moves []MoveDoc) {
	md.line("Prefixes that one snapshot holds at the start of its keys and the other behind a leading key segment, in pieces (salting puts a hash in front). Rows add up the pieces; the shares are where the prefix leads the key, and of the largest piece.")
	md.line("")
	var rows [][]string
	for _, m := range moves[:min(len(moves), DiffMovesShown)] {
		rows = append(rows, moveCells(m, mdKey, " → ", "≥"))
	}
	md.table([]string{"Prefix", "Moved", "Pieces", "Rows", "Where it leads the key", "Largest piece"}, rows)
	if len(moves) > DiffMovesShown {
		md.line(fmt.Sprintf("And %d more (the JSON diff lists them).", len(moves)-DiffMovesShown))
	}
	md.line("")
}

func (md *markdown) diffFindings(f FindingsDiffDoc) {
	md.line("Matched by kind and prefix; scan notes are left out (the notes above compare the scans).")
	md.line("")
	md.findingList(fmt.Sprintf("### Resolved (%d): only before", len(f.Disappeared)), f.Disappeared)
	md.findingList(fmt.Sprintf("### New (%d): only after", len(f.Appeared)), f.Appeared)
	md.line(fmt.Sprintf("### Changed (%d): in both, with different severity or evidence", len(f.Changed)))
	md.line("")
	for _, c := range f.Changed {
		md.line(fmt.Sprintf("- **%s** %s at %s", mdText(c.Kind), severityChange(c.SeverityBefore, c.SeverityAfter, " → "), prefixCell(c.Prefix)))
		md.line("  - Evidence: " + evidenceChanges(c.Evidence, mdCode, " → "))
		md.line("  - Now: " + mdText(c.SummaryAfter))
	}
	if len(f.Changed) > 0 {
		md.line("")
	}
	md.line(fmt.Sprintf("### Unchanged (%d)", len(f.Unchanged)))
	md.line("")
	if len(f.Unchanged) > 0 {
		var rows [][]string
		for _, u := range f.Unchanged {
			rows = append(rows, []string{u.Severity, mdText(u.Kind), prefixCell(u.Prefix)})
		}
		md.table([]string{"Severity", "Kind", "Prefix"}, rows)
	}
}

// findingList writes a heading and a table of findings with their advice.
func (md *markdown) findingList(heading string, findings []FindingDoc) {
	md.line(heading)
	md.line("")
	if len(findings) == 0 {
		return
	}
	var rows [][]string
	for _, f := range findings {
		rows = append(rows, []string{f.Severity, mdText(f.Kind), prefixCell(f.Prefix), mdText(f.Summary)})
	}
	md.table([]string{"Severity", "Kind", "Prefix", "Summary"}, rows)
}

// evidenceChanges writes changed evidence as name before→after pairs.
func evidenceChanges(evidence []EvidenceDiffDoc, code func(string) string, arrow string) string {
	if len(evidence) == 0 {
		return "unchanged"
	}
	parts := make([]string, len(evidence))
	for i, e := range evidence {
		parts[i] = code(e.Name) + " " + optionalNumber(e.Before) + arrow + optionalNumber(e.After)
	}
	return strings.Join(parts, ", ")
}

func optionalNumber(v *float64) string {
	if v == nil {
		return "none"
	}
	return units.Number(*v)
}
