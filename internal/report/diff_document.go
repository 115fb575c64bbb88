package report

import (
	"fmt"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// DiffDocumentVersion is the version of the diff's JSON shape.
const DiffDocumentVersion = 1

// DiffDocument is the diff as JSON writes it. The field names are stable:
//
//	{ "version": 1, "key_escaping": "…", "notes": ["…"],
//	  "before": SIDE, "after": SIDE,
//	  "prefixes_compared": N, "max_depth": N,
//	  "prefix_counts": { "added": N, "removed": N, "changed": N, "unchanged": N },
//	  "prefixes": [ { "prefix": "…", "depth": N, "status": "added|removed|changed|unchanged",
//	                  "exact": true, "rows_before": N, "rows_after": N,
//	                  "bytes_before": N, "bytes_after": N, "cells_before": N, "cells_after": N,
//	                  "row_share_before": F, "row_share_after": F,
//	                  "write_share_before": F, "write_share_after": F } ],
//	  "moves": [ { "prefix": "…", "direction": "behind-new-leading-segment|to-front",
//	               "pieces": N, "exact": true, "rows_before": N, "rows_after": N,
//	               "row_share_before": F, "row_share_after": F,
//	               "write_share_before": F, "write_share_after": F,
//	               "largest_piece": { "prefix": "…", "rows": N, "row_share": F, "write_share": F } } ],
//	  "findings": { "appeared": [FINDING], "disappeared": [FINDING],
//	                "changed": [ { "kind": "…", "prefix": "…", "start": "…", "end": "…",
//	                               "severity_before": "…", "severity_after": "…",
//	                               "summary_before": "…", "summary_after": "…",
//	                               "evidence": [ { "name": "…", "before": F|null, "after": F|null } ] } ],
//	                "unchanged": [ { "kind": "…", "prefix": "…", "severity": "…" } ] } }
//
// SIDE is { "label", "source", "project", "instance", "table", "delimiters",
// "ranges", "ranges_are_tablets", "scan" (as in the report), "rows", "bytes",
// "cells", "max_row_bytes", "finding_counts", "top_prefix" } where
// top_prefix is { "prefix", "kind", "depth", "siblings", "row_share",
// "write_share" } or null; FINDING is a finding as in the report.
//
// Counts are integers rounded from the snapshots' estimates; shares are
// 0–1, rounded to 4 decimals. "prefixes" lists the largest share changes
// first, at most [DiffPrefixesListed]. "moves" lists the prefixes that one
// snapshot holds at the start of its keys and the other behind a leading
// key segment, in pieces (a salted redesign: see [keyspace.PrefixMove]),
// largest share first, at most [DiffPrefixesListed]; their before and
// after figures add up the pieces on the side that has them, and
// largest_piece is the piece with the largest share of rows. Write share is the share of cells
// written (and kept by GC). Findings are matched by kind and prefix; scan
// notes are left out (the diff's notes say how the scans differ). Keys are
// escaped by [keyspace.Printable], as key_escaping says.
type DiffDocument struct {
	Version          int             `json:"version"`
	KeyEscaping      string          `json:"key_escaping"`
	Notes            []string        `json:"notes"`
	Before           DiffSideDoc     `json:"before"`
	After            DiffSideDoc     `json:"after"`
	PrefixesCompared int             `json:"prefixes_compared"`
	MaxDepth         int             `json:"max_depth"`
	PrefixCounts     PrefixCountsDoc `json:"prefix_counts"`
	Prefixes         []PrefixDiffDoc `json:"prefixes"`
	Moves            []MoveDoc       `json:"moves"`
	Findings         FindingsDiffDoc `json:"findings"`
}

// MoveDoc is a prefix moved behind a new leading key segment or out from
// behind one (see [keyspace.PrefixMove]).
type MoveDoc struct {
	Prefix           keyspace.Key `json:"prefix"`
	Direction        string       `json:"direction"`
	Pieces           int          `json:"pieces"`
	Exact            bool         `json:"exact"`
	RowsBefore       int64        `json:"rows_before"`
	RowsAfter        int64        `json:"rows_after"`
	RowShareBefore   float64      `json:"row_share_before"`
	RowShareAfter    float64      `json:"row_share_after"`
	WriteShareBefore float64      `json:"write_share_before"`
	WriteShareAfter  float64      `json:"write_share_after"`
	LargestPiece     MovePieceDoc `json:"largest_piece"`
}

// MovePieceDoc is the largest piece of a moved prefix.
type MovePieceDoc struct {
	Prefix     keyspace.Key `json:"prefix"`
	Rows       int64        `json:"rows"`
	RowShare   float64      `json:"row_share"`
	WriteShare float64      `json:"write_share"`
}

// DiffSideDoc is one snapshot of a diff.
type DiffSideDoc struct {
	Label            string        `json:"label"`
	Source           string        `json:"source"`
	Project          string        `json:"project"`
	Instance         string        `json:"instance"`
	Table            string        `json:"table"`
	Delimiters       keyspace.Key  `json:"delimiters"`
	Ranges           int           `json:"ranges"`
	RangesAreTablets bool          `json:"ranges_are_tablets"`
	Scan             ScanDoc       `json:"scan"`
	Rows             int64         `json:"rows"`
	Bytes            int64         `json:"bytes"`
	Cells            int64         `json:"cells"`
	MaxRowBytes      int64         `json:"max_row_bytes"`
	FindingCounts    CountsDoc     `json:"finding_counts"`
	TopPrefix        *TopPrefixDoc `json:"top_prefix"`
}

// TopPrefixDoc is the prefix or row holding the largest share of rows
// among its siblings (see [keyspace.TopPrefix]).
type TopPrefixDoc struct {
	Prefix     keyspace.Key `json:"prefix"`
	Kind       string       `json:"kind"`
	Depth      int          `json:"depth"`
	Siblings   int          `json:"siblings"`
	RowShare   float64      `json:"row_share"`
	WriteShare float64      `json:"write_share"`
}

// PrefixCountsDoc counts the compared prefixes by status.
type PrefixCountsDoc struct {
	Added     int `json:"added"`
	Removed   int `json:"removed"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
}

// PrefixDiffDoc is one prefix before and after; exact is false when a
// count is a lower bound because the prefix cuts through a merged range.
type PrefixDiffDoc struct {
	Prefix           keyspace.Key `json:"prefix"`
	Depth            int          `json:"depth"`
	Status           string       `json:"status"`
	Exact            bool         `json:"exact"`
	RowsBefore       int64        `json:"rows_before"`
	RowsAfter        int64        `json:"rows_after"`
	BytesBefore      int64        `json:"bytes_before"`
	BytesAfter       int64        `json:"bytes_after"`
	CellsBefore      int64        `json:"cells_before"`
	CellsAfter       int64        `json:"cells_after"`
	RowShareBefore   float64      `json:"row_share_before"`
	RowShareAfter    float64      `json:"row_share_after"`
	WriteShareBefore float64      `json:"write_share_before"`
	WriteShareAfter  float64      `json:"write_share_after"`
}

// FindingsDiffDoc sorts the findings of the two snapshots: only after
// (appeared), only before (disappeared), in both with a different
// severity or evidence (changed), in both alike (unchanged).
type FindingsDiffDoc struct {
	Appeared    []FindingDoc       `json:"appeared"`
	Disappeared []FindingDoc       `json:"disappeared"`
	Changed     []FindingChangeDoc `json:"changed"`
	Unchanged   []FindingRefDoc    `json:"unchanged"`
}

// FindingChangeDoc is a finding present in both snapshots whose severity
// or evidence changed; evidence lists only the values that differ.
type FindingChangeDoc struct {
	Kind           string            `json:"kind"`
	Prefix         keyspace.Key      `json:"prefix"`
	Start          keyspace.Key      `json:"start"`
	End            keyspace.Key      `json:"end"`
	SeverityBefore string            `json:"severity_before"`
	SeverityAfter  string            `json:"severity_after"`
	SummaryBefore  string            `json:"summary_before"`
	SummaryAfter   string            `json:"summary_after"`
	Evidence       []EvidenceDiffDoc `json:"evidence"`
}

// EvidenceDiffDoc is one evidence value before and after; null where the
// finding did not have it.
type EvidenceDiffDoc struct {
	Name   string   `json:"name"`
	Before *float64 `json:"before"`
	After  *float64 `json:"after"`
}

// FindingRefDoc names a finding present, alike, in both snapshots.
type FindingRefDoc struct {
	Kind     string       `json:"kind"`
	Prefix   keyspace.Key `json:"prefix"`
	Severity string       `json:"severity"`
}

// BuildDiff compares in.A with in.B ([keyspace.Diff]) and turns the
// result into the [DiffDocument] every diff format is written from.
func BuildDiff(in DiffInput) (DiffDocument, error) {
	d, err := keyspace.Diff(in.A, in.B, keyspace.DiffOptions{AllowDifferentTables: in.AllowDifferentTables, MaxDepth: in.MaxDepth})
	if err != nil {
		return DiffDocument{}, fmt.Errorf("comparing snapshots: %w", err)
	}
	doc := DiffDocument{
		Version: DiffDocumentVersion, KeyEscaping: keyspace.KeyEscaping, Notes: []string{},
		Before: diffSideDoc(in.LabelA, d.Before, in.FindingsA), After: diffSideDoc(in.LabelB, d.After, in.FindingsB),
		PrefixesCompared: len(d.Prefixes), MaxDepth: d.MaxDepth,
		PrefixCounts: PrefixCountsDoc{
			Added: d.Count(keyspace.PrefixAdded), Removed: d.Count(keyspace.PrefixRemoved),
			Changed: d.Count(keyspace.PrefixChanged), Unchanged: d.Count(keyspace.PrefixUnchanged),
		},
		Prefixes: []PrefixDiffDoc{},
		Moves:    []MoveDoc{},
		Findings: diffFindings(in.FindingsA, in.FindingsB),
	}
	for _, note := range d.Notes {
		doc.Notes = append(doc.Notes, escape.Text(note))
	}
	for _, c := range d.Largest(DiffPrefixesListed) {
		doc.Prefixes = append(doc.Prefixes, prefixDiffDoc(c))
	}
	for _, m := range d.Moves[:min(len(d.Moves), DiffPrefixesListed)] {
		doc.Moves = append(doc.Moves, moveDoc(m))
	}
	return doc, nil
}

func moveDoc(m keyspace.PrefixMove) MoveDoc {
	before, after := m.Whole, m.Sum
	if m.Direction == keyspace.MovedToFront {
		before, after = after, before
	}
	largest := m.Largest()
	return MoveDoc{
		Prefix: m.Prefix, Direction: string(m.Direction), Pieces: len(m.Pieces), Exact: before.Exact && after.Exact,
		RowsBefore: units.Round(before.Rows), RowsAfter: units.Round(after.Rows),
		RowShareBefore: shareOf(before.RowShare, 1), RowShareAfter: shareOf(after.RowShare, 1),
		WriteShareBefore: shareOf(before.WriteShare, 1), WriteShareAfter: shareOf(after.WriteShare, 1),
		LargestPiece: MovePieceDoc{Prefix: largest.Prefix, Rows: units.Round(largest.Measure.Rows),
			RowShare: shareOf(largest.Measure.RowShare, 1), WriteShare: shareOf(largest.Measure.WriteShare, 1)},
	}
}

func diffSideDoc(label string, side keyspace.DiffSide, findings []diagnose.Finding) DiffSideDoc {
	counts := diagnose.CountBySeverity(findings)
	doc := DiffSideDoc{
		Label: escape.Text(label), Source: escape.Text(string(side.Source)), Project: escape.Text(side.Project),
		Instance: escape.Text(side.Instance), Table: escape.Text(side.Table),
		Delimiters: keyspace.Key(side.Delimiters), Ranges: side.Ranges, RangesAreTablets: side.RangesAreTablets,
		Scan: scanDoc(side.Scan, &side.Totals), Rows: units.Round(side.Totals.Rows), Bytes: units.Round(side.Totals.Bytes),
		Cells: units.Round(side.Totals.Cells), MaxRowBytes: side.Totals.MaxRowBytes,
		FindingCounts: CountsDoc{Info: counts.Info, Warning: counts.Warning, Error: counts.Error},
	}
	if top := side.TopPrefix; top.Siblings > 0 {
		doc.TopPrefix = &TopPrefixDoc{Prefix: top.Prefix, Kind: top.Kind.String(), Depth: top.Depth, Siblings: top.Siblings,
			RowShare: shareOf(top.RowShare, 1), WriteShare: shareOf(top.WriteShare, 1)}
	}
	return doc
}

func prefixDiffDoc(c keyspace.PrefixChange) PrefixDiffDoc {
	return PrefixDiffDoc{
		Prefix: c.Prefix, Depth: c.Depth, Status: string(c.Status), Exact: c.Before.Exact && c.After.Exact,
		RowsBefore: units.Round(c.Before.Rows), RowsAfter: units.Round(c.After.Rows),
		BytesBefore: units.Round(c.Before.Bytes), BytesAfter: units.Round(c.After.Bytes),
		CellsBefore: units.Round(c.Before.Cells), CellsAfter: units.Round(c.After.Cells),
		RowShareBefore: shareOf(c.Before.RowShare, 1), RowShareAfter: shareOf(c.After.RowShare, 1),
		WriteShareBefore: shareOf(c.Before.WriteShare, 1), WriteShareAfter: shareOf(c.After.WriteShare, 1),
	}
}
