package heatmap

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

var hotFrom = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// hotTablets returns a hot tablet over [start, end] (both inclusive, as
// the API gives them) at 80% of a node for 30 minutes of an hour, and a
// background tablet at 5%.
func hotTablets(table, start, end string) *keyspace.HotTablets {
	var tablets []keyspace.HotTablet
	for m := range 30 {
		at := hotFrom.Add(time.Duration(10+m) * time.Minute)
		tablets = append(tablets,
			keyspace.HotTablet{Cluster: "c1", Table: table, StartKey: keyspace.Key(start), EndKey: keyspace.Key(end), Start: at, End: at.Add(time.Minute), CPU: 80},
			keyspace.HotTablet{Cluster: "c1", Table: table, StartKey: "", EndKey: keyspace.Key(start), Start: at, End: at.Add(time.Minute), CPU: 5})
	}
	return keyspace.NewHotTablets(keyspace.HotTablets{Source: keyspace.HotTabletsBigtable, Clusters: []string{"c1"}, From: hotFrom, To: hotFrom.Add(time.Hour), Tablets: tablets})
}

// hottest returns the bucket with the largest total and its total.
func hottest(m *Matrix) (int, float64) {
	best, value := -1, -1.0
	for b := range m.Buckets {
		if v := m.BucketTotal(b); v > value {
			best, value = b, v
		}
	}
	return best, value
}

func TestCPUMetricDrawsTheHotTabletOnTheScansKeys(t *testing.T) {
	storage := heatmaptest.ScenarioSnapshot(t, "celebrity")
	snap := keyspace.WithHotTablets(storage, hotTablets(storage.Table, "user#mila_rosewood#", "user#mila_rosewood$"))
	m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: MetricCPU, Rows: 40, Columns: 60})
	if !m.Timed() || !m.CallTime || m.Description() != "node CPU % (cluster c1)" {
		t.Fatalf("cpu: timed %v, call time %v, %q", m.Timed(), m.CallTime, m.Description())
	}
	b, _ := hottest(m)
	if !strings.Contains(m.Buckets[b].Label, "mila_rosewood") {
		t.Errorf("the hottest bucket is %s, want the celebrity's", m.Buckets[b].Label)
	}
	// A column while the tablet was hot holds 80% (the mean over the
	// column's minutes, all of them hot) on the celebrity's bucket.
	col := m.Time.ColumnAt(hotFrom.Add(25 * time.Minute))
	if v := m.Value(b, col); math.Abs(v-80) > 1 {
		t.Errorf("cpu at 09:25 on %s = %.1f%%, want 80%%", m.Buckets[b].Label, v)
	}
	if got := UnitPercent.Format(m.Value(b, col)); got != "80%" {
		t.Errorf("formatted %q", got)
	}
}

// TestCPUMetricOfSparseSamplesIsTheirLevel: a tablet at 82% listed once
// every 15 minutes over four hours (a window's samples may be sparse; a
// reviewer's heatmap showed it at 5%, the mean over every minute of its
// 16-minute columns) is drawn at 82% in every column that holds a sample,
// and the background at its 30% (render's TestCPULegendSaysTheSampledMinutes
// checks that the legend says so).
func TestCPUMetricOfSparseSamplesIsTheirLevel(t *testing.T) {
	storage := heatmaptest.ScenarioSnapshot(t, "celebrity")
	var tablets []keyspace.HotTablet
	for m := 0; m < 240; m += 15 {
		at := hotFrom.Add(time.Duration(m) * time.Minute)
		tablets = append(tablets,
			keyspace.HotTablet{Cluster: "c1", Table: storage.Table, StartKey: "user#mila_rosewood#", EndKey: "user#mila_rosewood$", Start: at, End: at.Add(time.Minute), CPU: 82},
			keyspace.HotTablet{Cluster: "c1", Table: storage.Table, StartKey: "", EndKey: "user#mila_rosewood#", Start: at.Add(7 * time.Minute), End: at.Add(8 * time.Minute), CPU: 30})
	}
	hot := keyspace.NewHotTablets(keyspace.HotTablets{Source: keyspace.HotTabletsBigtable, Clusters: []string{"c1"}, From: hotFrom, To: hotFrom.Add(4 * time.Hour), Tablets: tablets})
	snap := keyspace.WithHotTablets(storage, hot)
	m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: MetricCPU, Rows: 40, Columns: 15})
	b, _ := hottest(m)
	peak := 0.0
	for col := range m.Columns() {
		peak = max(peak, m.Value(b, col))
	}
	// A column holding the hot sample and a background one averages the
	// two minutes: the hot tablet's 82% over two sampled minutes is 41%.
	if peak < 41-1 || peak > 82+1 {
		t.Errorf("the hot tablet's column peaks at %.1f%%, want 41%%–82%% (its samples' level)", peak)
	}
	if whole := m.BucketTotal(b) / float64(m.Columns()); whole < 20 {
		t.Errorf("the hot tablet's columns average %.1f%%, diluted by minutes without a sample", whole)
	}
}

func TestCPUMetricOfHotTabletsAlone(t *testing.T) {
	hot := hotTablets("t", "user#celebrity#", "user#celebrity$")
	snap := keyspace.HotTabletsSnapshot(hot, "t", keyspace.SourceBigtable)
	if got := MetricsFor(snap); len(got) != 1 || got[0] != MetricCPU || DefaultMetric(snap) != MetricCPU {
		t.Fatalf("hot tablets alone: metrics %v, default %v", got, DefaultMetric(snap))
	}
	for _, bucketing := range Bucketings() {
		if bucketing == BucketTablets {
			continue
		}
		m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: bucketing, Metric: MetricCPU, Rows: 20, Columns: 60})
		b, _ := hottest(m)
		if !strings.Contains(m.Buckets[b].Label, "celebrity") {
			t.Errorf("%s: the hottest bucket is %q, want the celebrity's", bucketing, m.Buckets[b].Label)
		}
	}
	if _, err := Build(snap, View{Node: snap.Root, Metric: MetricRows, Rows: 20}); err == nil || !strings.Contains(err.Error(), "hot tablets alone") {
		t.Errorf("rows of hot tablets alone: %v", err)
	}
}

func TestLatencyMetricsDrawTheSlowRange(t *testing.T) {
	snap := readHotspotRecording(t)
	for _, metric := range []Metric{MetricLatency, MetricLatencyMax} {
		m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: metric, Rows: 50, Columns: 60})
		b, _ := hottest(m)
		if !strings.Contains(m.Buckets[b].Label, "u07") {
			t.Errorf("%s: the slowest bucket is %s, want user#u07#", metric, m.Buckets[b].Label)
		}
		col := m.Time.ColumnAt(trafficStart.Add(90 * time.Second))
		if v := time.Duration(m.Value(b, col)); v < 19*time.Millisecond || v > 21*time.Millisecond {
			t.Errorf("%s of %s at 90s: %v, want 20ms within the sketch's error", metric, m.Buckets[b].Label, v)
		}
	}
	scan := heatmaptest.ScenarioSnapshot(t, "celebrity")
	if _, err := Build(scan, View{Node: scan.Root, Metric: MetricLatency, Rows: 20}); err == nil || !strings.Contains(err.Error(), "traffic recording") {
		t.Errorf("latency of a scan: %v", err)
	}
}
