package heatmap

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

var trafficStart = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// readHotspotRecording is 3 minutes of traffic on 40 users: reads of one
// user's rows ten times as often as of any other, and writes spread
// evenly.
func readHotspotRecording(t testing.TB) *keyspace.Snapshot {
	t.Helper()
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: trafficStart, Delimiters: "#"}, keyspace.Options{})
	at := func(i int) time.Time { return trafficStart.Add(time.Duration(i) * 100 * time.Millisecond) }
	for i := range 1800 {
		user := fmt.Sprintf("u%02d", i%40)
		if i%4 != 0 {
			user = "u07"
		}
		key := keyspace.Key(fmt.Sprintf("user#%s#p%d", user, i%5))
		// The celebrity's reads are slow: 20 ms against 1 ms.
		latency := time.Millisecond
		if user == "u07" {
			latency = 20 * time.Millisecond
		}
		r.Add(&keyspace.Op{Time: at(i), Table: "t", Method: keyspace.MethodReadRows, Keys: []keyspace.Key{key},
			RowsRead: []keyspace.RowIO{{Key: key, Bytes: 200}}, Latency: latency})
		w := keyspace.Key(fmt.Sprintf("user#u%02d#p%d", (i*7)%40, i%5))
		r.Add(&keyspace.Op{Time: at(i), Table: "t", Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{w},
			RowsWritten: []keyspace.RowIO{{Key: w, Bytes: 50}}, Latency: 2 * time.Millisecond})
	}
	return r.Snapshot("t", at(1800))
}

func TestTrafficMetricsDrawTheReadHotspot(t *testing.T) {
	snap := readHotspotRecording(t)
	if got := MetricsFor(snap); got[0] != MetricOps || len(got) != 8 {
		t.Fatalf("a recording's metrics %v", got)
	}
	if DefaultMetric(snap) != MetricOps {
		t.Fatal("a recording does not open on operations")
	}
	m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: MetricReads, Rows: 50, Columns: 60})
	if !m.Traffic || m.Description() != "rows read" || !m.Timed() {
		t.Fatalf("reads: traffic %v, %q, timed %v", m.Traffic, m.Description(), m.Timed())
	}
	if m.Time.Span() < 2*time.Minute || m.Time.Span() > 4*time.Minute {
		t.Fatalf("time axis spans %v, want the 3-minute recording", m.Time.Span())
	}
	hot, total := 0.0, 0.0
	for i, b := range m.Buckets {
		total += m.BucketTotal(i)
		if strings.Contains(b.Label, "u07") {
			hot = m.BucketTotal(i)
		}
	}
	if total != 1800 || hot != 1350 {
		t.Fatalf("rows read: %v in all, %v by u07; want 1800 and 1350", total, hot)
	}
	// writes reads the recording (rows written), spread evenly.
	w := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: MetricWrites, Rows: 50, Columns: 60})
	if !w.Traffic || w.Description() != "rows written" {
		t.Fatalf("writes on a recording: traffic %v, %q", w.Traffic, w.Description())
	}
	sum := 0.0
	for i := range w.Buckets {
		sum += w.BucketTotal(i)
		if v := w.BucketTotal(i); v > 100 {
			t.Errorf("bucket %s has %v writes of 1800: writes are even", w.Buckets[i].Label, v)
		}
	}
	if sum != 1800 {
		t.Fatalf("rows written sum to %v", sum)
	}
	// Even buckets share operations out equally when no rows are stored.
	e := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketEven, Metric: MetricOps, Rows: 8})
	if len(e.Buckets) < 4 {
		t.Fatalf("even bucketing of a recording gives %d buckets", len(e.Buckets))
	}
}

func TestTrafficMetricOnAScanSaysWhatToDo(t *testing.T) {
	snap := heatmaptest.ScenarioSnapshot(t, "celebrity")
	_, err := Build(snap, View{Rows: 10, Columns: 10, Metric: MetricOps})
	if err == nil || !strings.Contains(err.Error(), "btviz record") {
		t.Fatalf("ops on a scan: %v", err)
	}
	if MetricWrites.FromTraffic(snap) || MetricsFor(snap)[0] != MetricWrites {
		t.Fatal("a scan's writes are its cell timestamps")
	}
}

func TestJoinedSnapshotShowsBothTrafficAndStorage(t *testing.T) {
	storage := heatmaptest.ScenarioSnapshot(t, "celebrity")
	rec := readHotspotRecording(t)
	rec.Table = storage.Table
	joined, err := keyspace.Join(storage, rec)
	if err != nil {
		t.Fatal(err)
	}
	joined = keyspace.WithHotTablets(joined, hotTablets(storage.Table, "user#mila_rosewood#", "user#mila_rosewood$"))
	metrics := MetricsFor(joined)
	if len(metrics) != len(Metrics()) {
		t.Fatalf("a scan joined with a recording and hot tablets has metrics %v, want every one of %v", metrics, Metrics())
	}
	for _, m := range Metrics() {
		if !slices.Contains(metrics, m) {
			t.Errorf("a scan joined with a recording lacks metric %s", m)
		}
	}
	rows := mustBuild(t, joined, View{Node: joined.Root, Metric: MetricRows, Rows: 20})
	ops := mustBuild(t, joined, View{Node: joined.Root, Metric: MetricOps, Rows: 20, Columns: 30})
	if rows.Traffic || !ops.Traffic || ops.Time.Span() > 10*time.Minute {
		t.Fatalf("rows from the scan (%v), ops from the recording (%v) on its own time axis (%v)", rows.Traffic, ops.Traffic, ops.Time.Span())
	}
	total := 0.0
	for i := range ops.Buckets {
		total += ops.BucketTotal(i)
	}
	if total != 3600 {
		t.Fatalf("joined view holds %v ops of 3600", total)
	}
}
