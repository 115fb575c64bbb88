package keyspace

import (
	"fmt"
	"strconv"

	"github.com/btviz/btviz/internal/escape"
)

// diffNotes says what limits a comparison of before with after: one
// sentence per difference in table, origin, scan mode, scanned range,
// completeness, delimiters and value reading.
func diffNotes(before, after *Snapshot) []string {
	var notes []string
	add := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	if before.Table != after.Table {
		add("different tables: %s before, %s after; the diff compares two tables (two key designs), not one table over time",
			escape.Quote(before.Table), escape.Quote(after.Table))
	} else if before.Project != after.Project || before.Instance != after.Instance {
		add("different instances: before is from project %s, instance %s; after from project %s, instance %s",
			escape.Quote(before.Project), escape.Quote(before.Instance),
			escape.Quote(after.Project), escape.Quote(after.Instance))
	}
	if before.Source != after.Source {
		add("different sources: before was scanned on %s, after on %s; key ranges are tablets only on bigtable",
			sourceName(before.Source), sourceName(after.Source))
	}
	if note := modeNote(before.Scan, after.Scan); note != "" {
		notes = append(notes, note)
	}
	if rangeText(before.Scan) != rangeText(after.Scan) {
		add("the scans cover different key ranges (before: %s; after: %s): rows outside the narrower one show as added or removed, and shares are of different wholes",
			rangeText(before.Scan), rangeText(after.Scan))
	}
	for _, side := range []struct {
		name string
		scan ScanInfo
	}{{"before", before.Scan}, {"after", after.Scan}} {
		if !side.scan.Complete {
			reason := side.scan.Incomplete
			if reason == "" {
				reason = "stopped early"
			}
			add("the %s scan is incomplete (%s): prefixes it did not reach show as added or removed", side.name, escape.Text(reason))
		}
	}
	if before.Delimiters != after.Delimiters {
		add("keys are split at different delimiters (%s before, %s after): prefixes are compared by key range",
			quotedKey(before.Delimiters), quotedKey(after.Delimiters))
	}
	if before.Scan.ValuesRead != after.Scan.ValuesRead {
		add("values were read in only one scan: byte counts and byte shares are not comparable")
	}
	return notes
}

// modeNote compares how the two scans read rows.
func modeNote(before, after ScanInfo) string {
	b, a := modeText(before), modeText(after)
	switch {
	case !before.Mode.IsSample() && !after.Mode.IsSample():
		return ""
	case b != a:
		return fmt.Sprintf("different scan modes: before is a %s, after a %s; sampled counts are estimates, so small changes may be sampling noise", b, a)
	}
	return fmt.Sprintf("both snapshots come from a %s: counts are estimates, so small changes may be sampling noise", b)
}

// modeText names a scan mode: "full scan", "sampled scan (5% of rows)".
func modeText(s ScanInfo) string {
	if !s.Mode.IsSample() {
		return "full scan"
	}
	switch {
	case s.MaxRows > 0:
		return fmt.Sprintf("sampled scan (budget of %d rows)", s.MaxRows)
	case s.Fraction > 0 && s.Fraction < 1:
		return fmt.Sprintf("sampled scan (%s%% of rows)", strconv.FormatFloat(s.Fraction*100, 'g', 3, 64))
	}
	return "sampled scan"
}

// rangeText writes the key range a scan covered.
func rangeText(s ScanInfo) string {
	switch {
	case s.Prefix != "":
		return "prefix " + quotedKey(string(s.Prefix))
	case s.Start == "" && s.End == "":
		return "all keys"
	case s.End == "":
		return "[" + quotedKey(string(s.Start)) + ", table end)"
	}
	return "[" + quotedKey(string(s.Start)) + ", " + quotedKey(string(s.End)) + ")"
}

// quotedKey writes key bytes (a key, a prefix, delimiters) escaped by
// [Printable] between double quotes; names and other text are quoted by
// [escape.Quote], as every output writes them.
func quotedKey(s string) string { return `"` + Printable(s) + `"` }

// sourceName names a snapshot source, "unknown" when unset.
func sourceName(s Source) string {
	if s == "" {
		return "an unknown source"
	}
	return escape.Text(string(s))
}
