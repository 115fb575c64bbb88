package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Size thresholds. Where the guide gives a number it is used as stated:
// its MB are decimal megabytes (10^6 bytes), erring on the side of
// warning a little early; the key limit is 4 KB as 4,096 bytes.
const (
	// largeRowBytes: keep rows under 100 MB (warning above).
	largeRowBytes = 100_000_000
	// rowLimitBytes: rows over 256 MB fail (error above).
	rowLimitBytes = 256_000_000
	// largeCellBytes: keep cell values under 10 MB (warning above).
	largeCellBytes = 10_000_000
	// wideRowColumns is the guide-less threshold of wide-row: the guide
	// recommends qualifiers as data (friend IDs as column names), so
	// thousands of columns in a row are normal; at ten thousand, a read
	// of the row without a filter returns at least ten thousand cells in
	// one response, and every mutation of the row serialises on it.
	wideRowColumns = 10_000
	// longKeyBytes is the guide-less threshold of long-row-key: a quarter
	// of the limit, four times what a generous composite key of IDs,
	// names and a timestamp needs (around 100-250 bytes); past it the key,
	// which is stored with every cell, costs more than it says.
	longKeyBytes = 1024
	// keyLimitBytes: Bigtable refuses keys over 4 KB (error above).
	keyLimitBytes = 4096
	// maxRowFindings caps the findings one row-level check makes: the
	// first ten name the problem, and each carries the total count.
	maxRowFindings = 10
)

const largeRowAdvice = "Keep rows under 100 MB; Bigtable refuses a row past 256 MB, and a large row is read, " +
	"cached and moved as one unit, so it slows every read of it and can pin a tablet. Split the data over rows " +
	"that share a prefix (asset#chunk-000, asset#chunk-001, ...), store large objects in Cloud Storage and keep " +
	"their path in the row, and set a garbage-collection policy if old versions are what piles up."

const largeCellAdvice = "Keep cell values under 10 MB: large values slow the reads that return them and the " +
	"writes that replace them. Split the value over several cells or rows (value#part-000, ...) or store it in " +
	"Cloud Storage and keep only its path and metadata in Bigtable."

const wideRowAdvice = "A read of this row without a filter returns every cell, and every write to it is " +
	"serialised on the one row. If the columns are items of a list (friends, events, tags), make each item a " +
	"row with the item in the key (user#friend-id) so that scans can page through them; if only a few columns " +
	"are read at a time, read them with a column filter and group them by family."

const longKeyAdvice = "Keep row keys short: the key is stored with every cell and compared on every read, so " +
	"long keys cost memory, disk and CPU, and Bigtable refuses keys over 4 KB. Use compact IDs rather than " +
	"names, paths or serialised objects, keep segment tags short, and move descriptive data into cells."

// checkLargeRows raises large-row for rows over [largeRowBytes]
// (warning) or [rowLimitBytes] (error).
func checkLargeRows(d *diagnosis) []Finding {
	var rows []keyspace.RowStat
	for _, row := range d.snap.Largest {
		if row.Bytes > largeRowBytes {
			rows = append(rows, row)
		}
	}
	var findings []Finding
	for i, row := range rows[:min(len(rows), maxRowFindings)] {
		severity, limit := SeverityWarning, "the 100 MB the guide recommends"
		if row.Bytes > rowLimitBytes {
			severity, limit = SeverityError, "Bigtable's 256 MB row limit"
		}
		summary := fmt.Sprintf("row %s holds %s in %s cells (%s columns), over %s", printable(string(row.Key)),
			units.Bytes(float64(row.Bytes)), units.Thousands(row.Cells), units.Thousands(row.Columns), limit)
		if col, ok := largestColumn(row); ok {
			summary += fmt.Sprintf("; its largest column %s holds %s", columnName(col), units.Bytes(float64(col.Bytes)))
		}
		evidence := Evidence{}
		evidence.set("row_bytes", float64(row.Bytes))
		evidence.set("cells", float64(row.Cells))
		evidence.set("columns", float64(row.Columns))
		evidence.set("warn_bytes", largeRowBytes)
		evidence.set("limit_bytes", rowLimitBytes)
		evidence.set("rows_over_threshold", float64(len(rows)))
		evidence.set("rank", float64(i+1))
		start, end := rowRange(string(row.Key))
		findings = append(findings, Finding{
			Kind: KindLargeRow, Severity: severity, Start: start, End: end, Prefix: row.Key,
			Summary: summary, Advice: largeRowAdvice, Evidence: evidence,
		})
	}
	return findings
}

// checkLargeCells raises large-cell for rows holding a value over
// [largeCellBytes]; when the largest rows do not show it, the tree
// locates it.
func checkLargeCells(d *diagnosis) []Finding {
	var findings []Finding
	var rows []keyspace.RowStat
	for _, row := range d.snap.Largest {
		if row.MaxCellBytes > largeCellBytes {
			rows = append(rows, row)
		}
	}
	for i, row := range rows[:min(len(rows), maxRowFindings)] {
		summary := fmt.Sprintf("row %s has a %s cell value, over the 10 MB the guide recommends",
			printable(string(row.Key)), units.Bytes(float64(row.MaxCellBytes)))
		if col, ok := largestValueColumn(row); ok {
			summary = fmt.Sprintf("row %s has a %s value in column %s, over the 10 MB the guide recommends",
				printable(string(row.Key)), units.Bytes(float64(col.MaxBytes)), columnName(col))
		}
		evidence := Evidence{}
		evidence.set("max_cell_bytes", float64(row.MaxCellBytes))
		evidence.set("warn_bytes", largeCellBytes)
		evidence.set("rows_over_threshold", float64(len(rows)))
		evidence.set("rank", float64(i+1))
		start, end := rowRange(string(row.Key))
		findings = append(findings, Finding{
			Kind: KindLargeCell, Severity: SeverityWarning, Start: start, End: end, Prefix: row.Key,
			Summary: summary, Advice: largeCellAdvice, Evidence: evidence,
		})
	}
	if len(findings) == 0 && d.root.MaxCellBytes > largeCellBytes {
		node := deepest(d.root, func(n *keyspace.Node) int64 { return n.MaxCellBytes }, d.root.MaxCellBytes)
		evidence := Evidence{}
		evidence.set("max_cell_bytes", float64(node.MaxCellBytes))
		evidence.set("warn_bytes", largeCellBytes)
		findings = append(findings, nodeFinding(Finding{
			Kind: KindLargeCell, Severity: SeverityWarning,
			Summary: fmt.Sprintf("%s holds a %s cell value, over the 10 MB the guide recommends",
				nodeName(node), units.Bytes(float64(node.MaxCellBytes))),
			Advice: largeCellAdvice, Evidence: evidence,
		}, node))
	}
	return findings
}

// checkWideRows raises wide-row for rows with at least [wideRowColumns]
// columns.
func checkWideRows(d *diagnosis) []Finding {
	if d.root.MaxRowColumns < wideRowColumns && !largestHas(d.snap.Largest, func(r keyspace.RowStat) bool { return r.Columns >= wideRowColumns }) {
		return nil
	}
	var findings []Finding
	seen := map[keyspace.Key]bool{}
	add := func(key keyspace.Key, columns, cells int64, f Finding) {
		if seen[key] || len(findings) >= maxRowFindings {
			return
		}
		seen[key] = true
		f.Kind, f.Severity, f.Advice = KindWideRow, SeverityWarning, wideRowAdvice
		f.Evidence = Evidence{}
		f.Evidence.set("columns", float64(columns))
		f.Evidence.set("cells", float64(cells))
		f.Evidence.set("warn_columns", wideRowColumns)
		findings = append(findings, f)
	}
	for _, row := range d.snap.Largest {
		if row.Columns >= wideRowColumns {
			start, end := rowRange(string(row.Key))
			add(row.Key, row.Columns, row.Cells, Finding{Start: start, End: end, Prefix: row.Key,
				Summary: fmt.Sprintf("row %s has %s columns (%s cells), over %s", printable(string(row.Key)),
					units.Thousands(row.Columns), units.Thousands(row.Cells), units.Thousands(wideRowColumns))})
		}
	}
	if d.root.MaxRowColumns >= wideRowColumns {
		node := deepest(d.root, func(n *keyspace.Node) int64 { return n.MaxRowColumns }, d.root.MaxRowColumns)
		if node.Kind != keyspace.KindRow || !seen[node.Prefix] {
			add(node.Prefix, node.MaxRowColumns, node.MaxRowCells, nodeFinding(Finding{
				Summary: fmt.Sprintf("%s has a row with %s columns, over %s", nodeName(node),
					units.Thousands(node.MaxRowColumns), units.Thousands(wideRowColumns)),
			}, node))
		}
	}
	return findings
}

// checkLongKeys raises long-row-key when the longest key reaches
// [longKeyBytes] (warning) or passes [keyLimitBytes] (error).
func checkLongKeys(d *diagnosis) []Finding {
	longest := d.root.MaxKeyBytes
	for _, long := range d.snap.LongKeys {
		// Keys cut to what a file keeps, with their full length: a
		// recording's keys have no row statistics.
		longest = max(longest, long.Bytes)
	}
	if longest < longKeyBytes {
		return nil
	}
	severity, limit := SeverityWarning, fmt.Sprintf("at or above %s bytes, far more than a key needs", units.Thousands(longKeyBytes))
	if longest > keyLimitBytes {
		severity, limit = SeverityError, "over Bigtable's 4 KB key limit"
	}
	// Stop at prefix nodes: a 5 KB row key as a range bound helps nobody,
	// the prefix under which the long keys live does.
	node := deepest(d.root, func(n *keyspace.Node) int64 {
		if n.Kind != keyspace.KindPrefix {
			return 0
		}
		return n.MaxKeyBytes
	}, longest)
	mean := share(d.root.KeyBytes, d.root.Rows)
	var over int
	for _, row := range d.profile.rows {
		if len(row.Key) >= longKeyBytes {
			over++
		}
	}
	evidence := Evidence{}
	evidence.set("max_key_bytes", float64(longest))
	evidence.set("mean_key_bytes", mean)
	evidence.set("warn_bytes", longKeyBytes)
	evidence.set("limit_bytes", keyLimitBytes)
	if len(d.profile.rows) > 0 {
		evidence.set("sampled_keys_over_warn_share", share(float64(over), float64(len(d.profile.rows))))
	}
	return []Finding{nodeFinding(Finding{
		Kind:     KindLongRowKey,
		Severity: severity,
		Summary: fmt.Sprintf("the longest row key is %s bytes (mean %s bytes), %s; it is in %s",
			units.Thousands(longest), units.Thousands(int64(mean+0.5)), limit, nodeName(node)),
		Advice:   longKeyAdvice,
		Evidence: evidence,
	}, node)}
}

// largestColumn returns the row's column with the most bytes.
func largestColumn(row keyspace.RowStat) (keyspace.ColumnStat, bool) {
	if len(row.TopColumns) == 0 {
		return keyspace.ColumnStat{}, false
	}
	return row.TopColumns[0], true
}

// largestValueColumn returns the row's column with the largest value.
func largestValueColumn(row keyspace.RowStat) (keyspace.ColumnStat, bool) {
	var best keyspace.ColumnStat
	found := false
	for _, col := range row.TopColumns {
		if !found || col.MaxBytes > best.MaxBytes {
			best, found = col, true
		}
	}
	return best, found && best.MaxBytes == row.MaxCellBytes
}

// columnName writes family:qualifier, escaped.
func columnName(col keyspace.ColumnStat) string {
	return keyspace.Printable(col.Family) + ":" + printable(string(col.Qualifier))
}

// nodeName names a tree node for a summary: "row K", "prefix P",
// "range [S, E)".
func nodeName(n *keyspace.Node) string {
	switch n.Kind {
	case keyspace.KindRow:
		return "row " + printable(string(n.Prefix))
	case keyspace.KindRange:
		end := printable(string(n.End))
		if n.End == "" {
			end = "end of table"
		}
		return "range [" + quoteKey(string(n.Start)) + ", " + end + ")"
	}
	if n.Prefix == "" {
		return "the table"
	}
	return "prefix " + printable(string(n.Prefix))
}

func largestHas(rows []keyspace.RowStat, match func(keyspace.RowStat) bool) bool {
	for _, row := range rows {
		if match(row) {
			return true
		}
	}
	return false
}
