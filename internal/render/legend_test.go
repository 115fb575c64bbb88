package render

import (
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// TestCPULegendSaysTheSampledMinutes: the cpu metric is the mean over the
// minutes that hold a sample, and the legend says so.
func TestCPULegendSaysTheSampledMinutes(t *testing.T) {
	storage := heatmaptest.ScenarioSnapshot(t, "celebrity")
	from := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var tablets []keyspace.HotTablet
	for m := 0; m < 240; m += 15 {
		at := from.Add(time.Duration(m) * time.Minute)
		tablets = append(tablets, keyspace.HotTablet{Cluster: "c1", Table: storage.Table, StartKey: "user#mila_rosewood#", EndKey: "user#mila_rosewood$", Start: at, End: at.Add(time.Minute), CPU: 82})
	}
	hot := keyspace.NewHotTablets(keyspace.HotTablets{Source: keyspace.HotTabletsBigtable, Clusters: []string{"c1"}, From: from, To: from.Add(4 * time.Hour), Tablets: tablets})
	snap := keyspace.WithHotTablets(storage, hot)
	m := mustBuild(t, snap, heatmap.View{Node: snap.Root, Bucketing: heatmap.BucketPrefix, Metric: heatmap.MetricCPU, Rows: 40, Columns: 15})
	if caption := legendCaption(m); !strings.Contains(caption, "sampled minutes") {
		t.Errorf("legend %q does not say the mean is over the sampled minutes", caption)
	}
}
