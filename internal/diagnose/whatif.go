package diagnose

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// whatIfDepths is how many prefix-tree levels a what-if compares.
const whatIfDepths = 3

// whatIfTopPrefixes is how many prefixes per level a what-if lists.
const whatIfTopPrefixes = 5

// WhatIf is the outcome of re-keying a snapshot with a [Transform]: the
// key distribution and findings before and after, and what the new keys
// cost readers. After is estimated from the row sample.
type WhatIf struct {
	Transform Transform
	// SampledRows is how many sampled rows were re-keyed, Changed how many
	// of their keys the transform changed (a key without the named segment
	// stays as it is).
	SampledRows, Changed int
	// After is the snapshot rebuilt from the re-keyed sample.
	After *keyspace.Snapshot
	// BeforeFindings and AfterFindings are [Diagnose] of the snapshot and
	// of After.
	BeforeFindings, AfterFindings []Finding
	// Levels compares the largest prefixes level by level.
	Levels []LevelShares
	// HotRanges follows each hot-key-range of the snapshot to the new keys.
	HotRanges []HotRangeChange
	// Changes compares findings kind by kind.
	Changes []FindingChange
	// ReadCost says what the new keys cost readers.
	ReadCost ReadCost
}

// LevelShares lists the largest prefixes at one level of the tree before
// and after a what-if. A salt adds a level in front of the key, so
// AfterDepth is Depth + 1 for salt and Depth otherwise; for salt, a first
// level compares the whole table (depth 0) with the salt buckets.
type LevelShares struct {
	Depth, AfterDepth int
	Before, After     []PrefixShare
}

// PrefixShare is one prefix's share of a table's rows and of its recent
// writes (the last tenth of the time span).
type PrefixShare struct {
	Prefix      keyspace.Key
	RowShare    float64
	RecentShare float64
}

// HotRangeChange follows one hot range through a what-if: its share of
// rows and recent writes before, and the largest share any one piece of it
// holds after (AfterPrefix, one of Pieces pieces).
type HotRangeChange struct {
	Prefix                        keyspace.Key
	BeforeRowShare, AfterRowShare float64
	BeforeRecentShare             float64
	AfterRecentShare              float64
	AfterPrefix                   keyspace.Key
	Pieces                        int
}

// ChangeStatus says how a kind of finding fares in a what-if.
type ChangeStatus string

// The statuses of a [FindingChange].
const (
	ChangeResolved   ChangeStatus = "resolved"
	ChangeIntroduced ChangeStatus = "introduced"
	ChangeWeaker     ChangeStatus = "weaker"
	ChangeStronger   ChangeStatus = "stronger"
	ChangeUnchanged  ChangeStatus = "unchanged"
	// ChangeNotEvaluated is for kinds a rebuilt snapshot cannot show
	// (tablet-skew: re-keyed rows have no tablets yet).
	ChangeNotEvaluated ChangeStatus = "not-evaluated"
)

// FindingChange compares one kind's worst severity before and after.
type FindingChange struct {
	Kind   Kind
	Status ChangeStatus
	// Before and After are the worst severities; InBefore and InAfter say
	// whether the kind was found at all.
	Before, After     Severity
	InBefore, InAfter bool
	// CountBefore and CountAfter count the kind's findings.
	CountBefore, CountAfter int
}

// ReadCost is what a key change costs readers. PrefixScanFanOut is how
// many scans a formerly single prefix scan needs (N for salt); 0 means
// such a scan is no longer a contiguous range at all (point reads or a
// full scan). Summary explains it in a sentence or two.
type ReadCost struct {
	PrefixScanFanOut int
	Summary          string
}

// ErrNoSample is returned (wrapped) by [RunWhatIf] for a snapshot without
// a row sample.
var ErrNoSample = errors.New("snapshot has no row sample")

// RunWhatIf re-keys snap's row sample with t, rebuilds a snapshot from it
// with the same delimiters (plus the salt's or promotion's delimiter when
// the keys had none) and diagnoses both, so that the two can be compared.
func RunWhatIf(snap *keyspace.Snapshot, t Transform) (*WhatIf, error) {
	if snap == nil || len(snap.Sample) == 0 {
		return nil, fmt.Errorf("what-if %s: %w; scan the table again with this btviz to take one", t, ErrNoSample)
	}
	rk := newRekeyer(t, snap.Delimiters)
	result := &WhatIf{Transform: t, SampledRows: len(snap.Sample)}
	rows := make([]rekeyedRow, len(snap.Sample))
	for i, row := range snap.Sample {
		key, changed := rk.apply(string(row.Key))
		if changed {
			result.Changed++
		}
		rows[i] = rekeyedRow{row: row, newKey: key}
	}
	result.After = rebuild(snap, slices.Clone(rows), rk)
	result.BeforeFindings = Diagnose(snap)
	result.AfterFindings = Diagnose(result.After)
	shift := 0
	if t.Kind == TransformSalt {
		// The salt is a new first level: show how the whole table splits.
		shift = 1
		result.Levels = append(result.Levels, LevelShares{
			Depth: 0, AfterDepth: 1,
			Before: []PrefixShare{{RowShare: 1, RecentShare: 1}}, After: topPrefixes(result.After, 1),
		})
	}
	for depth := 1; depth <= whatIfDepths; depth++ {
		result.Levels = append(result.Levels, LevelShares{
			Depth: depth, AfterDepth: depth + shift,
			Before: topPrefixes(snap, depth), After: topPrefixes(result.After, depth+shift),
		})
	}
	result.HotRanges = followHotRanges(snap, result.BeforeFindings, rows, rk, shift)
	result.Changes = compareFindings(result.BeforeFindings, result.AfterFindings)
	result.ReadCost = readCost(t, snap)
	return result, nil
}

// topPrefixes returns the largest prefix nodes at depth by rows (merged
// ranges and single rows left out).
func topPrefixes(snap *keyspace.Snapshot, depth int) []PrefixShare {
	root := snap.Root
	if root == nil || root.Rows == 0 {
		return nil
	}
	from := recentFrom(&root.Writes)
	rootRecent := recentWrites(&root.Writes, from)
	var nodes []*keyspace.Node
	root.Walk(func(n *keyspace.Node) bool {
		if n.Depth == depth && n.Kind == keyspace.KindPrefix {
			nodes = append(nodes, n)
		}
		return n.Depth < depth
	})
	slices.SortStableFunc(nodes, func(a, b *keyspace.Node) int { return cmp.Compare(b.Rows, a.Rows) })
	var shares []PrefixShare
	for _, n := range nodes[:min(len(nodes), whatIfTopPrefixes)] {
		shares = append(shares, PrefixShare{
			Prefix: n.Prefix, RowShare: share(n.Rows, root.Rows),
			RecentShare: share(recentWrites(&n.Writes, from), rootRecent),
		})
	}
	return shares
}

// followHotRanges measures, on the sample, each hot range's share before
// and the largest share one of its pieces keeps after re-keying. A piece
// is the rows sharing the new key's first d+shift segments, d being the
// hot prefix's segment count.
func followHotRanges(snap *keyspace.Snapshot, findings []Finding, rows []rekeyedRow, rk rekeyer, shift int) []HotRangeChange {
	recentStart := int64(0)
	if snap.Root != nil {
		recentStart = recentFrom(&snap.Root.Writes) * snap.TimeBucketMicros
	}
	var totalRows, totalRecent float64
	for _, r := range rows {
		totalRows += r.row.Weight
		totalRecent += recentCells(r.row, recentStart)
	}
	var changes []HotRangeChange
	for _, f := range findings {
		if f.Kind != KindHotKeyRange {
			continue
		}
		prefix := string(f.Prefix)
		depth := len(rk.splitter.Segments(prefix))
		change := HotRangeChange{Prefix: f.Prefix}
		pieceRows, pieceRecent := map[string]float64{}, map[string]float64{}
		for _, r := range rows {
			if !strings.HasPrefix(string(r.row.Key), prefix) {
				continue
			}
			recent := recentCells(r.row, recentStart)
			change.BeforeRowShare += r.row.Weight
			change.BeforeRecentShare += recent
			piece := rk.prefixOf(r.newKey, depth+shift)
			pieceRows[piece] += r.row.Weight
			pieceRecent[piece] += recent
		}
		change.BeforeRowShare = share(change.BeforeRowShare, totalRows)
		change.BeforeRecentShare = share(change.BeforeRecentShare, totalRecent)
		change.Pieces = len(pieceRows)
		pieces := make([]string, 0, len(pieceRows))
		for piece := range pieceRows {
			pieces = append(pieces, piece)
		}
		slices.Sort(pieces)
		for _, piece := range pieces {
			if rowShare := share(pieceRows[piece], totalRows); rowShare > change.AfterRowShare {
				change.AfterRowShare, change.AfterPrefix = rowShare, keyspace.Key(piece)
			}
			change.AfterRecentShare = max(change.AfterRecentShare, share(pieceRecent[piece], totalRecent))
		}
		changes = append(changes, change)
	}
	return changes
}

// recentCells estimates how many of a sampled row's cells (times its
// weight) were written from recentStart on, its cells taken as spread
// evenly between its first and last write.
func recentCells(row keyspace.SampledRow, recentStart int64) float64 {
	cells := float64(row.Cells) * row.Weight
	switch {
	case row.Cells == 0 || row.LastWrite < recentStart:
		return 0
	case row.FirstWrite >= recentStart:
		return cells
	}
	return cells * float64(row.LastWrite-recentStart) / float64(row.LastWrite-row.FirstWrite)
}

// compareFindings compares the worst severity of each kind (scan notes
// aside) before and after.
func compareFindings(before, after []Finding) []FindingChange {
	var changes []FindingChange
	for _, kind := range Kinds() {
		if kind == KindScanNote {
			continue
		}
		change := FindingChange{Kind: kind}
		for _, f := range before {
			if f.Kind == kind {
				change.CountBefore++
				change.Before = max(change.Before, f.Severity)
				change.InBefore = true
			}
		}
		for _, f := range after {
			if f.Kind == kind {
				change.CountAfter++
				change.After = max(change.After, f.Severity)
				change.InAfter = true
			}
		}
		switch {
		case !change.InBefore && !change.InAfter:
			continue
		case kind == KindTabletSkew:
			change.Status = ChangeNotEvaluated
		case !change.InAfter:
			change.Status = ChangeResolved
		case !change.InBefore:
			change.Status = ChangeIntroduced
		case change.After < change.Before:
			change.Status = ChangeWeaker
		case change.After > change.Before:
			change.Status = ChangeStronger
		default:
			change.Status = ChangeUnchanged
		}
		changes = append(changes, change)
	}
	return changes
}
