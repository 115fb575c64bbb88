package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

var hotFrom = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func hotTablets(table string, simulated bool) *keyspace.HotTablets {
	var tablets []keyspace.HotTablet
	for i := range 6 {
		at := hotFrom.Add(time.Duration(15*i) * time.Minute)
		tablets = append(tablets,
			keyspace.HotTablet{Cluster: "c1", Table: table, StartKey: "user#mila_rosewood#", EndKey: "user#mila_rosewood#\xff", Start: at, End: at.Add(time.Minute), CPU: 77.5},
			keyspace.HotTablet{Cluster: "c1", Table: table, StartKey: "counter#likes", EndKey: "counter#likes\x00", Start: at, End: at.Add(time.Minute), CPU: 55})
	}
	source := keyspace.HotTabletsBigtable
	if simulated {
		source = keyspace.HotTabletsSimulated
	}
	return keyspace.NewHotTablets(keyspace.HotTablets{Source: source, Project: "p", Instance: "i", Clusters: []string{"c1"},
		From: hotFrom, To: hotFrom.Add(24 * time.Hour), Tablets: tablets})
}

func TestReportOfHotTablets(t *testing.T) {
	snap := keyspace.WithHotTablets(demotest.Snapshot(t, "social-celebrity"), hotTablets("social-celebrity", false))
	in := Input{Snapshot: snap, Findings: diagnose.Diagnose(snap)}
	body, err := JSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		HotTablets struct {
			Source       string `json:"source"`
			Simulated    bool   `json:"simulated"`
			ShownCluster string `json:"shown_cluster"`
			Count        int    `json:"count"`
			Tablets      []struct {
				Cluster  string  `json:"cluster"`
				StartKey string  `json:"start_key"`
				EndKey   string  `json:"end_key"`
				OneRow   string  `json:"one_row"`
				CPU      float64 `json:"node_cpu_percent"`
				Start    string  `json:"start_time"`
			} `json:"tablets"`
		} `json:"hot_tablets"`
		Findings []struct {
			Kind string `json:"kind"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	h := doc.HotTablets
	if h.Source != "bigtable" || h.Simulated || h.ShownCluster != "c1" || h.Count != 12 || h.Tablets[0].CPU != 77.5 ||
		h.Tablets[0].StartKey != "user#mila_rosewood#" || h.Tablets[0].EndKey != `user#mila_rosewood#\xff` {
		t.Errorf("hot_tablets: %+v", h)
	}
	if one := h.Tablets[len(h.Tablets)-1]; one.OneRow != "counter#likes" || one.EndKey != `counter#likes\x00` {
		t.Errorf("the one-row tablet: %+v", one)
	}
	hot := 0
	for _, f := range doc.Findings {
		if f.Kind == string(diagnose.KindHotTablet) {
			hot++
		}
	}
	if hot != 2 {
		t.Errorf("%d hot-tablet findings in the report, want 2", hot)
	}
	text := string(Text(in))
	if !strings.Contains(text, "hot tablets: 12 samples of cluster c1") || !strings.Contains(text, "row counter#likes") {
		t.Errorf("the text report's hot tablets:\n%s", text)
	}
}

func TestReportOfHotTabletsAloneAndSimulated(t *testing.T) {
	snap := keyspace.HotTabletsSnapshot(hotTablets("t", true), "t", keyspace.SourceBigtable)
	in := Input{Snapshot: snap, Findings: diagnose.Diagnose(snap)}
	text := string(Text(in))
	if strings.Contains(text, "scan:") || strings.Contains(text, "largest rows") || !strings.Contains(text, "SIMULATED") {
		t.Errorf("a report of simulated hot tablets alone:\n%s", text)
	}
	md := string(Markdown(in))
	if !strings.Contains(md, "## Hot tablets") || !strings.Contains(md, "| Hot tablets |") {
		t.Errorf("Markdown:\n%s", md)
	}
	empty := keyspace.HotTabletsSnapshot(keyspace.NewHotTablets(keyspace.HotTablets{Source: keyspace.HotTabletsBigtable, Clusters: []string{"c1"}, From: hotFrom, To: hotFrom.Add(time.Hour)}), "t", keyspace.SourceBigtable)
	if text := string(Text(Input{Snapshot: empty})); !strings.Contains(text, "no hot tablets from") {
		t.Errorf("no hot tablets is not said:\n%s", text)
	}
}

func TestReportOfLatencyAndMergedRecordings(t *testing.T) {
	record := func(slow time.Duration, offset time.Duration) *keyspace.Snapshot {
		r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: hotFrom, Delimiters: "#"}, keyspace.Options{})
		for i := range 1000 {
			key := keyspace.Key("user#u" + string(rune('a'+i%20)) + "#x")
			lat := time.Millisecond
			if i%20 == 3 {
				lat = slow
			}
			r.Add(&keyspace.Op{Time: hotFrom.Add(offset + time.Duration(i)*20*time.Millisecond), Table: "t", Method: keyspace.MethodReadRows,
				Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key}}, Latency: lat})
		}
		return r.Snapshot("t", hotFrom.Add(30*time.Second))
	}
	merged, err := keyspace.MergeRecordings([]*keyspace.Snapshot{record(20*time.Millisecond, 0), record(20*time.Millisecond, 0)}, []string{"a.btviz", "b.btviz"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := JSON(Input{Snapshot: merged, Findings: diagnose.Diagnose(merged)})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Traffic struct {
			Latency struct {
				RelativeError float64 `json:"relative_error"`
				Kinds         []struct {
					Kind     string `json:"kind"`
					Calls    int64  `json:"calls"`
					MedianNs int64  `json:"median_ns"`
					MaxNs    int64  `json:"max_ns"`
				} `json:"kinds"`
			} `json:"latency"`
			Merged struct {
				Recordings int      `json:"recordings"`
				Names      []string `json:"names"`
			} `json:"merged"`
		} `json:"traffic"`
		Findings []struct {
			Kind   string `json:"kind"`
			Prefix string `json:"prefix"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	l := doc.Traffic.Latency
	if len(l.Kinds) != 1 || l.Kinds[0].Kind != "point-read" || l.Kinds[0].Calls != 2000 || l.Kinds[0].MaxNs != int64(20*time.Millisecond) || l.RelativeError <= 0 {
		t.Errorf("traffic.latency: %+v", l)
	}
	if m := doc.Traffic.Merged; m.Recordings != 2 || len(m.Names) != 2 {
		t.Errorf("traffic.merged: %+v", m)
	}
	slow := false
	for _, f := range doc.Findings {
		slow = slow || f.Kind == string(diagnose.KindHighLatency) && strings.HasPrefix(f.Prefix, "user#ud#")
	}
	if !slow {
		t.Errorf("no high-latency finding at user#ud#: %+v", doc.Findings)
	}
}
