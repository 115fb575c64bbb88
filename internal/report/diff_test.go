package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// saltingInput diffs the synthetic celebrity feed with its salted form.
func saltingInput(t *testing.T) DiffInput {
	t.Helper()
	before, after := scenarioInput(t, "social-celebrity").Snapshot, scenarioInput(t, "social-celebrity-salted").Snapshot
	return DiffInput{A: before, B: after, FindingsA: diagnose.Diagnose(before), FindingsB: diagnose.Diagnose(after),
		LabelA: "celebrity.btviz", LabelB: "celebrity-salted.btviz", AllowDifferentTables: true,
		Images: []Image{{Alt: "before and after", Path: "diff.png"}}}
}

// feedTable builds a snapshot of table "feed": 40 users of 10 rows and a
// celebrity with celebrityRows rows, scanned at a fixed time.
func feedTable(celebrityRows int, mode keyspace.Mode) *keyspace.Snapshot {
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz", Table: "feed", Families: []string{"event"},
		Scan: keyspace.ScanInfo{Mode: mode, Fraction: 1, Complete: true, ValuesRead: true, Started: time.Date(2026, 11, 1, 1, 0, 0, 0, time.UTC)}}
	if mode.IsSample() {
		meta.Scan.Fraction = 0.5
	}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#"})
	at := time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC).UnixMicro()
	add := func(user string, n int) {
		for i := range n {
			b.Add(&keyspace.Row{Key: fmt.Sprintf("user#%s#%05d", user, i), Weight: 1,
				Cells: []keyspace.Cell{{Family: "event", Qualifier: "payload", Timestamp: at + int64(i)*60e6, ValueBytes: 80}}})
		}
	}
	for u := range 40 {
		add(fmt.Sprintf("u%02d", u), 10)
	}
	add("star", celebrityRows)
	return b.Snapshot()
}

// sameTableInput diffs one table whose celebrity cooled down.
func sameTableInput() DiffInput {
	before, after := feedTable(2400, keyspace.ModeFull), feedTable(1200, keyspace.ModeSample)
	return DiffInput{A: before, B: after, FindingsA: diagnose.Diagnose(before), FindingsB: diagnose.Diagnose(after)}
}

// TestDiffGolden renders both diffs in every format.
func TestDiffGolden(t *testing.T) {
	for name, in := range map[string]DiffInput{"salting": saltingInput(t), "same-table": sameTableInput()} {
		for _, format := range Formats() {
			t.Run(name+"/"+string(format), func(t *testing.T) {
				out, err := Diff(format, in)
				if err != nil {
					t.Fatal(err)
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestDiffSaltingResolvesTheHotRange checks the synthetic celebrity: the
// hot prefix's share falls and its finding disappears.
func TestDiffSaltingResolvesTheHotRange(t *testing.T) {
	doc, err := BuildDiff(saltingInput(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings.Disappeared) != 1 || doc.Findings.Disappeared[0].Kind != "hot-key-range" || doc.Findings.Disappeared[0].Prefix != "user#mila_rosewood#" {
		t.Errorf("disappeared %+v, want the hot-key-range at user#mila_rosewood#", doc.Findings.Disappeared)
	}
	if len(doc.Findings.Appeared) != 0 || len(doc.Findings.Changed) != 0 {
		t.Errorf("appeared %+v changed %+v, want none", doc.Findings.Appeared, doc.Findings.Changed)
	}
	if doc.Before.TopPrefix == nil || doc.After.TopPrefix == nil || doc.Before.TopPrefix.Prefix != "user#mila_rosewood#" || doc.After.TopPrefix.RowShare > 0.15 {
		t.Errorf("top prefix %+v → %+v", doc.Before.TopPrefix, doc.After.TopPrefix)
	}
	for _, p := range doc.Prefixes {
		if p.Prefix == "user#mila_rosewood#" && (p.RowShareBefore != 0.38 || p.RowShareAfter != 0 || p.Status != "removed") {
			t.Errorf("user#mila_rosewood#: %+v", p)
		}
	}
}

// TestDiffSameTableReportsChangedEvidence: one table whose celebrity
// cooled down keeps its hot-key-range, with smaller shares.
func TestDiffSameTableReportsChangedEvidence(t *testing.T) {
	doc, err := BuildDiff(sameTableInput())
	if err != nil {
		t.Fatal(err)
	}
	hot := slices.IndexFunc(doc.Findings.Changed, func(f FindingChangeDoc) bool { return f.Kind == "hot-key-range" && f.Prefix == "user#star#" })
	if hot < 0 {
		t.Fatalf("changed findings %+v, want the hot-key-range at user#star#", doc.Findings.Changed)
	}
	var rowShare *EvidenceDiffDoc
	for i, e := range doc.Findings.Changed[hot].Evidence {
		if e.Name == "row_share" {
			rowShare = &doc.Findings.Changed[hot].Evidence[i]
		}
		if e.Name == "min_share" {
			t.Error("unchanged evidence (min_share) listed as changed")
		}
	}
	if rowShare == nil || rowShare.Before == nil || rowShare.After == nil || *rowShare.After >= *rowShare.Before {
		t.Errorf("row_share evidence %+v, want it to fall", rowShare)
	}
	star := doc.Prefixes[0]
	if star.Prefix != "user#star#" || star.Status != "changed" || star.RowsBefore != 2400 || star.RowsAfter != 1200 {
		t.Errorf("largest change %+v, want user#star# 2,400 → 1,200", star)
	}
	if len(doc.Notes) != 1 || !strings.Contains(doc.Notes[0], "before is a full scan, after a sampled scan (50% of rows)") {
		t.Errorf("notes %q, want the scan-mode note", doc.Notes)
	}
}

func TestDiffFindingMatching(t *testing.T) {
	f := func(kind diagnose.Kind, prefix string, severity diagnose.Severity, evidence diagnose.Evidence) diagnose.Finding {
		return diagnose.Finding{Kind: kind, Prefix: keyspace.Key(prefix), Severity: severity, Evidence: evidence}
	}
	before := []diagnose.Finding{
		f(diagnose.KindScanNote, "", diagnose.SeverityInfo, diagnose.Evidence{"cells": 10}),
		f(diagnose.KindLargeRow, "a", diagnose.SeverityWarning, diagnose.Evidence{"bytes": 1}),
		f(diagnose.KindLargeRow, "b", diagnose.SeverityWarning, diagnose.Evidence{"bytes": 1}),
		f(diagnose.KindWideRow, "w", diagnose.SeverityWarning, diagnose.Evidence{"cells": 5}),
		f(diagnose.KindWideRow, "w", diagnose.SeverityWarning, diagnose.Evidence{"columns": 5}),
	}
	after := []diagnose.Finding{
		f(diagnose.KindScanNote, "", diagnose.SeverityInfo, diagnose.Evidence{"cells": 20}),
		f(diagnose.KindLargeRow, "a", diagnose.SeverityError, diagnose.Evidence{"bytes": 2}),
		f(diagnose.KindWideRow, "w", diagnose.SeverityWarning, diagnose.Evidence{"columns": 5}),
		f(diagnose.KindWideRow, "w", diagnose.SeverityWarning, diagnose.Evidence{"cells": 5}),
		f(diagnose.KindLargeCell, "c", diagnose.SeverityWarning, nil),
	}
	d := diffFindings(before, after)
	if len(d.Disappeared) != 1 || d.Disappeared[0].Prefix != "b" {
		t.Errorf("disappeared %+v, want large-row b", d.Disappeared)
	}
	if len(d.Appeared) != 1 || d.Appeared[0].Kind != "large-cell" {
		t.Errorf("appeared %+v, want large-cell c", d.Appeared)
	}
	if len(d.Changed) != 1 || d.Changed[0].Prefix != "a" || d.Changed[0].SeverityAfter != "error" || len(d.Changed[0].Evidence) != 1 {
		t.Errorf("changed %+v, want large-row a warning → error with bytes 1 → 2", d.Changed)
	}
	if len(d.Unchanged) != 2 {
		t.Errorf("unchanged %+v, want both wide-row findings, paired by evidence names", d.Unchanged)
	}
}

// TestDiffJSONFieldNames checks the documented field names.
func TestDiffJSONFieldNames(t *testing.T) {
	out, err := Diff(FormatJSON, sameTableInput())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("diff is not JSON: %v", err)
	}
	requireFields(t, "diff", doc, "version", "key_escaping", "notes", "before", "after", "prefixes_compared", "max_depth", "prefix_counts", "prefixes", "findings")
	requireFields(t, "before", doc["before"], "label", "source", "project", "instance", "table", "delimiters", "ranges",
		"ranges_are_tablets", "scan", "rows", "bytes", "cells", "max_row_bytes", "finding_counts", "top_prefix")
	requireFields(t, "top_prefix", doc["before"].(map[string]any)["top_prefix"], "prefix", "kind", "depth", "siblings", "row_share", "write_share")
	requireFields(t, "prefix_counts", doc["prefix_counts"], "added", "removed", "changed", "unchanged")
	requireFields(t, "prefixes[0]", first(t, doc, "prefixes"), "prefix", "depth", "status", "exact", "rows_before", "rows_after",
		"bytes_before", "bytes_after", "cells_before", "cells_after", "row_share_before", "row_share_after", "write_share_before", "write_share_after")
	findings := doc["findings"].(map[string]any)
	requireFields(t, "findings", findings, "appeared", "disappeared", "changed", "unchanged")
	requireFields(t, "findings.changed[0]", first(t, findings, "changed"), "kind", "prefix", "start", "end", "severity_before",
		"severity_after", "summary_before", "summary_after", "evidence")
	requireFields(t, "evidence[0]", first(t, first(t, findings, "changed").(map[string]any), "evidence"), "name", "before", "after")
}

func TestDiffErrors(t *testing.T) {
	in := saltingInput(t)
	in.AllowDifferentTables = false
	if _, err := Diff(FormatText, in); !errors.Is(err, keyspace.ErrDifferentTables) {
		t.Errorf("different tables: error %v, want ErrDifferentTables", err)
	}
	if _, err := Diff("html", sameTableInput()); err == nil || !strings.Contains(err.Error(), "text, json, markdown") {
		t.Errorf("unknown format: error %v", err)
	}
	if _, err := Diff(FormatText, DiffInput{}); err == nil {
		t.Error("a diff without snapshots succeeded")
	}
}

// TestDiffHostileKeys: no diff format writes a control byte or invalid
// UTF-8, whatever the keys, names and labels hold.
func TestDiffHostileKeys(t *testing.T) {
	hostile := hostileInput(t)
	other := demotest.Snapshot(t, "social-celebrity")
	in := DiffInput{A: hostile.Snapshot, B: other, FindingsA: hostile.Findings, FindingsB: diagnose.Diagnose(other),
		LabelA: "a\x1b[2J.btviz", LabelB: "b|`.btviz", AllowDifferentTables: true,
		Images: []Image{{Alt: "x](y)\x07", Path: "d>e\x1b.png"}}}
	for _, pair := range [][2]*keyspace.Snapshot{{hostile.Snapshot, other}, {other, hostile.Snapshot}} {
		in.A, in.B = pair[0], pair[1]
		for _, format := range Formats() {
			out, err := Diff(format, in)
			if err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(out) {
				t.Errorf("%s diff is not UTF-8", format)
			}
			for i, r := range string(out) {
				if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
					t.Errorf("%s diff holds control %U at byte %d: %q", format, r, i, context(string(out), i))
					break
				}
			}
		}
	}
}

// TestDiffTextColumnsAlignByDisplayWidth: the side-by-side table lines up
// on screen when a name holds letters of more than one byte ("ç", "ü")
// or wide ones ("表", two cells): the after column starts at one screen
// column on every row.
func TestDiffTextColumnsAlignByDisplayWidth(t *testing.T) {
	in := sameTableInput()
	in.A.Project, in.A.Instance = "produção", "métricas-表格"
	out, err := Diff(FormatText, in)
	if err != nil {
		t.Fatal(err)
	}
	var header, source string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "before") && strings.Contains(line, "after") && header == "":
			header = line
		case strings.HasPrefix(strings.TrimSpace(line), "source"):
			source = line
		}
	}
	if header == "" || source == "" {
		t.Fatalf("no header or source row in:\n%s", out)
	}
	afterCell := in.B.Source
	start := strings.LastIndex(source, string(afterCell))
	if start < 0 {
		t.Fatalf("source row %q lacks the after side's source %q", source, afterCell)
	}
	want := ansi.StringWidth(header[:strings.Index(header, "after")])
	if got := ansi.StringWidth(source[:start]); got != want {
		t.Errorf("the after column starts at screen column %d on the source row and %d on the header:\n%s\n%s", got, want, header, source)
	}
}

func TestPadColumnsPadsToDisplayWidth(t *testing.T) {
	rows := padColumns([][]string{{"表格", "x"}, {"abcd", "y"}, {"é", "z"}})
	for _, r := range rows {
		if w := ansi.StringWidth(r[0]); w != 4 {
			t.Errorf("cell %q is %d cells wide, want 4", r[0], w)
		}
	}
}
