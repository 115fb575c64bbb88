package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// countChange writes the change of a count with its sign: "+1,234",
// "-7,600", "0".
func countChange(before, after int64) string {
	delta := after - before
	if delta > 0 {
		return "+" + units.Thousands(delta)
	}
	return units.Thousands(delta)
}

// relativeChange writes the change of a size in percent: "+3.1%",
// "-50%", "0", "new" from nothing.
func relativeChange(before, after int64) string {
	switch {
	case before == after:
		return "0"
	case before == 0:
		return "new"
	}
	change := float64(after-before) / float64(before)
	sign := "+"
	if change < 0 {
		sign = "-"
	}
	return sign + units.Percent(math.Abs(change))
}

// points writes a change of share in percentage points: "+12.5 pp",
// "-38 pp", "0 pp".
func points(delta float64) string {
	p := delta * 100
	switch {
	case math.Abs(p) < 0.005:
		return "0 pp"
	case math.Abs(p) >= 10:
		return fmt.Sprintf("%+.0f pp", p)
	case math.Abs(p) >= 1:
		return fmt.Sprintf("%+.1f pp", p)
	}
	return fmt.Sprintf("%+.2f pp", p)
}

// shareChange writes a share before and after and the change: "38% → 0%
// (-38 pp)".
func shareChange(before, after float64, arrow string) string {
	return units.Percent(before) + arrow + units.Percent(after) + " (" + points(after-before) + ")"
}

// lowerBound marks the counts of an inexact prefix measure.
func lowerBound(p PrefixDiffDoc) string {
	if p.Exact {
		return ""
	}
	return "≥"
}

// topPrefixCell writes a side's top prefix and its shares.
func topPrefixCell(top *TopPrefixDoc, key func(string) string) string {
	if top == nil {
		return "-"
	}
	return key(string(top.Prefix)) + ": " + sharesText(top.RowShare, top.WriteShare)
}

// topPrefixChange writes how the top prefix's row share moved.
func topPrefixChange(before, after *TopPrefixDoc) string {
	if before == nil || after == nil {
		return ""
	}
	return points(after.RowShare - before.RowShare)
}

// countsText writes finding counts: "0 error, 1 warning, 2 info".
func countsText(c CountsDoc) string {
	return fmt.Sprintf("%d error, %d warning, %d info", c.Error, c.Warning, c.Info)
}

// countsChange writes how the finding counts moved: "-1 warning", or ""
// when they did not.
func countsChange(before, after CountsDoc) string {
	var parts []string
	for _, c := range []struct {
		name          string
		before, after int
	}{{"error", before.Error, after.Error}, {"warning", before.Warning, after.Warning}, {"info", before.Info, after.Info}} {
		if c.after != c.before {
			parts = append(parts, fmt.Sprintf("%+d %s", c.after-c.before, c.name))
		}
	}
	return strings.Join(parts, ", ")
}

// severityChange writes "warning" or "warning → error".
func severityChange(before, after, arrow string) string {
	if before == after {
		return before
	}
	return before + arrow + after
}

// prefixCountsText says how many prefixes were compared and how they fared.
func prefixCountsText(doc DiffDocument) string {
	c := doc.PrefixCounts
	return fmt.Sprintf("Compared %s prefixes down to depth %d: %s added, %s removed, %s changed, %s unchanged.",
		units.Thousands(int64(doc.PrefixesCompared)), doc.MaxDepth, units.Thousands(int64(c.Added)), units.Thousands(int64(c.Removed)),
		units.Thousands(int64(c.Changed)), units.Thousands(int64(c.Unchanged)))
}

// DiffMovesShown is how many moved prefixes the text and Markdown diffs
// list.
const DiffMovesShown = 10

// moveCells writes a moved prefix as cells: the prefix, which way it
// moved, into (or from) how many pieces, its rows before and after, its
// shares where it leads the key, and its largest piece. atLeast marks
// counts that are lower bounds.
func moveCells(m MoveDoc, key func(string) string, arrow, atLeast string) []string {
	way, whole := "behind a new leading segment", [2]float64{m.RowShareBefore, m.WriteShareBefore}
	if m.Direction == string(keyspace.MovedToFront) {
		way, whole = "to the front", [2]float64{m.RowShareAfter, m.WriteShareAfter}
	}
	bound := ""
	if !m.Exact {
		bound = atLeast
	}
	return []string{key(string(m.Prefix)), way, fmt.Sprint(m.Pieces),
		bound + units.Thousands(m.RowsBefore) + arrow + bound + units.Thousands(m.RowsAfter),
		sharesText(whole[0], whole[1]),
		key(string(m.LargestPiece.Prefix)) + ": " + sharesText(m.LargestPiece.RowShare, m.LargestPiece.WriteShare)}
}

// sharesText writes "38% of rows, 38% of writes".
func sharesText(rows, writes float64) string {
	return units.Percent(rows) + " of rows, " + units.Percent(writes) + " of writes"
}
