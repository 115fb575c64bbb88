package keyspace_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
)

// TestKeylessLatenciesDrawEveryMetric: a recording whose calls named no
// key but were timed (a table only asked SampleRowKeys), and one whose
// SampleRowKeys came before and after its reads, in cells of time of
// their own, read back and draw every metric they offer in every
// bucketing that applies (tablets needs a tablet map, which a recording
// has not), and report, export and diagnose.
func TestKeylessLatenciesDrawEveryMetric(t *testing.T) {
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started, Delimiters: "#"}, keyspace.Options{})
	r.Add(&keyspace.Op{Time: started, Table: "only", Method: keyspace.MethodSampleRowKeys, Latency: time.Millisecond})
	r.Add(&keyspace.Op{Time: started.Add(9 * time.Second), Table: "only", Method: keyspace.MethodSampleRowKeys, Latency: time.Millisecond})
	r.Add(&keyspace.Op{Time: started, Table: "mixed", Method: keyspace.MethodSampleRowKeys, Latency: time.Millisecond})
	for i := range 5 {
		key := keyspace.Key(fmt.Sprintf("u#%d", i))
		r.Add(&keyspace.Op{Time: started.Add(time.Duration(5+i) * time.Second), Table: "mixed", Method: keyspace.MethodReadRows, Keys: []keyspace.Key{key},
			RowsRead: []keyspace.RowIO{{Key: key, Bytes: 4}}, Latency: 2 * time.Millisecond})
	}
	r.Add(&keyspace.Op{Time: started.Add(30 * time.Second), Table: "mixed", Method: keyspace.MethodSampleRowKeys, Latency: time.Millisecond})
	var buf bytes.Buffer
	if err := keyspace.EncodeRecording(&buf, r.Recording(started.Add(time.Minute), true)); err != nil {
		t.Fatal(err)
	}
	file, err := keyspace.DecodeFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, snap := range file.Snapshots() {
		use(t, snap)
		for _, metric := range heatmap.MetricsFor(snap) {
			for _, b := range heatmap.Bucketings() {
				m, err := heatmap.Build(snap, heatmap.View{Rows: 12, Columns: 30, Bucketing: b, Metric: metric})
				if err != nil {
					if b == heatmap.BucketTablets {
						continue // no tablet map in a recording
					}
					t.Fatalf("%s, %s by %s buckets: %v", snap.Table, metric, b, err)
				}
				drawn := 0.0
				for _, bk := range m.Buckets {
					for _, v := range bk.Values {
						drawn += v
						if math.IsNaN(v) || math.IsInf(v, 0) {
							t.Fatalf("%s, %s by %s buckets: bucket %q holds %v", snap.Table, metric, b, bk.Label, v)
						}
					}
				}
				if snap.Table == "mixed" && metric == heatmap.MetricLatency && drawn <= 0 {
					t.Errorf("the reads' latencies draw nothing by %s buckets", b)
				}
			}
		}
	}
}
