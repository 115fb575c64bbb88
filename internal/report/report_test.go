package report

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// scenarioInput diagnoses a demo scenario or test table, with the given
// what-ifs.
func scenarioInput(t *testing.T, name string, whatIfs ...string) Input {
	t.Helper()
	snap := demotest.Snapshot(t, name)
	in := Input{Snapshot: snap, Findings: diagnose.Diagnose(snap)}
	for _, text := range whatIfs {
		tr, err := diagnose.ParseTransform(text)
		if err != nil {
			t.Fatal(err)
		}
		w, err := diagnose.RunWhatIf(snap, tr)
		if err != nil {
			t.Fatal(err)
		}
		in.WhatIfs = append(in.WhatIfs, w)
	}
	return in
}

// TestGolden renders the celebrity scenario, with the salt(8) what-if and
// a heatmap image on the summary, in every format.
func TestGolden(t *testing.T) {
	in := scenarioInput(t, "social-celebrity", "salt(8)")
	in.FromFile = true
	in.Images = map[Section][]Image{
		SectionSummary: {{Alt: "heatmap of user#", Path: "images/heat map.png"}},
		SectionWhatIf:  {{Alt: "after salt(8)", Path: "images/salt-8.png"}},
	}
	for _, format := range Formats() {
		t.Run(string(format), func(t *testing.T) {
			out, err := Render(format, in)
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestJSONFieldNames decodes the JSON report and checks every field name
// the README's "Files" section names, on a real-Bigtable scenario that has
// tablets.
func TestJSONFieldNames(t *testing.T) {
	in := scenarioInput(t, "tablet-skew", "salt(4)")
	out, err := JSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	requireFields(t, "report", doc, "version", "source", "table", "scan", "tablets", "prefixes", "largest_rows",
		"findings", "key_escaping", "ranges_are_tablets", "what_if")
	requireFields(t, "scan", doc["scan"], "mode", "fraction", "rows_read", "rows_estimated", "bytes_estimated",
		"complete", "started", "duration_ms")
	requireFields(t, "tablets[0]", first(t, doc, "tablets"), "start", "end", "bytes", "rows")
	requireFields(t, "prefixes[0]", first(t, doc, "prefixes"), "prefix", "depth", "rows", "bytes", "cells", "max_row_bytes")
	requireFields(t, "largest_rows[0]", first(t, doc, "largest_rows"), "key", "bytes", "cells", "columns", "max_versions")
	requireFields(t, "findings[0]", first(t, doc, "findings"), "kind", "severity", "start", "end", "prefix", "summary", "advice", "evidence")
	requireFields(t, "what_if[0]", first(t, doc, "what_if"), "transform", "read_cost", "hot_ranges", "findings", "levels", "after_findings")

	if doc["version"] != float64(1) || doc["source"] != "bigtable" || doc["ranges_are_tablets"] != true || doc["key_escaping"] != keyspace.KeyEscaping {
		t.Errorf("header fields: version %v source %v ranges_are_tablets %v key_escaping %v", doc["version"], doc["source"], doc["ranges_are_tablets"], doc["key_escaping"])
	}
	finding := first(t, doc, "findings").(map[string]any)
	if finding["kind"] != "tablet-skew" || finding["severity"] != "warning" || finding["start"] != "acct#49500" {
		t.Errorf("first finding %v, want the tablet-skew warning at acct#49500", finding)
	}
	scan := doc["scan"].(map[string]any)
	if scan["rows_estimated"] != float64(3000) || scan["started"] != "2026-11-01T01:00:00Z" || scan["duration_ms"] != float64(1500) {
		t.Errorf("scan %v", scan)
	}

	fromFile, err := JSON(Input{Snapshot: in.Snapshot, Findings: in.Findings, FromFile: true})
	if err != nil {
		t.Fatal(err)
	}
	var again map[string]any
	if err := json.Unmarshal(fromFile, &again); err != nil || again["source"] != "snapshot" || again["origin"] != "bigtable" {
		t.Errorf("snapshot source %v origin %v (%v), want snapshot from bigtable", again["source"], again["origin"], err)
	}
}

func requireFields(t *testing.T, where string, value any, names ...string) {
	t.Helper()
	object, ok := value.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, want an object", where, value)
	}
	for _, name := range names {
		if _, ok := object[name]; !ok {
			t.Errorf("%s has no field %q (has %v)", where, name, slices.Sorted(func(yield func(string) bool) {
				for k := range object {
					if !yield(k) {
						return
					}
				}
			}))
		}
	}
}

func first(t *testing.T, doc map[string]any, name string) any {
	t.Helper()
	list, ok := doc[name].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("%s is %v, want a non-empty list", name, doc[name])
	}
	return list[0]
}

func TestGate(t *testing.T) {
	info := diagnose.Finding{Kind: diagnose.KindScanNote, Severity: diagnose.SeverityInfo}
	warning := diagnose.Finding{Kind: diagnose.KindHotKeyRange, Severity: diagnose.SeverityWarning}
	errorFinding := diagnose.Finding{Kind: diagnose.KindLargeRow, Severity: diagnose.SeverityError}
	cases := []struct {
		findings []diagnose.Finding
		failOn   string
		want     bool
	}{
		{nil, "info", false},
		{[]diagnose.Finding{info}, "info", true},
		{[]diagnose.Finding{info}, "warning", false},
		{[]diagnose.Finding{info, warning}, "warning", true},
		{[]diagnose.Finding{info, warning}, "error", false},
		{[]diagnose.Finding{errorFinding}, "error", true},
		{[]diagnose.Finding{errorFinding}, "info", true},
	}
	for _, c := range cases {
		failOn, err := ParseFailOn(c.failOn)
		if err != nil {
			t.Fatal(err)
		}
		if got := Gate(c.findings, failOn); got != c.want {
			t.Errorf("Gate(%d findings, %s) = %v, want %v", len(c.findings), c.failOn, got, c.want)
		}
	}
	// Good designs pass --fail-on warning; bad ones fail it (every demo
	// table in the slow tier, six in the fast one: diagnose's TestScenarios
	// checks every table's findings in both).
	for _, sc := range tier.Sample(slices.Concat(demo.Scenarios(), demo.TestTables()), 6) {
		findings := diagnose.Diagnose(demotest.Snapshot(t, sc.Name))
		if got := Gate(findings, diagnose.SeverityWarning); got == sc.Good {
			t.Errorf("%s (good=%v): Gate at warning = %v", sc.Name, sc.Good, got)
		}
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := ParseFailOn("fatal"); err == nil || !strings.Contains(err.Error(), "--fail-on") || !strings.Contains(err.Error(), diagnose.SeverityNames()) {
		t.Errorf("ParseFailOn(fatal) error %v", err)
	}
	for _, name := range []string{"text", "JSON", " markdown", "md"} {
		if _, err := ParseFormat(name); err != nil {
			t.Errorf("ParseFormat(%q): %v", name, err)
		}
	}
	if _, err := ParseFormat("html"); err == nil || !strings.Contains(err.Error(), "text, json, markdown") {
		t.Errorf("ParseFormat(html) error %v", err)
	}
	if _, err := Render("html", Input{}); err == nil {
		t.Error("Render accepts an unknown format")
	}
}

func TestEmptyInput(t *testing.T) {
	for _, format := range Formats() {
		if _, err := Render(format, Input{}); err != nil {
			t.Errorf("%s of an empty input: %v", format, err)
		}
	}
}
