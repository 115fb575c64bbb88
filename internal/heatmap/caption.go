package heatmap

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Caption is an image's title and subtitle: what table, metric, key range
// and scan the picture shows, so that it stands on its own in a review.
type Caption struct {
	Title, Subtitle string
}

// Describe returns the caption of matrix m made from snap: table and
// metric in the title; key range, bucketing, scale and how the scan was
// made in the subtitle, with the emulator caveat where it applies.
func Describe(snap *keyspace.Snapshot, m *Matrix, scale Scale) Caption {
	if m == nil {
		return Caption{}
	}
	title := m.Description() + " by key"
	switch {
	case m.Timed() && m.CallTime:
		title += " and time"
	case m.Timed():
		title += " and write time"
	}
	if m.Table != "" {
		title = m.Table + " — " + title
	}
	parts := []string{rangeText(m.Start, m.End), fmt.Sprintf("%s bucketing, %d rows", m.View.Bucketing, len(m.Buckets)), scale.String() + " scale"}
	if snap != nil && !snap.HotTabletsOnly() { // hot tablets alone: no scan to describe
		parts = append(parts, scanText(snap))
	}
	if snap != nil {
		if m.View.Bucketing == BucketTablets && !snap.RangesAreTablets {
			parts = append(parts, "emulator: boundaries are samples, not tablets")
		}
		switch {
		case m.View.Metric == MetricCPU:
			parts = append(parts, hotTabletsText(snap))
		case m.Traffic:
			parts = append(parts, "traffic recorded through btviz record: only calls that went through it")
		case m.View.Metric.Timed():
			parts = append(parts, "only versions kept by GC are counted")
		}
		if m.View.Metric.Latency() {
			parts = append(parts, "latency as the recording proxy saw it, request to trailers; medians within the sketches' error (1% at best)")
		}
	}
	return Caption{Title: title, Subtitle: strings.Join(parts, " · ")}
}

// rangeText writes a key range as [start, end) with printable keys, or
// "all keys" for the whole table.
func rangeText(start, end keyspace.Key) string {
	if start == "" && end == "" {
		return "all keys"
	}
	s, e := start.String(), end.String()
	if start == "" {
		s = tableStartLabel
	}
	if end == "" {
		e = "(table end)"
	}
	return "keys [" + s + ", " + e + ")"
}

// scanText says how the snapshot was read, or, for a traffic recording
// alone, what it recorded.
func scanText(snap *keyspace.Snapshot) string {
	var text string
	if snap.TrafficOnly() && snap.Traffic != nil {
		text = fmt.Sprintf("recording of %s, %s operations", units.Duration(snap.Traffic.Duration), units.Short(snap.TrafficTotals().Ops))
	} else {
		text = fmt.Sprintf("%s, %s rows read", snap.Scan.ModeText(), units.Short(float64(snap.Scan.RowsRead)))
		if snap.Source != "" {
			text += " on " + string(snap.Source)
		}
	}
	if complete, _ := snap.Completeness(); !complete {
		text += ", incomplete"
	}
	return text
}

// hotTabletsText says where a view's hot tablets came from and what they
// cover.
func hotTabletsText(snap *keyspace.Snapshot) string {
	h := snap.HotTablets
	if h == nil {
		return ""
	}
	if h.Simulated() {
		return "SIMULATED hot tablets: computed from the recorded operations on Cloud-like tablets, not Cloud Bigtable's"
	}
	text := fmt.Sprintf("hot tablets from ListHotTablets, %s to %s", h.From.UTC().Format("2006-01-02 15:04"), h.To.UTC().Format("2006-01-02 15:04 MST"))
	if len(h.Clusters) > 1 {
		text += fmt.Sprintf(", cluster %s of %d (one node's CPU is one cluster's)", h.Shown(), len(h.Clusters))
	}
	return text
}
