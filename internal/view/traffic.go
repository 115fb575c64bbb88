package view

import (
	"fmt"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// trafficFields are the details pane's lines on a bucket's recorded
// traffic: operations (with their share of the table's and how many were
// point reads and scans), rows and bytes read, rows and bytes written.
func (f *Frame) trafficFields(b *heatmap.Bucket) []string {
	t, total := &b.Traffic, f.Snap.TrafficTotals()
	share := ""
	if total.Ops > 0 {
		share = "  (" + units.Percent(t.Ops/total.Ops) + " of ops)"
	}
	return []string{
		f.field("ops", units.Count(t.Ops)+share),
		f.field("", fmt.Sprintf("%s point reads · %s scans", units.Count(t.PointReads), units.Count(t.Scans))),
		f.field("read", units.Count(t.RowsRead)+" rows · "+units.Bytes(t.BytesRead)),
		f.field("written", units.Count(t.RowsWritten)+" rows · "+units.Bytes(t.BytesWritten)),
	}
}

// hotRowsIn lists the hottest read and written rows that lie in the
// bucket, from the recording's hot-row lists.
func (f *Frame) hotRowsIn(b *heatmap.Bucket, width int) []string {
	st := &f.Styles
	var lines []string
	for _, list := range []struct {
		title, verb string
		rows        []keyspace.HotRow
	}{{"Most read here", "reads", f.Snap.Traffic.TopReads}, {"Most written here", "writes", f.Snap.Traffic.TopWrites}} {
		shown := 0
		for _, row := range list.rows {
			if !keyspace.InRange(string(row.Key), string(b.Start), string(b.End)) || shown == detailTopRows {
				continue
			}
			if shown == 0 {
				lines = append(lines, " "+st.Strong.Render(list.title))
			}
			figure := units.CountRange(row.Count-row.Error, row.Count) + " " + list.verb
			lines = append(lines, "   "+st.Text.Render(KeyText(row.Key, max(width-4-len(figure)-2, 8)))+"  "+st.Muted.Render(figure))
			shown++
		}
	}
	return lines
}
