package export

import (
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
)

// findingView returns the heatmap view of snap that shows finding f to a
// reviewer (report images draw it), and false for a finding no picture
// helps with (key-pattern findings, scan notes). A new finding kind says
// here how it is best seen; diagnose itself knows no heatmap. A finding at
// a prefix or row is shown among its siblings, hot ones kept apart, in the
// metric it is about (a hot range as its share of each moment's writes);
// writes that march through the key space are shown in even buckets, where
// they draw the diagonal; tablet skew one row per tablet.
func findingView(snap *keyspace.Snapshot, f diagnose.Finding) (heatmap.View, bool) {
	var metric heatmap.Metric
	switch f.Kind {
	case diagnose.KindSequentialKeys, diagnose.KindKeyStartsWithTimestamp, diagnose.KindSequentialNumericID, diagnose.KindSequentialWrites:
		v := heatmap.View{Node: snap.Root, Metric: heatmap.MetricWrites, Bucketing: heatmap.BucketEven}
		if f.Prefix != "" {
			v.Node, v.Start, v.End = nil, f.Start, f.End
		}
		return v, true
	case diagnose.KindTabletSkew:
		if len(snap.Ranges) == 0 {
			return heatmap.View{}, false
		}
		return heatmap.View{Node: snap.Root, Metric: heatmap.MetricBytes, Bucketing: heatmap.BucketTablets}, true
	case diagnose.KindHotKeyRange:
		metric = heatmap.MetricWriteShare
	case diagnose.KindReadHotspot:
		metric = heatmap.MetricReads
	case diagnose.KindWriteHotspot:
		metric = heatmap.MetricWrites
	case diagnose.KindHotRow:
		metric = heatmap.MetricOps
	case diagnose.KindHotTablet:
		metric = heatmap.MetricCPU
	case diagnose.KindHighLatency:
		metric = heatmap.MetricLatency
	case diagnose.KindLargeRow, diagnose.KindLargeCell, diagnose.KindWideRow:
		metric = heatmap.MetricMaxRow
	case diagnose.KindFrequentlyUpdatedRow:
		metric = heatmap.MetricVersions
	default:
		return heatmap.View{}, false
	}
	if f.Prefix == "" {
		return heatmap.View{}, false
	}
	return heatmap.View{Node: parentOf(snap.Root, f), Metric: metric, Bucketing: heatmap.BucketHeat}, true
}

// parentOf returns the tree node one level above the finding's prefix (or
// row): the view in which the finding stands among its siblings.
func parentOf(root *keyspace.Node, f diagnose.Finding) *keyspace.Node {
	path := root.Lookup(string(f.Prefix))
	if path == nil {
		path = root.Find(string(f.Start))
	}
	for i := len(path) - 2; i >= 0; i-- {
		if len(path[i].Children) > 1 || i == 0 {
			return path[i]
		}
	}
	return root
}
