package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/units"
)

// markUncertain says so on the hot-key-range findings of a sample whose
// row share's 95% interval (see keyspace.ScanInfo.RowsInterval) holds
// the threshold: another sample may well not raise them, and a full scan
// of the range decides. The other findings a sample agrees on rest on
// exact numbers (a row read is measured whole; a tablet's bytes come from
// the tablet map), so only the shares of rows are uncertain.
func markUncertain(d *diagnosis, findings []Finding) {
	scan := d.snap.Scan
	if !scan.HasInterval() || d.root.Rows <= 0 {
		return
	}
	for i := range findings {
		f := &findings[i]
		if f.Kind != KindHotKeyRange {
			continue
		}
		rowShare := f.Evidence["row_share"]
		if rowShare < hotMinShare {
			continue // raised by bytes or writes, not by its rows
		}
		low, high := scan.RowsInterval(rowShare * d.root.Rows)
		lowShare, highShare := share(low, d.root.Rows), share(high, d.root.Rows)
		if lowShare >= hotMinShare {
			continue
		}
		f.Evidence.set("row_share_low", lowShare)
		f.Evidence.set("row_share_high", highShare)
		f.Summary += fmt.Sprintf(" (sampled: the 95%% interval of its share, %s to %s, holds the %s threshold; a full scan of the range decides)",
			units.Percent(lowShare), units.Percent(highShare), units.Percent(hotMinShare))
	}
}
