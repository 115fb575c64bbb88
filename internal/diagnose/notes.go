package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// checkScanNotes adds the info notes that say what the snapshot can and
// cannot show: emulator boundaries, a sampled or incomplete scan, values
// not read, and versions removed by garbage collection.
func checkScanNotes(d *diagnosis) []Finding {
	scan := d.snap.Scan
	start, end := d.tableWide()
	note := func(summary, advice string, evidence Evidence) Finding {
		return Finding{Kind: KindScanNote, Severity: SeverityInfo, Start: start, End: end,
			Summary: summary, Advice: advice, Evidence: evidence}
	}
	var notes []Finding
	if t := d.snap.Traffic; t != nil {
		evidence := Evidence{}
		evidence.set("duration_seconds", t.Duration.Seconds())
		// A table whose calls named no key (only SampleRowKeys) has no
		// traffic in its tree in files of older btviz.
		evidence.set("ops", d.snap.TrafficTotals().Ops)
		notes = append(notes, note(
			fmt.Sprintf("traffic recorded for %s through btviz record: only calls made through the proxy are counted, and a read counts the rows the server returned (rows a filter dropped are not seen)",
				units.Duration(t.Duration)),
			"Point every client of the table at the proxy (BIGTABLE_EMULATOR_HOST) for the whole picture, and record long enough to see the steady load.", evidence))
		if t.Incomplete != "" {
			notes = append(notes, note(
				fmt.Sprintf("incomplete recording (%s): the findings cover only the %s calls it holds, the first %s of the recording",
					t.Incomplete, units.Thousands(int64(methodCalls(t.Methods))), units.Duration(t.Duration)),
				"Record again and stop btviz record with Ctrl+C or --duration, so that it writes the whole recording.",
				Evidence{"calls": methodCalls(t.Methods)}))
		}
	}
	if d.root.Rows == 0 && (d.snap.HasTraffic() || d.snap.HotTabletsOnly()) {
		return notes // a recording or hot tablets alone: nothing was scanned
	}
	if !d.snap.RangesAreTablets {
		summary := "the range map is not a tablet map, so tablet-skew is not checked"
		if d.snap.Source == keyspace.SourceEmulator {
			summary = "emulator: boundaries are samples, not tablets (the emulator's SampleRowKeys returns random " +
				"row keys), so tablet-skew is not checked"
		}
		notes = append(notes, note(summary,
			"Run btviz against a Cloud Bigtable instance to see real tablets and their sizes.",
			Evidence{"ranges": float64(len(d.snap.Ranges))}))
	}
	if scan.Mode.IsSample() {
		if scan.RowsEstimated == 0 {
			scan.RowsEstimated = int64(d.root.Rows + 0.5)
		}
		evidence := Evidence{}
		evidence.set("fraction", scan.Fraction)
		evidence.set("rows_read", float64(scan.RowsRead))
		evidence.set("rows_estimated", float64(scan.RowsEstimated))
		notes = append(notes, note(
			fmt.Sprintf("sampled scan: read %s of about %s rows (fraction %.4g); counts and shares are estimates, "+
				"and the largest-row lists cover only rows read", units.Thousands(scan.RowsRead),
				units.Thousands(scan.RowsEstimated), scan.Fraction),
			"Scan with --full for exact counts when the table is small enough.", evidence))
	}
	if n, bytes, first, last := unexplainedRanges(d.snap.Ranges); n > 0 {
		evidence := Evidence{}
		evidence.set("ranges", float64(n))
		evidence.set("bytes", float64(bytes))
		unread := note(
			fmt.Sprintf("key ranges far larger than the sample saw of them were not read again in full, the read cap (--max-read) spent: %s, %s by their offsets; an oversized row there may be missing from the largest rows and their findings",
				units.Plural(int64(n), "range"), units.Bytes(float64(bytes))),
			"Raise --max-read, or scan the key range this note gives with --full (--start, --end).", evidence)
		unread.Start, unread.End = first, last // from the first such range to the last
		notes = append(notes, unread)
	}
	if !scan.Complete {
		reason := scan.Incomplete
		if reason == "" {
			reason = "stopped early"
		}
		notes = append(notes, note(
			fmt.Sprintf("incomplete scan (%s): the findings cover only the %s rows read", reason, units.Thousands(scan.RowsRead)),
			"Scan again to cover the whole range.", Evidence{"rows_read": float64(scan.RowsRead)}))
	}
	if !scan.ValuesRead && d.root.Rows > 0 {
		notes = append(notes, note(
			"values were not read: row and cell sizes count keys and column names only, so large-row and large-cell cannot be judged",
			"Scan with values to check row and cell sizes.", Evidence{}))
	}
	if d.root.Cells > 0 {
		evidence := Evidence{}
		evidence.set("cells", d.root.Cells)
		notes = append(notes, note(
			"only cell versions that garbage collection kept are visible: write times and version counts describe what survives, not every write",
			"Read write-pattern findings with the families' GC policies in mind.", evidence))
	}
	return notes
}

// unexplainedRanges counts the ranges a sampled scan could not explain
// and left unread (Range.Unexplained) and their bytes, and returns the
// start of the first and the end of the last.
func unexplainedRanges(ranges []keyspace.Range) (n int, bytes int64, start, end keyspace.Key) {
	for _, r := range ranges {
		if r.Unexplained {
			if n == 0 {
				start = r.Start
			}
			n++
			bytes += r.SampledBytes
			end = r.End
		}
	}
	return n, bytes, start, end
}

// methodCalls adds up the calls of a method list.
func methodCalls(methods []keyspace.MethodCount) float64 {
	calls := 0.0
	for _, m := range methods {
		calls += m.Calls
	}
	return calls
}
