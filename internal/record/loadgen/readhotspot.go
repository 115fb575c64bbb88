package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"
)

// The read hotspot's shape.
const (
	hotUser = "mila_rosewood"
	// hotUserPosts is how many posts the celebrity's events are about in
	// social-celebrity: p000000 to p000399.
	hotUserPosts = 400
	// hotShare of calls read the celebrity's rows; the rest read other
	// users'.
	hotShare = 0.8
	// pointShare of either kind of read is a point read of a row listed
	// before; the rest are short scans, which list rows.
	pointShare   = 0.65
	hotScanRows  = 5
	coldScanRows = 3
)

// readHotspot: everyone reads one celebrity's events.
func readHotspot() Workload {
	return Workload{
		Name:  "read-hotspot",
		Table: "social-celebrity",
		Description: fmt.Sprintf("%.0f%% of reads go to user#%s#: point reads of her events and short scans of her posts, among reads of other users",
			hotShare*100, hotUser),
		newWorker: func(r *rand.Rand, _ *logicalClock) caller { return &hotReader{rand: r} },
	}
}

// hotReader is one worker of [readHotspot]: it lists a post's events with
// a short scan and reads events it listed before one by one.
type hotReader struct {
	rand      *rand.Rand
	hot, cold ring
}

func (h *hotReader) call(ctx context.Context, table *bigtable.Table) error {
	hot := h.rand.Float64() < hotShare
	known := &h.cold
	if hot {
		known = &h.hot
	}
	if h.rand.Float64() < pointShare {
		if key, ok := known.pick(h.rand); ok {
			_, err := table.ReadRow(ctx, key)
			return err
		}
	}
	if hot {
		post := fmt.Sprintf("user#%s#p%06d#", hotUser, h.rand.IntN(hotUserPosts))
		return h.scan(ctx, table, bigtable.PrefixRange(post), hotScanRows, &h.hot)
	}
	// Another user: the rows after a random point of the user range.
	start := fmt.Sprintf("user#%c%c", 'a'+rune(h.rand.IntN(26)), 'a'+rune(h.rand.IntN(26)))
	return h.scan(ctx, table, bigtable.NewRange(start, "user$"), coldScanRows, &h.cold)
}

// scan reads at most limit rows of r and remembers their keys in known.
func (h *hotReader) scan(ctx context.Context, table *bigtable.Table, r bigtable.RowRange, limit int64, known *ring) error {
	return table.ReadRows(ctx, r, func(row bigtable.Row) bool {
		known.add(row.Key())
		return true
	}, bigtable.LimitRows(limit))
}
