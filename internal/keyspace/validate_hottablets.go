package keyspace

import (
	"math"
	"strconv"
	"time"

	"github.com/btviz/btviz/internal/escape"
)

// maxFileClusters bounds the clusters of a snapshot's hot tablets (an
// instance has at most 8 today).
const maxFileClusters = 1 << 10

// hotTablets checks a snapshot's hot tablets: a known source, bounded
// lists, percentages between 0 and 100, keys in order, and a window and
// samples whose times lie in order.
func hotTablets(path string, h *HotTablets) error {
	if h == nil {
		return nil
	}
	switch h.Source {
	case HotTabletsBigtable, HotTabletsSimulated:
	default:
		return problem(path+".source", "unknown source %s (want bigtable or simulated)", escape.Quote(string(h.Source)))
	}
	if len(h.Clusters) > maxFileClusters {
		return problem(path+".clusters", "%d clusters, more than %d", len(h.Clusters), maxFileClusters)
	}
	for i := range h.Clusters {
		h.Clusters[i] = cutText(h.Clusters[i])
	}
	h.Project, h.Instance, h.Note = cutText(h.Project), cutText(h.Instance), cutText(h.Note)
	if h.To.Before(h.From) {
		return problem(path+".to", "%v comes before from %v", h.To, h.From)
	}
	if len(h.Tablets) > maxFileRowList {
		return problem(path+".tablets", "%d samples, more than %d", len(h.Tablets), maxFileRowList)
	}
	for i := range h.Tablets {
		t := &h.Tablets[i]
		at := path + ".tablets[" + strconv.Itoa(i) + "]"
		t.Cluster, t.Table = cutText(t.Cluster), cutText(t.Table)
		switch {
		case math.IsNaN(t.CPU) || t.CPU < 0 || t.CPU > 100:
			return problem(at+".node_cpu_percent", "%v is not a percentage between 0 and 100", t.CPU)
		case len(t.StartKey) > maxFileKeyBytes:
			return problem(at+".start_key", "a key of %d bytes, more than %d", len(t.StartKey), maxFileKeyBytes)
		case len(t.EndKey) > maxFileKeyBytes:
			return problem(at+".end_key", "a key of %d bytes, more than %d", len(t.EndKey), maxFileKeyBytes)
		case t.EndKey != "" && t.EndKey < t.StartKey:
			return problem(at+".end_key", "%v comes before the start key %v", t.EndKey, t.StartKey)
		case t.End.Before(t.Start):
			return problem(at+".end_time", "%v comes before the start time %v", t.End, t.Start)
		case t.End.Sub(t.Start) > hotTabletMaxSample:
			return problem(at+".end_time", "a sample of %v, longer than the %v a window may span", t.End.Sub(t.Start), hotTabletMaxSample)
		}
	}
	return nil
}

// hotTabletMaxSample bounds one sample's span: the longest window
// ListHotTablets answers is 14 days, and btviz asks no wider.
const hotTabletMaxSample = 15 * 24 * time.Hour
