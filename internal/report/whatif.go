package report

import (
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// WhatIfDoc is one what-if result in the report.
type WhatIfDoc struct {
	Transform     string        `json:"transform"`
	SampledRows   int           `json:"sampled_rows"`
	ChangedRows   int           `json:"changed_rows"`
	ReadCost      ReadCostDoc   `json:"read_cost"`
	HotRanges     []HotRangeDoc `json:"hot_ranges"`
	Findings      []ChangeDoc   `json:"findings"`
	Levels        []LevelDoc    `json:"levels"`
	AfterFindings []FindingDoc  `json:"after_findings"`
}

// ReadCostDoc is what the new keys cost readers; prefix_scan_fan_out 0
// means a former prefix scan is no longer one range.
type ReadCostDoc struct {
	PrefixScanFanOut int    `json:"prefix_scan_fan_out"`
	Summary          string `json:"summary"`
}

// HotRangeDoc follows one hot range: its shares before, and those of its
// largest piece after.
type HotRangeDoc struct {
	Prefix            keyspace.Key `json:"prefix"`
	BeforeRowShare    float64      `json:"before_row_share"`
	BeforeWriteShare  float64      `json:"before_recent_write_share"`
	AfterRowShare     float64      `json:"after_row_share"`
	AfterWriteShare   float64      `json:"after_recent_write_share"`
	AfterLargestPiece keyspace.Key `json:"after_largest_piece"`
	Pieces            int          `json:"pieces"`
}

// ChangeDoc compares one finding kind; before and after are the worst
// severities, or "" when the kind is absent.
type ChangeDoc struct {
	Kind        string `json:"kind"`
	Status      string `json:"status"`
	Before      string `json:"before"`
	After       string `json:"after"`
	CountBefore int    `json:"count_before"`
	CountAfter  int    `json:"count_after"`
}

// LevelDoc lists the largest prefixes of one level before and after.
type LevelDoc struct {
	Depth      int        `json:"depth"`
	AfterDepth int        `json:"after_depth"`
	Before     []ShareDoc `json:"before"`
	After      []ShareDoc `json:"after"`
}

// ShareDoc is one prefix's share of rows and of recent writes.
type ShareDoc struct {
	Prefix           keyspace.Key `json:"prefix"`
	RowShare         float64      `json:"row_share"`
	RecentWriteShare float64      `json:"recent_write_share"`
}

func whatIfDoc(w *diagnose.WhatIf) WhatIfDoc {
	doc := WhatIfDoc{
		Transform: w.Transform.String(), SampledRows: w.SampledRows, ChangedRows: w.Changed,
		ReadCost:      ReadCostDoc{PrefixScanFanOut: w.ReadCost.PrefixScanFanOut, Summary: escape.Text(w.ReadCost.Summary)},
		HotRanges:     []HotRangeDoc{},
		Findings:      []ChangeDoc{},
		Levels:        []LevelDoc{},
		AfterFindings: findingDocs(w.AfterFindings),
	}
	for _, h := range w.HotRanges {
		doc.HotRanges = append(doc.HotRanges, HotRangeDoc{
			Prefix: h.Prefix, BeforeRowShare: shareOf(h.BeforeRowShare, 1), BeforeWriteShare: shareOf(h.BeforeRecentShare, 1),
			AfterRowShare: shareOf(h.AfterRowShare, 1), AfterWriteShare: shareOf(h.AfterRecentShare, 1),
			AfterLargestPiece: h.AfterPrefix, Pieces: h.Pieces,
		})
	}
	for _, c := range w.Changes {
		change := ChangeDoc{Kind: string(c.Kind), Status: string(c.Status), CountBefore: c.CountBefore, CountAfter: c.CountAfter}
		if c.InBefore {
			change.Before = c.Before.String()
		}
		if c.InAfter {
			change.After = c.After.String()
		}
		doc.Findings = append(doc.Findings, change)
	}
	for _, level := range w.Levels {
		doc.Levels = append(doc.Levels, LevelDoc{
			Depth: level.Depth, AfterDepth: level.AfterDepth,
			Before: shareDocs(level.Before), After: shareDocs(level.After),
		})
	}
	return doc
}

func shareDocs(shares []diagnose.PrefixShare) []ShareDoc {
	docs := []ShareDoc{}
	for _, s := range shares {
		docs = append(docs, ShareDoc{
			Prefix: s.Prefix, RowShare: shareOf(s.RowShare, 1), RecentWriteShare: shareOf(s.RecentShare, 1),
		})
	}
	return docs
}
