package diagnose

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Thresholds of hot-key-range. The guide names the celebrity pattern but
// gives no number; these make "disproportionate" concrete. A hotspot is
// traffic, not size: Bigtable splits and moves tablets by size and by
// load, so a large prefix with steady writes is spread over nodes, and
// only a narrow range taking a large part of the writes is hot. Rows and
// bytes never make a range hot; they are what its writes are compared
// with.
const (
	// hotMinShare is the share of its dataset's recent writes (or of the
	// recorded operations) a range must take: a quarter of the load on
	// what Bigtable serves as one narrow range cannot be spread over
	// nodes, whatever the cluster size.
	hotMinShare = 0.25
	// hotMinSiblings is how many siblings the range must have: it is one
	// entity among many (a user, a device), not one of a few datasets or
	// tenants.
	hotMinSiblings = 16
	// hotMinFairFactor is how many times its fair share among siblings
	// (the parent's writes divided by the number of siblings), or its
	// share of the rows (the range rule), the range must take.
	hotMinFairFactor = 4.0
	// saltTargetShare is what each salted piece of a hot range should be
	// left with; the suggested N is the smallest power of two that gets
	// there.
	saltTargetShare = 0.1
	// maxSuggestedSalt caps the suggested N: beyond it, every reader's
	// fan-out costs more than the hotspot.
	maxSuggestedSalt = 64
	// hotMinWrites is the fewest writes (cell versions: recent ones for
	// the sibling rule, all for the range rule) a hot range must take, as
	// a recording's hotspot must take [trafficMinRows]: fewer are a burst
	// (an order's lines written at once), not a load one node cannot
	// carry.
	hotMinWrites = 100
)

// hotCandidate is a node that takes a disproportionate share of its
// dataset's recent writes.
type hotCandidate struct {
	node *keyspace.Node
	// parent is the prefix its siblings share.
	parent   keyspace.Key
	siblings int
	// recent is its recent writes; rowShare and writeShare its shares of
	// the dataset's rows and recent writes.
	recent     float64
	rowShare   float64
	writeShare float64
	factor     float64
}

// checkHotRanges raises hot-key-range for the narrowest prefixes or rows
// that take at least [hotMinShare] of their dataset's recent writes and
// at least [hotMinFairFactor] times a fair share among at least
// [hotMinSiblings] siblings of the same dataset (the sibling rule), and
// for the narrowest key ranges, at any fan-out, that take at least
// [hotMinShare] of the dataset's writes and [hotMinFairFactor] times
// their share of its rows (the range rule, [diagnosis.hotRanges]).
func checkHotRanges(d *diagnosis) []Finding {
	root := d.root
	if root.Rows == 0 && len(d.profile.rows) == 0 {
		return nil
	}
	rootRecent := d.recentOf(root)
	var candidates []hotCandidate
	var walk func(parent *keyspace.Node)
	walk = func(parent *keyspace.Node) {
		for _, child := range parent.Children {
			if c, ok := d.hotCandidate(parent, child, rootRecent); ok {
				candidates = append(candidates, c)
			}
			walk(child)
		}
	}
	if rootRecent > 0 {
		walk(root)
	}
	// The tree splits keys at the table's delimiters, those of the rows
	// a scan read first, and bounds each node's fan-out by merging small
	// siblings, whatever dataset they are of: when the delimiters are
	// not this dataset's, or the dataset has no node of its own (its
	// top-level entities sit among other datasets' keys), the sample
	// finds its entities.
	if d.profile.splitter.Delimiters() != d.snap.Delimiters || d.gathered {
		for _, c := range d.sampleCandidates() {
			if !slices.ContainsFunc(candidates, func(other hotCandidate) bool { return other.node.Prefix == c.node.Prefix }) {
				candidates = append(candidates, c)
			}
		}
	}
	var findings []Finding
	for i, c := range candidates {
		narrower := false
		for j, other := range candidates {
			if i != j && other.node.Depth > c.node.Depth && c.node.Contains(string(other.node.Start)) {
				narrower = true
				break
			}
		}
		if !narrower {
			findings = append(findings, d.hotFinding(c))
		}
	}
	// Ranges hot by the range rule, unless a prefix the sibling rule
	// found overlaps them: that finding says more.
	for _, r := range d.hotRanges() {
		overlaps := slices.ContainsFunc(candidates, func(c hotCandidate) bool {
			return c.node.Contains(r.start) || keyspace.InRange(string(c.node.Start), r.start, r.end)
		})
		if !overlaps {
			findings = append(findings, d.rangeFinding(r))
		}
	}
	return findings
}

// recentOf returns the recent writes of n, or, for a node that gathers a
// dataset's top-level nodes, of those nodes.
func (d *diagnosis) recentOf(n *keyspace.Node) float64 {
	if len(n.Writes.Counts) > 0 || len(n.Children) == 0 {
		return recentWrites(&n.Writes, d.recentFrom)
	}
	var total float64
	for _, child := range n.Children {
		total += recentWrites(&child.Writes, d.recentFrom)
	}
	return total
}

// hotCandidate measures child against its dataset and its siblings.
func (d *diagnosis) hotCandidate(parent, child *keyspace.Node, rootRecent float64) (hotCandidate, bool) {
	siblings := len(parent.Children)
	if child.Kind == keyspace.KindRange || siblings < hotMinSiblings {
		return hotCandidate{}, false
	}
	childRecent := recentWrites(&child.Writes, d.recentFrom)
	c := hotCandidate{node: child, parent: parent.Prefix, siblings: siblings, recent: childRecent,
		rowShare: share(child.Rows, d.root.Rows), writeShare: share(childRecent, rootRecent)}
	c.factor = share(childRecent, d.recentOf(parent)) * float64(siblings)
	if c.writeShare < hotMinShare || c.factor < hotMinFairFactor || childRecent < hotMinWrites {
		return hotCandidate{}, false
	}
	// Writes piling onto one frequently rewritten row are
	// frequently-updated-row's business.
	if child.MaxVersions >= frequentlyUpdatedMinVersions {
		return hotCandidate{}, false
	}
	return c, true
}

// sampleCandidates applies the sibling rule to the row sample, grouped
// at the dataset's own delimiters: at each depth, the prefixes of that
// many segments among siblings under one parent prefix, each prefix's
// recent writes estimated from its sampled rows ([recentVersions]).
func (d *diagnosis) sampleCandidates() []hotCandidate {
	rows := d.profile.rows
	cutoff := d.recentFrom * d.snap.TimeBucketMicros
	if d.snap.TimeBucketMicros <= 0 || len(rows) == 0 {
		return nil
	}
	recent := make([]float64, len(rows))
	var total, totalRows float64
	for i := range rows {
		recent[i] = rows[i].Weight * recentVersions(&rows[i], cutoff)
		total += recent[i]
		totalRows += rows[i].Weight
	}
	if total == 0 {
		return nil
	}
	segments := make([][]int, len(rows)) // the end of each segment, delimiter included
	for i := range rows {
		key := string(rows[i].Key)
		for from := 0; from < len(key); {
			from += d.profile.splitter.Next(key, from)
			segments[i] = append(segments[i], from)
		}
	}
	type group struct {
		prefix      string
		recent      float64
		rows        float64
		maxVersions int64
	}
	var candidates []hotCandidate
	for depth := 1; depth < maxSegmentPositions; depth++ {
		children := map[string][]*group{} // by parent prefix, in key order
		var current *group
		for i := range rows {
			if len(segments[i]) <= depth {
				continue // the key ends here: a row, not a prefix with siblings
			}
			key := string(rows[i].Key)
			prefix := key[:segments[i][depth-1]]
			if current == nil || current.prefix != prefix {
				parent := ""
				if depth > 1 {
					parent = key[:segments[i][depth-2]]
				}
				current = &group{prefix: prefix}
				children[parent] = append(children[parent], current)
			}
			current.recent += recent[i]
			current.rows += rows[i].Weight
			current.maxVersions = max(current.maxVersions, rows[i].MaxVersions)
		}
		for parent, groups := range children {
			if len(groups) < hotMinSiblings {
				continue
			}
			var parentRecent float64
			for _, g := range groups {
				parentRecent += g.recent
			}
			for _, g := range groups {
				c := hotCandidate{parent: keyspace.Key(parent), siblings: len(groups), recent: g.recent,
					rowShare: share(g.rows, totalRows), writeShare: share(g.recent, total),
					factor: share(g.recent, parentRecent) * float64(len(groups))}
				if c.writeShare < hotMinShare || c.factor < hotMinFairFactor || c.recent < hotMinWrites ||
					g.maxVersions >= frequentlyUpdatedMinVersions {
					continue
				}
				start, end := prefixRange(g.prefix)
				c.node = &keyspace.Node{Kind: keyspace.KindPrefix, Prefix: keyspace.Key(g.prefix), Start: start, End: end, Depth: depth}
				c.node.Rows = g.rows
				candidates = append(candidates, c)
			}
		}
	}
	return candidates
}

// recentVersions estimates how many of a sampled row's writes
// ([rowWrites]) fall at or after cutoff (microseconds): all when its first
// write does, none when its last write is before, else a share by time,
// as if its versions were spread evenly between its first and last.
func recentVersions(row *keyspace.SampledRow, cutoff int64) float64 {
	switch {
	case row.LastWrite < cutoff:
		return 0
	case row.FirstWrite >= cutoff || row.LastWrite <= row.FirstWrite:
		return rowWrites(row)
	}
	return rowWrites(row) * float64(row.LastWrite-cutoff) / float64(row.LastWrite-row.FirstWrite)
}

func (d *diagnosis) hotFinding(c hotCandidate) Finding {
	what := "prefix"
	if c.node.Kind == keyspace.KindRow {
		what = "row"
	}
	of := "the table's"
	if d.scope != nil {
		of = "its dataset's"
	}
	summary := fmt.Sprintf("%s %s takes %s of %s writes in the last %s of the time span (%s cell versions) while holding %s of %s rows: "+
		"%.0f times a fair share among %d siblings under %s",
		what, printable(string(c.node.Prefix)), units.Percent(c.writeShare), of, units.Percent(recentWindowShare),
		units.Count(c.recent), units.Percent(c.rowShare), of, c.factor, c.siblings, quoteKey(string(c.parent)))
	evidence := Evidence{}
	evidence.set("recent_write_share", c.writeShare)
	evidence.set("recent_window", recentWindowShare)
	evidence.set("recent_writes", c.recent)
	evidence.set("row_share", c.rowShare)
	evidence.set("rows", math.Round(c.node.Rows))
	evidence.set("siblings", float64(c.siblings))
	evidence.set("fair_share_factor", c.factor)
	evidence.set("min_share", hotMinShare)
	evidence.set("min_fair_share_factor", hotMinFairFactor)
	f := nodeFinding(Finding{
		Kind:     KindHotKeyRange,
		Severity: SeverityWarning,
		Summary:  summary,
		Evidence: evidence,
	}, c.node)
	d.planSalt(&f, c.node, c.writeShare, saltLead)
	return f
}

// suggestedSalt returns the smallest power of two N that leaves each of N
// pieces of a range holding worst at most [saltTargetShare], between 2
// and [maxSuggestedSalt].
func suggestedSalt(worst float64) int {
	n := 2
	for n < maxSuggestedSalt && worst/float64(n) > saltTargetShare {
		n *= 2
	}
	return n
}

// joinList joins items as "a", "a and b", "a, b and c".
func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
