package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"

	"github.com/charmbracelet/x/exp/golden"
)

// TestDatasetsGolden renders the newcomer's table of three datasets in
// the text and Markdown reports: the datasets listed with their ranges
// and shares, and each finding about the sensor readings named in their
// dataset.
func TestDatasetsGolden(t *testing.T) {
	in := scenarioInput(t, "newcomer-app")
	for _, format := range []Format{FormatText, FormatMarkdown} {
		t.Run(string(format), func(t *testing.T) {
			out, err := Render(format, in)
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestJSONListsTheDatasets: the JSON report lists the three datasets of
// the newcomer's table, their shares adding up, and names the dataset of
// each finding about one.
func TestJSONListsTheDatasets(t *testing.T) {
	out, err := JSON(scenarioInput(t, "newcomer-app"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Datasets []struct {
			Name     string  `json:"name"`
			Prefix   string  `json:"prefix"`
			Rows     int64   `json:"rows"`
			RowShare float64 `json:"row_share"`
		} `json:"datasets"`
		Findings []struct {
			Kind, Severity, Dataset string
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	var rows int64
	var share float64
	for _, ds := range doc.Datasets {
		names = append(names, ds.Name)
		rows += ds.Rows
		share += ds.RowShare
	}
	if len(doc.Datasets) != 3 || rows != 24_001 || share < 0.999 || share > 1.001 {
		t.Errorf("datasets %v with %d rows and shares adding up to %v, want 3 of 24,001 rows in all", names, rows, share)
	}
	for _, f := range doc.Findings {
		if f.Severity == "warning" && f.Dataset != "<timestamp (epoch milliseconds)>#..." {
			t.Errorf("%s names dataset %q, want the sensor readings'", f.Kind, f.Dataset)
		}
	}
}

// TestReportTakesTheDatasetsDiagnoseFound: the datasets [diagnose.Run]
// finds beside the findings make the same report as those the report
// finds itself (all three formats, the newcomer's three datasets), and
// the report lists the datasets it is given, not others it found.
func TestReportTakesTheDatasetsDiagnoseFound(t *testing.T) {
	in := scenarioInput(t, "newcomer-app")
	found := diagnose.Run(in.Snapshot)
	if !reflect.DeepEqual(found.Findings, in.Findings) {
		t.Fatal("diagnose.Run found other findings than diagnose.Diagnose")
	}
	given := in
	given.Datasets = found.Datasets
	for _, format := range []Format{FormatText, FormatMarkdown, FormatJSON} {
		want, err := Render(format, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Render(format, given)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the report given the datasets differs from the one that found them", format)
		}
	}
	given.Datasets = found.Datasets[:1]
	if doc := Build(given); len(doc.Datasets) != 1 || doc.Datasets[0].Name != escape.Text(found.Datasets[0].Name) {
		t.Errorf("given one dataset, the report lists %d", len(doc.Datasets))
	}
}
