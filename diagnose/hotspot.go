package diagnose

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
)

// Thresholds of hot-key-range. The guide names the celebrity pattern but
// gives no number; these make "disproportionate" concrete.
const (
	// hotMinShare is the share of the whole table's rows, bytes or recent
	// writes a range must hold: a quarter of the load on what Bigtable
	// serves as one narrow range cannot be spread over nodes, whatever
	// the cluster size.
	hotMinShare = 0.25
	// hotMinSiblings is how many siblings the range must have: it is one
	// entity among many (a user, a device), not one of a few datasets or
	// tenants, whose size alone says nothing (Bigtable splits a big
	// prefix into many tablets).
	hotMinSiblings = 16
	// hotMinFairFactor is how many times its fair share among siblings
	// (the parent's total divided by the number of siblings) the range
	// must hold.
	hotMinFairFactor = 4.0
	// singleRowByteShare: when one row holds at least this share of a
	// range's bytes, the bytes are large-row's business, not a hotspot's.
	singleRowByteShare = 0.5
	// saltTargetShare is what each salted piece of a hot range should be
	// left with; the suggested N is the smallest power of two that gets
	// there.
	saltTargetShare = 0.1
	// bytesWorthSaying: a summary names the byte share too when it is
	// this many times the row share (big rows concentrated in the range).
	bytesWorthSaying = 1.25
	// maxSuggestedSalt caps the suggested N: beyond it, every reader's
	// fan-out costs more than the hotspot.
	maxSuggestedSalt = 64
)

// hotCandidate is a node that holds a disproportionate share of load.
type hotCandidate struct {
	node, parent *keyspace.Node
	siblings     int
	rowShare     float64
	byteShare    float64
	writeShare   float64
	hasWrites    bool
	factor       float64
	// worst is the largest table share among the measures that qualify.
	worst float64
}

// checkHotRanges raises hot-key-range for the narrowest prefixes or rows
// that hold at least [hotMinShare] of the table's rows, bytes or recent
// writes and at least [hotMinFairFactor] times a fair share among at least
// [hotMinSiblings] siblings (the sibling rule), and for the narrowest key
// ranges, at any fan-out, that take at least [hotMinShare] of the writes
// and [hotMinFairFactor] times their share of the rows (the range rule,
// [diagnosis.hotRanges]).
func checkHotRanges(d *diagnosis) []Finding {
	root := d.root
	if root.Rows == 0 {
		return nil
	}
	rootRecent := recentWrites(&root.Writes, d.recentFrom)
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
	walk(root)
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

// hotCandidate measures child against the table and its siblings.
func (d *diagnosis) hotCandidate(parent, child *keyspace.Node, rootRecent float64) (hotCandidate, bool) {
	siblings := len(parent.Children)
	if child.Kind == keyspace.KindRange || siblings < hotMinSiblings {
		return hotCandidate{}, false
	}
	c := hotCandidate{node: child, parent: parent, siblings: siblings}
	c.rowShare = share(child.Rows, d.root.Rows)
	if float64(child.MaxRowBytes) < singleRowByteShare*child.Bytes {
		c.byteShare = share(child.Bytes, d.root.Bytes)
	}
	childRecent := recentWrites(&child.Writes, d.recentFrom)
	c.hasWrites = rootRecent > 0
	c.writeShare = share(childRecent, rootRecent)
	qualifies := func(tableShare, parentShare float64) bool {
		factor := parentShare * float64(siblings)
		if tableShare >= hotMinShare && factor >= hotMinFairFactor {
			c.factor = max(c.factor, factor)
			c.worst = max(c.worst, tableShare)
			return true
		}
		return false
	}
	byRows := qualifies(c.rowShare, share(child.Rows, parent.Rows))
	byBytes := c.byteShare > 0 && qualifies(c.byteShare, share(child.Bytes, parent.Bytes))
	byWrites := qualifies(c.writeShare, share(childRecent, recentWrites(&parent.Writes, d.recentFrom)))
	if !byRows && !byBytes && !byWrites {
		return hotCandidate{}, false
	}
	// Writes piling onto one frequently rewritten row are
	// frequently-updated-row's business.
	if !byRows && !byBytes && child.MaxVersions >= frequentlyUpdatedMinVersions {
		return hotCandidate{}, false
	}
	return c, true
}

func (d *diagnosis) hotFinding(c hotCandidate) Finding {
	var held []string
	held = append(held, units.Percent(c.rowShare)+" of rows")
	if c.byteShare >= hotMinShare && c.byteShare > bytesWorthSaying*c.rowShare {
		held = append(held, units.Percent(c.byteShare)+" of bytes")
	}
	if c.hasWrites {
		held = append(held, units.Percent(c.writeShare)+" of writes in the last "+units.Percent(recentWindowShare)+" of the time span")
	}
	what := "prefix"
	if c.node.Kind == keyspace.KindRow {
		what = "row"
	}
	buckets := suggestedSalt(c.worst)
	summary := fmt.Sprintf("%s %s holds %s: %.0f times a fair share among %d siblings under %s",
		what, printable(string(c.node.Prefix)), joinList(held), c.factor, c.siblings, quoteKey(string(c.parent.Prefix)))
	evidence := Evidence{}
	evidence.set("row_share", c.rowShare)
	evidence.set("byte_share", c.byteShare)
	if c.hasWrites {
		evidence.set("recent_write_share", c.writeShare)
		evidence.set("recent_window", recentWindowShare)
	}
	evidence.set("rows", math.Round(c.node.Rows))
	evidence.set("siblings", float64(c.siblings))
	evidence.set("fair_share_factor", c.factor)
	evidence.set("min_share", hotMinShare)
	evidence.set("min_fair_share_factor", hotMinFairFactor)
	evidence.set("suggested_salt_buckets", float64(buckets))
	return nodeFinding(Finding{
		Kind:     KindHotKeyRange,
		Severity: SeverityWarning,
		Summary:  summary,
		Advice:   d.hotAdvice(c.node, buckets, c.worst),
		Evidence: evidence,
	}, c.node)
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
