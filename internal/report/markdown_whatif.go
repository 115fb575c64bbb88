package report

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/units"
)

func (md *markdown) whatIf(w WhatIfDoc) {
	md.line(fmt.Sprintf("Estimated from %s sampled rows, %s of them re-keyed.", units.Thousands(int64(w.SampledRows)), units.Thousands(int64(w.ChangedRows))))
	md.line("")
	md.line("**Read cost:** " + mdText(w.ReadCost.Summary))
	md.line("")
	if len(w.HotRanges) > 0 {
		var rows [][]string
		for _, h := range w.HotRanges {
			rows = append(rows, []string{mdKey(string(h.Prefix)), units.Percent(h.BeforeRowShare), units.Percent(h.BeforeWriteShare),
				units.Percent(h.AfterRowShare), units.Percent(h.AfterWriteShare), mdKey(string(h.AfterLargestPiece)), units.Thousands(int64(h.Pieces))})
		}
		md.table([]string{"Hot range", "Rows before", "Recent writes before", "Rows after (largest piece)",
			"Recent writes after", "Largest piece", "Pieces"}, rows)
	}
	if len(w.Findings) > 0 {
		var rows [][]string
		for _, c := range w.Findings {
			rows = append(rows, []string{mdText(c.Kind), severityCell(c.Before, c.CountBefore), severityCell(c.After, c.CountAfter), c.Status})
		}
		md.table([]string{"Finding", "Before", "After", "Change"}, rows)
	} else {
		md.line("No findings before or after.")
		md.line("")
	}
	for _, level := range w.Levels {
		if len(level.Before) == 0 && len(level.After) == 0 {
			continue
		}
		md.line(levelTitle(level) + ":")
		md.line("")
		var rows [][]string
		for i := range max(len(level.Before), len(level.After)) {
			row := []string{fmt.Sprint(i + 1), "", "", "", ""}
			if i < len(level.Before) {
				row[1], row[2] = shareKey(level.Before[i], mdKey), shares(level.Before[i])
			}
			if i < len(level.After) {
				row[3], row[4] = shareKey(level.After[i], mdKey), shares(level.After[i])
			}
			rows = append(rows, row)
		}
		md.table([]string{"#", "Before", "Rows / recent writes", "After", "Rows / recent writes"}, rows)
	}
}

// severityCell writes a kind's worst severity and count, or a dash.
func severityCell(severity string, n int) string {
	if severity == "" {
		return "-"
	}
	return fmt.Sprintf("%s (%d)", severity, n)
}

func shares(s ShareDoc) string {
	return units.Percent(s.RowShare) + " / " + units.Percent(s.RecentWriteShare)
}

func millis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// levelTitle introduces one level of a what-if's prefix comparison.
func levelTitle(level LevelDoc) string {
	if level.Depth == 0 {
		return "The whole table before, the largest salt buckets after"
	}
	return fmt.Sprintf("Largest prefixes, depth %d before and depth %d after", level.Depth, level.AfterDepth)
}

// shareKey writes a compared prefix, "whole table" for the empty one.
func shareKey(s ShareDoc, key func(string) string) string {
	if s.Prefix == "" {
		return "whole table"
	}
	return key(string(s.Prefix))
}
