package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
)

// An uncertain finding says so plainly in the JSON report ("uncertain":
// true, with its interval in the evidence) and in the summary every
// format prints; a certain one has no uncertain field, as in reports
// written before it existed.
func TestUncertainFindingsSaySoInEveryFormat(t *testing.T) {
	snap := demotest.Snapshot(t, "social-celebrity")
	summary := "prefix user#mila# holds 26% of rows (uncertain: the 95% interval of its share of rows, 24% to 28%, holds the 25% threshold; another sample may decide otherwise)"
	in := Input{Snapshot: snap, Findings: []diagnose.Finding{
		{Kind: diagnose.KindHotKeyRange, Severity: diagnose.SeverityWarning, Prefix: "user#mila#", Summary: summary,
			Evidence: diagnose.Evidence{"row_share": 0.26, "row_share_low": 0.24, "row_share_high": 0.28, "min_share": 0.25}, Uncertain: true},
		{Kind: diagnose.KindLargeRow, Severity: diagnose.SeverityWarning, Prefix: "big", Summary: "row big holds 120 MB"},
	}}
	out, err := JSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Findings) != 2 {
		t.Fatalf("report %s: %v", out, err)
	}
	if doc.Findings[0]["uncertain"] != true || doc.Findings[0]["evidence"].(map[string]any)["row_share_low"] != 0.24 {
		t.Errorf("uncertain finding %v", doc.Findings[0])
	}
	if _, ok := doc.Findings[1]["uncertain"]; ok {
		t.Errorf("certain finding has an uncertain field: %v", doc.Findings[1])
	}
	for _, format := range []Format{FormatText, FormatMarkdown} {
		out, err := Render(format, in)
		if err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(strings.Fields(string(out)), " "); !strings.Contains(text, "(uncertain: the 95% interval of its share of rows, 24% to 28%") {
			t.Errorf("%s report does not say the finding is uncertain:\n%s", format, out)
		}
	}
}
