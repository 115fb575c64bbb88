package diagnose

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// frequentlyUpdatedMinVersions is the number of versions of one column
// at which a row counts as frequently updated. The guide's example is a
// row rewritten every second; a thousand kept versions is an update every
// 90 s for a day, far past the few versions a read or a GC policy needs,
// while ordinary history-keeping columns hold tens.
const frequentlyUpdatedMinVersions = 1000

const frequentlyUpdatedAdvice = "Write each reading as a new row whose key ends with its time " +
	"(device#memusage#1423523569918) instead of a new version of one cell: a single row takes every write, " +
	"grows without bound and is read whole. Keep very fast counters in memory and flush them periodically; " +
	"if only recent values matter, set a garbage-collection policy (max versions or max age) on the family."

// checkFrequentlyUpdatedRows raises frequently-updated-row for rows with
// at least [frequentlyUpdatedMinVersions] versions of one column.
func checkFrequentlyUpdatedRows(d *diagnosis) []Finding {
	var rows []keyspace.RowStat
	for _, row := range d.snap.MostVersioned {
		if row.MaxVersions >= frequentlyUpdatedMinVersions {
			rows = append(rows, row)
		}
	}
	var findings []Finding
	for _, row := range rows[:min(len(rows), maxRowFindings)] {
		spanMicros := row.LastWrite - row.FirstWrite
		column := "one column"
		if col, ok := mostVersionedColumn(row); ok {
			column = columnName(col)
		}
		summary := fmt.Sprintf("row %s keeps %s versions of %s", printable(string(row.Key)),
			units.Thousands(row.MaxVersions), column)
		evidence := Evidence{}
		evidence.set("versions", float64(row.MaxVersions))
		evidence.set("min_versions", frequentlyUpdatedMinVersions)
		evidence.set("row_cells", float64(row.Cells))
		evidence.set("row_bytes", float64(row.Bytes))
		evidence.set("rows_over_threshold", float64(len(rows)))
		if spanMicros > 0 && row.MaxVersions > 1 {
			interval := spanMicros / (row.MaxVersions - 1)
			summary += fmt.Sprintf(", one every %s over %s", units.Duration(time.Duration(interval)*time.Microsecond),
				units.Duration(time.Duration(spanMicros)*time.Microsecond))
			evidence.set("write_span_seconds", float64(spanMicros)/1e6)
			evidence.set("seconds_between_versions", float64(interval)/1e6)
		}
		start, end := rowRange(string(row.Key))
		findings = append(findings, Finding{
			Kind: KindFrequentlyUpdatedRow, Severity: SeverityWarning, Start: start, End: end, Prefix: row.Key,
			Summary: summary, Advice: frequentlyUpdatedAdvice, Evidence: evidence,
		})
	}
	return findings
}

// mostVersionedColumn returns the row's column with the most versions
// when its column detail holds it.
func mostVersionedColumn(row keyspace.RowStat) (keyspace.ColumnStat, bool) {
	var best keyspace.ColumnStat
	for _, col := range row.TopColumns {
		if col.Versions > best.Versions {
			best = col
		}
	}
	return best, best.Versions == row.MaxVersions && best.Versions > 0
}
