package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// recordedTraffic is a small recording: a hot read row, a write to a key
// with control bytes, and a full scan.
func recordedTraffic(t *testing.T) *keyspace.Snapshot {
	t.Helper()
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start, Upstream: "emulator at \x1b]0;x\x07", Delimiters: "#"}, keyspace.Options{})
	for i := range 30 {
		r.Add(&keyspace.Op{Time: start.Add(time.Duration(i) * time.Second), Table: "t", Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{"cfg#global"}, RowsRead: []keyspace.RowIO{{Key: "cfg#global", Bytes: 40}}})
	}
	r.Add(&keyspace.Op{Time: start, Table: "t", Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{"evil#\x1b[2J"},
		RowsWritten: []keyspace.RowIO{{Key: "evil#\x1b[2J", Bytes: 9}}})
	r.Add(&keyspace.Op{Time: start, Table: "t", Method: keyspace.MethodReadRows, Ranges: []keyspace.KeyRange{{}},
		RowsRead: []keyspace.RowIO{{Key: "cfg#global", Bytes: 40}, {Key: "evil#\x1b[2J", Bytes: 9}}})
	return r.Snapshot("t", start.Add(30*time.Second))
}

func TestReportTrafficSection(t *testing.T) {
	snap := recordedTraffic(t)
	out, err := JSON(Input{Snapshot: snap, FromFile: true})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Traffic TrafficDoc `json:"traffic"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	tr := doc.Traffic
	if tr.Totals.Ops != 32 || tr.Totals.PointReads != 30 || tr.Totals.Scans != 1 || tr.Totals.RowsRead != 32 || tr.Totals.RowsWritten != 1 {
		t.Fatalf("totals %+v", tr.Totals)
	}
	if len(tr.TopReads) == 0 || tr.TopReads[0].Key != "cfg#global" || tr.TopReads[0].Count != 31 || tr.DurationMillis != 30000 {
		t.Fatalf("hot reads %+v, duration %d", tr.TopReads, tr.DurationMillis)
	}
	if len(tr.Prefixes) == 0 || tr.Prefixes[0].Prefix != "cfg#" {
		t.Fatalf("prefixes %+v", tr.Prefixes)
	}
	for _, format := range Formats() {
		rendered, err := Render(format, Input{Snapshot: snap})
		if err != nil {
			t.Fatal(err)
		}
		text := string(rendered)
		if strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("%s: raw control bytes from a key or the upstream's name", format)
		}
		if format != FormatJSON && !strings.Contains(text, "32 ops (30 point reads, 1 scan)") {
			t.Errorf("%s: no traffic summary:\n%s", format, text)
		}
	}
}

// TestRecordingAloneReportsNoStorage: a recording with no scan says what
// it is and has no size, prefixes by rows or largest rows, which would
// all read zero; only rows read more than once are hot.
func TestRecordingAloneReportsNoStorage(t *testing.T) {
	snap := recordedTraffic(t)
	for _, format := range []Format{FormatText, FormatMarkdown} {
		rendered, err := Render(format, Input{Snapshot: snap, FromFile: true})
		if err != nil {
			t.Fatal(err)
		}
		text := string(rendered)
		for _, absent := range []string{"size:", "Top prefixes", "top prefixes", "Largest rows", "largest rows", "project ,", "most written rows", "| written |"} {
			if strings.Contains(text, absent) {
				t.Errorf("%s: %q in a report of a recording alone:\n%s", format, absent, text)
			}
		}
		if !strings.Contains(text, "traffic recording through btviz record of emulator at") || !strings.Contains(text, "cfg#global") {
			t.Errorf("%s: no origin or hot row:\n%s", format, text)
		}
	}
}

// TestAnEstimatedHotCountIsARange: a count the bounded hot-row counter
// had to estimate is written as the range it lies in ("26–31", as the TUI
// shows it), and the JSON gives both ends.
func TestAnEstimatedHotCountIsARange(t *testing.T) {
	snap := recordedTraffic(t)
	hot := &snap.Traffic.TopReads[0]
	hot.Count, hot.Error = 31, 5
	for _, format := range Formats() {
		rendered, err := Render(format, Input{Snapshot: snap, FromFile: true})
		if err != nil {
			t.Fatal(err)
		}
		want := "26–31"
		if format == FormatJSON {
			want = `"count": 31, "count_low": 26`
			rendered = []byte(strings.Join(strings.Fields(string(rendered)), " "))
		}
		if !strings.Contains(string(rendered), want) {
			t.Errorf("%s: the estimated count is not %s:\n%s", format, want, rendered)
		}
	}
}
