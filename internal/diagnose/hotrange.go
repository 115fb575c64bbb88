package diagnose

import (
	"fmt"
	"math"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// The range rule of hot-key-range: a contiguous key range that takes a
// share of its dataset's writes far above its share of the dataset's rows
// is hot, whatever the fan-out above it (ten first digits of a padded
// number, a thousand users). Its thresholds are the sibling rule's
// [hotMinShare] and [hotMinFairFactor]; rows stand for the range's share
// of the key space, because Bigtable splits tablets by size: a range that
// holds a tenth of the rows holds about a tenth of the tablets, and is
// hot when it takes far more than a tenth of the writes. A large prefix
// written in proportion to its size is not hot, and neither is a range
// made hot by one row (frequently-updated-row and wide-row say that).
// A band of adjacent ranges none of which is hot alone, but which
// together take [hotMinShare] of the writes at [bandMinFactor] times
// their share of the rows or more, is one info finding: a band that wide
// is split and moved by Bigtable as its load grows, so it is to watch,
// not to salt.
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
	// bandMinFactor is how many times its share of the rows each range of
	// a band, and the band, must take of the writes: twice is clearly
	// more than the rows account for.
	bandMinFactor = 2.0
	// bandMaxRowShare is the largest share of its dataset's rows a band
	// may hold: beyond half, the band is most of the dataset and the
	// rest is merely quiet.
	bandMaxRowShare = 0.5
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
	// band is set for adjacent ranges hot only together: an info finding.
	band bool
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

// rangeGroup is one of the ranges a split of the sample cuts: rows[lo:hi]
// and what they hold.
type rangeGroup struct {
	lo, hi               int
	rowShare, writeShare float64
	// singleRow is set when one row takes most of the group's writes (or
	// it holds too few rows to be a range), few when it takes fewer than
	// [hotMinWrites].
	singleRow, few bool
}

// eligible reports whether the group's writes can make it hot at all.
func (g rangeGroup) eligible() bool { return !g.singleRow && !g.few }

// factor is the group's writes over its share of the rows.
func (g rangeGroup) factor() float64 { return share(g.writeShare, g.rowShare) }

// hotRanges walks the sample in key order, splitting each range at the
// first byte its keys differ in (the digit after acct#, the first letter
// of a handle), and returns the narrowest ranges that hold at least
// [hotMinShare] of the writes and [hotMinFairFactor] times their share
// of the rows (and, inside such a range, [hotRangeNarrowing] times its
// concentration). Ranges found side by side under one split (the tenths
// acct#3 and acct#4) are one range: together they meet the rule as each
// does alone. Where a split has no hot range, a band of adjacent ranges
// that together take [hotMinShare] of the writes, each and all at
// [bandMinFactor] times their rows or more, is returned as a band.
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
	var walk func(lo, hi int, minFactor float64, inHot bool) bool
	// walk looks at rows[lo:hi] for ranges that concentrate writes at
	// least minFactor times and reports whether it found one; inHot is
	// set inside a range hot itself, where only a narrower hot range
	// counts (a band inside it is the hot range, spread out).
	walk = func(lo, hi int, minFactor float64, inHot bool) bool {
		first, last := string(rows[lo].Key), string(rows[hi-1].Key)
		cut := len(keyspace.CommonPrefix(first, last))
		var groups []rangeGroup
		for i := lo; i < hi; {
			j := i + 1
			for j < hi && byteAt(string(rows[j].Key), cut) == byteAt(string(rows[i].Key), cut) {
				j++
			}
			g := rangeGroup{lo: i, hi: j}
			var groupRows, groupWrites, maxWrites float64
			for k := i; k < j; k++ {
				groupRows += rows[k].Weight
				groupWrites += writes[k]
				maxWrites = max(maxWrites, writes[k])
			}
			g.rowShare, g.writeShare = groupRows/totalRows, groupWrites/totalWrites
			g.singleRow = maxWrites >= singleRowWriteShare*groupWrites || j-i < minHotRangeRows
			g.few = groupWrites < hotMinWrites
			groups = append(groups, g)
			i = j
		}
		if len(groups) < 2 {
			return false
		}
		range_ := func(g rangeGroup) hotRange {
			key := string(rows[g.lo].Key)
			start := key[:min(cut+1, len(key))]
			return hotRange{
				start: start, end: keyspace.PrefixEnd(start),
				prefix:   keyspace.CommonPrefix(key, string(rows[g.hi-1].Key)),
				parent:   key[:min(cut, len(key))],
				siblings: len(groups), adjacent: 1, rowShare: g.rowShare, writeShare: g.writeShare,
			}
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
			if g.writeShare < hotMinShare {
				flush()
				continue
			}
			hot := g.factor() >= minFactor && g.eligible()
			narrower := minFactor
			if hot {
				narrower = hotRangeNarrowing * g.factor()
			}
			if g.hi-g.lo >= minHotRangeRows && walk(g.lo, g.hi, narrower, inHot || hot) {
				flush()
				inside = true
				continue
			}
			if !hot || len(rows[g.lo].Key) <= cut { // not hot, or the parent's own row: not a range
				flush()
				continue
			}
			if r := range_(g); run != nil {
				run.join(r)
			} else {
				run = &r
			}
			inside = true
		}
		flush()
		if !inside && !inHot {
			if band, ok := bandOf(groups); ok {
				r := range_(groups[band[0]])
				for _, g := range groups[band[0]+1 : band[1]] {
					r.join(range_(g))
				}
				r.band = true
				found = append(found, r)
				inside = true
			}
		}
		return inside
	}
	if len(rows) >= minHotRangeRows {
		walk(0, len(rows), hotMinFairFactor, false)
	}
	return found
}

// bandOf returns the run of adjacent groups [from, to) that forms a band:
// each group takes at least [bandMinFactor] times its share of the rows
// of the writes and is not one row's, the run takes at least
// [hotMinShare] of the writes and at most [bandMaxRowShare] of the
// dataset's rows.
// Of several, the one taking the most writes.
func bandOf(groups []rangeGroup) (band [2]int, ok bool) {
	best := 0.0
	for i := 0; i < len(groups); {
		if groups[i].factor() < bandMinFactor || !groups[i].eligible() {
			i++
			continue
		}
		j := i
		var rowShare, writeShare float64
		for j < len(groups) && groups[j].factor() >= bandMinFactor && groups[j].eligible() {
			rowShare += groups[j].rowShare
			writeShare += groups[j].writeShare
			j++
		}
		// A run of every group is the range they split, not a band in it.
		whole := i == 0 && j == len(groups)
		if !whole && writeShare >= hotMinShare && rowShare <= bandMaxRowShare && writeShare > best {
			band, best, ok = [2]int{i, j}, writeShare, true
		}
		i = j
	}
	return band, ok
}

// byteAt returns key[i] as an int, or -1 past the key's end (the parent's
// own row sorts first).
func byteAt(key string, i int) int {
	if i >= len(key) {
		return -1
	}
	return int(key[i])
}

// bandAdvice is the advice of a band of writes.
const bandAdvice = "A range this wide is split into tablets and spread over nodes by Bigtable as its load grows, " +
	"so it needs no salt: keep an eye on it. If its writes narrow to a few keys (one user, one device), those keys " +
	"are a hotspot to spread by salting; if the band moves with time, the key may lead with a time or an " +
	"increasing ID (see sequential-keys)."

// rangeFinding writes the finding of a hot range.
func (d *diagnosis) rangeFinding(r hotRange) Finding {
	factor := r.writeShare / r.rowShare
	// The range's depth for salting advice: the whole segments before it.
	depth := 0
	for i := 0; i < len(r.parent); i++ {
		if strings.IndexByte(d.profile.splitter.Delimiters(), r.parent[i]) >= 0 {
			depth++
		}
	}
	node := &keyspace.Node{Kind: keyspace.KindRange, Prefix: keyspace.Key(r.prefix), Start: keyspace.Key(r.start),
		End: keyspace.Key(r.end), Depth: depth}
	of, whose := "the table's writes", "the table's"
	if d.scope != nil {
		of, whose = "its dataset's writes", "its dataset's"
	}
	evidence := Evidence{}
	evidence.set("write_share", r.writeShare)
	evidence.set("row_share", r.rowShare)
	evidence.set("write_to_row_factor", factor)
	evidence.set("ranges", float64(r.siblings))
	evidence.set("min_share", hotMinShare)
	evidence.set("min_write_to_row_factor", hotMinFairFactor)
	summary := fmt.Sprintf("range %s... takes %s of %s (cell versions per column) but holds %s of %s rows: "+
		"%.1f times its share of the key space, one of %d ranges that split %s",
		printable(r.prefix), units.Percent(r.writeShare), of, units.Percent(r.rowShare), whose, math.Round(factor*10)/10,
		r.siblings, quoteKey(r.parent))
	if r.adjacent > 1 {
		evidence.set("adjacent_ranges", float64(r.adjacent))
		summary = fmt.Sprintf("keys %s to %s (excluded) take %s of %s (cell versions per column) but hold %s of %s rows: "+
			"%.1f times their share of the key space, %d adjacent ranges, each hot, of the %d that split %s",
			printable(r.start), printable(r.end), units.Percent(r.writeShare), of, units.Percent(r.rowShare), whose, math.Round(factor*10)/10,
			r.adjacent, r.siblings, quoteKey(r.parent))
	}
	f := Finding{
		Kind:     KindHotKeyRange,
		Severity: SeverityWarning,
		Start:    keyspace.Key(r.start),
		End:      keyspace.Key(r.end),
		Prefix:   keyspace.Key(r.prefix),
		Evidence: evidence,
	}
	if r.band {
		evidence.set("band_min_factor", bandMinFactor)
		f.Severity = SeverityInfo
		band := fmt.Sprintf("a band of %d adjacent ranges of the %d that split %s, none hot alone", r.adjacent, r.siblings, quoteKey(r.parent))
		if r.adjacent == 1 {
			band = fmt.Sprintf("one of the %d ranges that split %s, short of hot", r.siblings, quoteKey(r.parent))
		}
		f.Summary = fmt.Sprintf("keys %s to %s (excluded) take %s of %s (cell versions per column) but hold %s of %s rows: "+
			"%.1f times their share of the key space, %s",
			printable(r.start), printable(r.end), units.Percent(r.writeShare), of, units.Percent(r.rowShare), whose, math.Round(factor*10)/10, band)
		f.Advice = bandAdvice
		return f
	}
	f.Summary = summary
	d.planSalt(&f, node, r.writeShare, saltLead)
	return f
}
