package diagnose

import (
	"fmt"
	"math"
	"strings"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
)

// The range rule of hot-key-range: a contiguous key range that takes a
// share of the writes far above its share of the rows is hot, whatever
// the fan-out above it (ten first digits of a padded number, two
// datasets, a thousand users). Its thresholds are the sibling rule's
// [hotMinShare] and [hotMinFairFactor]; rows stand for the range's share
// of the key space, because Bigtable splits tablets by size: a range
// that holds a tenth of the rows holds about a tenth of the tablets, and
// is hot when it takes far more than a tenth of the writes. A large
// prefix written in proportion to its size is not hot, and neither is a
// range made hot by one row (frequently-updated-row and wide-row say
// that).
const (
	// singleRowWriteShare: when one row takes at least this share of a
	// range's writes, the writes are that row's business.
	singleRowWriteShare = 0.5
	// minHotRangeRows is the fewest sampled rows a hot range must hold.
	minHotRangeRows = 2
	// hotRangeNarrowing is how many times more a range inside a hot range
	// must concentrate writes to be named instead: a hot prefix whose
	// first digits split it unevenly is one hot range, not its largest
	// piece.
	hotRangeNarrowing = 1.25
)

// hotRange is a contiguous key range of the sample whose writes are far
// above its share of the rows.
type hotRange struct {
	// start and end bound the range; prefix is what all its sampled keys
	// share; parent is the prefix the sibling ranges split.
	start, end, prefix, parent string
	// siblings is how many ranges split parent; adjacent is how many of
	// them, side by side and each hot, this range joins (1 for one).
	siblings, adjacent   int
	rowShare, writeShare float64
}

// join extends r over next, the range right after it: no sampled row
// lies between them.
func (r *hotRange) join(next hotRange) {
	r.end = next.end
	r.prefix = keyspace.CommonPrefix(r.prefix, next.prefix)
	r.adjacent += next.adjacent
	r.rowShare += next.rowShare
	r.writeShare += next.writeShare
}

// rowWrites estimates how many writes a sampled row took: its cell
// versions per column, so that a wide row written once counts once and a
// row rewritten twenty times counts twenty.
func rowWrites(row *keyspace.SampledRow) float64 {
	if row.Columns > 0 {
		return float64(row.Cells) / float64(row.Columns)
	}
	return float64(row.Cells)
}

// hotRanges walks the sample in key order, splitting each range at the
// first byte its keys differ in (the digit after acct#, the first letter
// of a dataset), and returns the narrowest ranges that hold at least
// [hotMinShare] of the table's writes and [hotMinFairFactor] times their
// share of its rows (and, inside such a range, [hotRangeNarrowing] times
// its concentration). Ranges found side by side under one split (the
// tenths acct#3 and acct#4) are one range: together they meet the rule as
// each does alone.
func (d *diagnosis) hotRanges() []hotRange {
	rows := d.profile.rows
	var totalRows, totalWrites float64
	writes := make([]float64, len(rows))
	for i := range rows {
		writes[i] = rowWrites(&rows[i]) * rows[i].Weight
		totalRows += rows[i].Weight
		totalWrites += writes[i]
	}
	if totalRows == 0 || totalWrites == 0 {
		return nil
	}
	var found []hotRange
	var walk func(lo, hi int, minFactor float64) bool
	// walk looks at rows[lo:hi] for ranges that concentrate writes at
	// least minFactor times and reports whether it found one.
	walk = func(lo, hi int, minFactor float64) bool {
		first, last := string(rows[lo].Key), string(rows[hi-1].Key)
		cut := len(keyspace.CommonPrefix(first, last))
		type group struct{ lo, hi int }
		var groups []group
		for i := lo; i < hi; {
			j := i + 1
			for j < hi && byteAt(string(rows[j].Key), cut) == byteAt(string(rows[i].Key), cut) {
				j++
			}
			groups = append(groups, group{i, j})
			i = j
		}
		if len(groups) < 2 {
			return false
		}
		inside := false
		// run is the hot range the groups right before this one form,
		// which a hot group joins and any other group ends.
		var run *hotRange
		flush := func() {
			if run != nil {
				found = append(found, *run)
				run = nil
			}
		}
		for _, g := range groups {
			var groupRows, groupWrites, maxWrites float64
			for i := g.lo; i < g.hi; i++ {
				groupRows += rows[i].Weight
				groupWrites += writes[i]
				maxWrites = max(maxWrites, writes[i])
			}
			writeShare := groupWrites / totalWrites
			if writeShare < hotMinShare {
				continue
			}
			rowShare := groupRows / totalRows
			hot := writeShare >= minFactor*rowShare && maxWrites < singleRowWriteShare*groupWrites && g.hi-g.lo >= minHotRangeRows
			narrower := minFactor
			if hot {
				narrower = hotRangeNarrowing * writeShare / rowShare
			}
			if g.hi-g.lo >= minHotRangeRows && walk(g.lo, g.hi, narrower) {
				flush()
				inside = true
				continue
			}
			key := string(rows[g.lo].Key)
			if !hot || len(key) <= cut { // not hot, or the parent's own row: not a range
				flush()
				continue
			}
			start := key[:cut+1]
			r := hotRange{
				start: start, end: keyspace.PrefixEnd(start),
				prefix:   keyspace.CommonPrefix(key, string(rows[g.hi-1].Key)),
				parent:   key[:cut],
				siblings: len(groups), adjacent: 1, rowShare: rowShare, writeShare: writeShare,
			}
			if run != nil {
				run.join(r)
			} else {
				run = &r
			}
			inside = true
		}
		flush()
		return inside
	}
	if len(rows) >= minHotRangeRows {
		walk(0, len(rows), hotMinFairFactor)
	}
	return found
}

// byteAt returns key[i] as an int, or -1 past the key's end (the parent's
// own row sorts first).
func byteAt(key string, i int) int {
	if i >= len(key) {
		return -1
	}
	return int(key[i])
}

// rangeFinding writes the finding of a hot range.
func (d *diagnosis) rangeFinding(r hotRange) Finding {
	factor := r.writeShare / r.rowShare
	buckets := suggestedSalt(r.writeShare)
	// The range's depth for salting advice: the whole segments before it.
	depth := 0
	for i := 0; i < len(r.parent); i++ {
		if strings.IndexByte(d.profile.splitter.Delimiters(), r.parent[i]) >= 0 {
			depth++
		}
	}
	node := &keyspace.Node{Kind: keyspace.KindRange, Prefix: keyspace.Key(r.prefix), Start: keyspace.Key(r.start),
		End: keyspace.Key(r.end), Depth: depth}
	evidence := Evidence{}
	evidence.set("write_share", r.writeShare)
	evidence.set("row_share", r.rowShare)
	evidence.set("write_to_row_factor", factor)
	evidence.set("ranges", float64(r.siblings))
	evidence.set("min_share", hotMinShare)
	evidence.set("min_write_to_row_factor", hotMinFairFactor)
	evidence.set("suggested_salt_buckets", float64(buckets))
	summary := fmt.Sprintf("range %s... takes %s of writes (cell versions per column) but holds %s of rows: "+
		"%.1f times its share of the key space, one of %d ranges that split %s",
		printable(r.prefix), units.Percent(r.writeShare), units.Percent(r.rowShare), math.Round(factor*10)/10,
		r.siblings, quoteKey(r.parent))
	if r.adjacent > 1 {
		evidence.set("adjacent_ranges", float64(r.adjacent))
		summary = fmt.Sprintf("keys %s to %s (excluded) take %s of writes (cell versions per column) but hold %s of rows: "+
			"%.1f times their share of the key space, %d adjacent ranges, each hot, of the %d that split %s",
			printable(r.start), printable(r.end), units.Percent(r.writeShare), units.Percent(r.rowShare), math.Round(factor*10)/10,
			r.adjacent, r.siblings, quoteKey(r.parent))
	}
	return Finding{
		Kind:     KindHotKeyRange,
		Severity: SeverityWarning,
		Start:    keyspace.Key(r.start),
		End:      keyspace.Key(r.end),
		Prefix:   keyspace.Key(r.prefix),
		Summary:  summary,
		Advice:   d.hotAdvice(node, buckets, r.writeShare),
		Evidence: evidence,
	}
}
