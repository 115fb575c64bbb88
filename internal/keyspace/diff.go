package keyspace

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/escape"
)

// DefaultDiffDepth is how many prefix levels [Diff] compares unless
// [DiffOptions.MaxDepth] says otherwise.
const DefaultDiffDepth = 4

// ErrDifferentTables is returned (wrapped) by [Diff] for snapshots of two
// different tables when [DiffOptions.AllowDifferentTables] is not set.
var ErrDifferentTables = errors.New("snapshots of different tables")

// DiffOptions tune [Diff]. The zero value compares one table's snapshots
// down to [DefaultDiffDepth] prefix levels.
type DiffOptions struct {
	// AllowDifferentTables compares snapshots of two tables (two key
	// designs of the same data, say) instead of refusing; the diff notes it.
	AllowDifferentTables bool
	// MaxDepth is the deepest prefix level compared (default
	// [DefaultDiffDepth]).
	MaxDepth int
}

// SnapshotDiff is what changed between two snapshots of a table: each
// side's scan and totals, notes on what makes the two hard to compare, and
// every key prefix of either side with its rows, bytes and shares before
// and after. Made by [Diff]; a plain value.
type SnapshotDiff struct {
	Before, After DiffSide
	// Notes say what limits the comparison (different tables, scan modes,
	// key ranges, delimiters, incomplete scans), one sentence each, with
	// keys escaped by [Printable].
	Notes []string
	// MaxDepth is the deepest prefix level compared.
	MaxDepth int
	// Prefixes holds every prefix node (not rows, not merged ranges) of
	// depth 1 to MaxDepth of either snapshot, measured on both, in key
	// order.
	Prefixes []PrefixChange
	// Moves are the prefixes that one side holds at the start of its keys
	// and the other behind a leading key segment (a salted redesign, say),
	// largest share of rows first.
	Moves []PrefixMove
}

// DiffSide is one snapshot of a [SnapshotDiff], as far as the diff needs
// it.
type DiffSide struct {
	Source                   Source
	Project, Instance, Table string
	Scan                     ScanInfo
	Delimiters               string
	// Ranges counts the tablet map's ranges.
	Ranges           int
	RangesAreTablets bool
	// Totals aggregate every row of the snapshot.
	Totals    Stats
	TopPrefix TopPrefix
}

// TopPrefix is the key prefix or row that holds the largest share of a
// snapshot's rows among siblings (a node whose parent has at least two
// children; merged ranges do not count): the snapshot's hottest narrow key
// range. It is the zero value when the tree has no such node.
type TopPrefix struct {
	Prefix     Key
	Kind       NodeKind
	Depth      int
	Siblings   int
	RowShare   float64
	WriteShare float64
}

// PrefixStatus says how a prefix fared between two snapshots.
type PrefixStatus string

// The statuses of a [PrefixChange].
const (
	// PrefixAdded has rows only in the second snapshot.
	PrefixAdded PrefixStatus = "added"
	// PrefixRemoved has rows only in the first snapshot.
	PrefixRemoved PrefixStatus = "removed"
	// PrefixChanged has rows in both, with different counts or sizes.
	PrefixChanged PrefixStatus = "changed"
	// PrefixUnchanged has the same rows, cells and bytes in both.
	PrefixUnchanged PrefixStatus = "unchanged"
)

// PrefixMeasure is one prefix's load in one snapshot: counts (estimates,
// as in [Stats]) and shares of that snapshot's totals.
type PrefixMeasure struct {
	Rows, Cells, Bytes              float64
	RowShare, WriteShare, ByteShare float64
	// Exact is false when the prefix's key range cuts through a merged
	// range of the tree: the counts are then a lower bound (see
	// [RangeStats]).
	Exact bool
}

// PrefixChange compares one key prefix, that is every key in [Start, End),
// between two snapshots. Depth is the prefix's level in the tree it came
// from. Write share is the share of cells written (kept), as the
// write-share heatmap metric counts them.
type PrefixChange struct {
	Prefix        Key
	Depth         int
	Start, End    Key
	Before, After PrefixMeasure
	Status        PrefixStatus
}

// RowShareChange returns the change in the prefix's share of rows, from
// −1 to 1.
func (c *PrefixChange) RowShareChange() float64 { return c.After.RowShare - c.Before.RowShare }

// WriteShareChange returns the change in the prefix's share of writes.
func (c *PrefixChange) WriteShareChange() float64 { return c.After.WriteShare - c.Before.WriteShare }

// ShareChange returns the larger, in size, of [PrefixChange.RowShareChange]
// and [PrefixChange.WriteShareChange]: how much the prefix's place in the
// table moved.
func (c *PrefixChange) ShareChange() float64 {
	rows, writes := c.RowShareChange(), c.WriteShareChange()
	if math.Abs(writes) > math.Abs(rows) {
		return writes
	}
	return rows
}

// Diff compares snapshot before with snapshot after. It refuses snapshots
// of different tables (wrapping [ErrDifferentTables]) unless
// opts.AllowDifferentTables is set; other differences (scan mode, scanned
// range, delimiters, source) are allowed and recorded in Notes. Every
// prefix of either tree down to the depth limit is measured on both
// sides by its key range with [RangeStats], so a prefix the other tree
// merged into a range is still compared. Diff is pure.
func Diff(before, after *Snapshot, opts DiffOptions) (*SnapshotDiff, error) {
	if before == nil || before.Root == nil || after == nil || after.Root == nil {
		return nil, errors.New("diffing snapshots: a snapshot is missing or has no prefix tree; load both with keyspace.Load or scan again")
	}
	if before.Table != after.Table && !opts.AllowDifferentTables {
		return nil, fmt.Errorf("%w: %s (before) and %s (after): a diff compares one table over time; "+
			"to compare two tables anyway (two key designs of the same data), allow different tables (btviz diff --force)",
			ErrDifferentTables, escape.Quote(before.Table), escape.Quote(after.Table))
	}
	depth := opts.MaxDepth
	if depth <= 0 {
		depth = DefaultDiffDepth
	}
	d := &SnapshotDiff{Before: diffSide(before), After: diffSide(after), MaxDepth: depth}
	d.Notes = diffNotes(before, after)
	for _, prefix := range unionPrefixes(before.Root, after.Root, depth) {
		d.Prefixes = append(d.Prefixes, comparePrefix(before, after, prefix))
	}
	d.Moves = findMoves(d, before, after)
	return d, nil
}

// Lookup returns the change of one prefix (raw bytes), if it was compared.
func (d *SnapshotDiff) Lookup(prefix string) (PrefixChange, bool) {
	i, ok := slices.BinarySearchFunc(d.Prefixes, prefix, func(c PrefixChange, p string) int { return cmp.Compare(string(c.Prefix), p) })
	if !ok {
		return PrefixChange{}, false
	}
	return d.Prefixes[i], true
}

// Largest returns at most n prefixes whose share of rows or writes moved
// most ([PrefixChange.ShareChange] by size), largest first; ties go to the
// shallower prefix, then key order. Unchanged prefixes are left out (their
// shares move only because the rest of the table changed), and so is a
// prefix that holds exactly what the compared prefix above it holds, on
// both sides (a single-child chain such as "0#" and "0#user#"): the
// shorter one stands for both.
func (d *SnapshotDiff) Largest(n int) []PrefixChange {
	var moved []PrefixChange
	var ancestors []*PrefixChange // compared prefixes enclosing the current one
	for i := range d.Prefixes {
		c := &d.Prefixes[i]
		for len(ancestors) > 0 && !strings.HasPrefix(string(c.Prefix), string(ancestors[len(ancestors)-1].Prefix)) {
			ancestors = ancestors[:len(ancestors)-1]
		}
		redundant := len(ancestors) > 0 && sameLoad(ancestors[len(ancestors)-1], c)
		ancestors = append(ancestors, c)
		if c.Status != PrefixUnchanged && !redundant {
			moved = append(moved, *c)
		}
	}
	slices.SortStableFunc(moved, func(a, b PrefixChange) int {
		return cmp.Or(
			cmp.Compare(math.Abs(b.ShareChange()), math.Abs(a.ShareChange())),
			cmp.Compare(a.Depth, b.Depth),
			cmp.Compare(a.Prefix, b.Prefix),
		)
	})
	return moved[:min(max(n, 0), len(moved))]
}

// sameLoad reports whether two prefixes hold the same rows, cells and
// bytes in both snapshots.
func sameLoad(a, b *PrefixChange) bool {
	return a.Before.Rows == b.Before.Rows && a.Before.Cells == b.Before.Cells && a.Before.Bytes == b.Before.Bytes &&
		a.After.Rows == b.After.Rows && a.After.Cells == b.After.Cells && a.After.Bytes == b.After.Bytes
}

// Count returns how many compared prefixes have each status.
func (d *SnapshotDiff) Count(status PrefixStatus) int {
	n := 0
	for _, c := range d.Prefixes {
		if c.Status == status {
			n++
		}
	}
	return n
}

func diffSide(s *Snapshot) DiffSide {
	return DiffSide{
		Source: s.Source, Project: s.Project, Instance: s.Instance, Table: s.Table,
		Scan: s.Scan, Delimiters: s.Delimiters, Ranges: len(s.Ranges), RangesAreTablets: s.RangesAreTablets,
		Totals: s.Totals().clone(), TopPrefix: topPrefix(s.Root),
	}
}

// unionPrefixes returns the prefixes of the prefix nodes of depth 1 to
// maxDepth in either tree, sorted and without duplicates.
func unionPrefixes(a, b *Node, maxDepth int) []string {
	seen := map[string]bool{}
	var prefixes []string
	collect := func(n *Node) bool {
		if n.Depth >= 1 && n.Kind == KindPrefix && !seen[string(n.Prefix)] {
			seen[string(n.Prefix)] = true
			prefixes = append(prefixes, string(n.Prefix))
		}
		return n.Depth < maxDepth
	}
	a.Walk(collect)
	b.Walk(collect)
	slices.Sort(prefixes)
	return prefixes
}

// comparePrefix measures one prefix's key range on both snapshots.
func comparePrefix(before, after *Snapshot, prefix string) PrefixChange {
	start, end := prefix, PrefixEnd(prefix)
	c := PrefixChange{Prefix: Key(prefix), Start: Key(start), End: Key(end)}
	c.Before = measure(before, start, end)
	c.After = measure(after, start, end)
	c.Depth = prefixDepth(before.Root, prefix)
	if c.Depth == 0 {
		c.Depth = prefixDepth(after.Root, prefix)
	}
	switch {
	case c.Before.Rows == 0:
		c.Status = PrefixAdded
	case c.After.Rows == 0:
		c.Status = PrefixRemoved
	case c.Before.Rows == c.After.Rows && c.Before.Cells == c.After.Cells && c.Before.Bytes == c.After.Bytes:
		c.Status = PrefixUnchanged
	default:
		c.Status = PrefixChanged
	}
	return c
}

// prefixDepth returns the depth of the prefix node for prefix, or 0.
func prefixDepth(root *Node, prefix string) int {
	if path := root.Lookup(prefix); path != nil {
		return path[len(path)-1].Depth
	}
	return 0
}

func measure(s *Snapshot, start, end string) PrefixMeasure {
	stats, exact := RangeStats(s.Root, start, end)
	totals := s.Totals()
	return PrefixMeasure{
		Rows: stats.Rows, Cells: stats.Cells, Bytes: stats.Bytes,
		RowShare: ratio(stats.Rows, totals.Rows), WriteShare: ratio(stats.Cells, totals.Cells), ByteShare: ratio(stats.Bytes, totals.Bytes),
		Exact: exact,
	}
}

func ratio(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// topPrefix finds the node with the largest row share among siblings.
func topPrefix(root *Node) TopPrefix {
	var top TopPrefix
	found := false
	if root == nil || root.Rows == 0 {
		return top
	}
	root.Walk(func(parent *Node) bool {
		if len(parent.Children) < 2 {
			return true
		}
		for _, child := range parent.Children {
			if child.Kind == KindRange {
				continue
			}
			share := ratio(child.Rows, root.Rows)
			if !found || share > top.RowShare || share == top.RowShare && child.Depth < top.Depth {
				found = true
				top = TopPrefix{
					Prefix: child.Prefix, Kind: child.Kind, Depth: child.Depth, Siblings: len(parent.Children),
					RowShare: share, WriteShare: ratio(child.Cells, root.Cells),
				}
			}
		}
		return true
	})
	return top
}
