package diagnose

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Thresholds of sequential-keys (and of the leading-segment checks). The
// guide describes the pattern, Key Visualizer's diagonal, without numbers.
const (
	// maxWriteFronts is the most places new writes may land for the keys
	// to count as sequential: with at most 4 key ranges taking all new
	// rows, at most 4 tablets (so at most 4 nodes) do the writing, fewer
	// than a production cluster has to share it. Salting with N >= 5 and
	// entity-first keys with many entities both pass.
	maxWriteFronts = 4
	// sequentialMinCorrelation is the rank correlation between key order
	// and write time, within each write front, at or above which (or at
	// or below its negative) new rows march through the key space.
	// Entity-first keys with random entity IDs stay near 0; timestamp-
	// first keys and increasing IDs are above 0.95.
	sequentialMinCorrelation = 0.8
	// minCorrelationRows is the fewest sampled rows with write times a
	// correlation is computed over.
	minCorrelationRows = 30
	// sequentialWindows is how many stretches of write time (equal counts
	// of sampled rows) a group is cut into to see where each stretch's
	// writes went, so that keys whose byte order is not the order they
	// are written in (user9 sorts after user10000) are still seen to
	// march: within a stretch, new rows go to ever-later keys.
	sequentialWindows = 10
	// sequentialMinWindowShare is the share of those stretches in which
	// key order and write time must have rank correlation of at least
	// [sequentialMinCorrelation]. Unpadded IDs written in order give 0.8
	// to 1 (the stretches where IDs gain a digit jump back in key order);
	// entity-first, salted and hashed keys give 0.
	sequentialMinWindowShare = 0.7
	// newestRowsShare is the share of newest sampled rows whose key
	// spread the evidence reports.
	newestRowsShare = 0.1
	// oneEndSpan is the widest share of the key order the newest rows
	// may span for the summary to say they all go to one end: twice
	// their share of the rows. Unpadded IDs near a power of ten
	// (greeting1 … greeting1001) follow write time overall, yet their
	// newest rows reach from greeting100 to greeting999.
	oneEndSpan = 2 * newestRowsShare
)

const sequentialAdvice = "Lead the key with a field that spreads concurrent writes, such as the device, user " +
	"or account ID, and put the time after it (entity#timestamp, or entity#reversed-timestamp when the newest " +
	"rows are read first). Without such a field, salt the key (hash mod N in front) or, for increasing IDs, " +
	"reverse the ID's digits. Sequential keys send every new row to the one tablet at the end of the range, " +
	"whatever the cluster size."

// writePattern is how write time follows key order within groups of
// sampled rows that share their first segments.
type writePattern struct {
	// depth is how many leading segments form a group; groups are their
	// key prefixes, in key order.
	depth  int
	groups []string
	// correlation is the row-weighted mean rank correlation between key
	// order and first-write time within groups; rows is how many rows it
	// is over.
	correlation float64
	rows        int
	// windowShare, measured only when the correlation is weak, is the
	// row-weighted share of [sequentialWindows] stretches of write time
	// within which key order follows write time, in the stronger
	// direction; descending is true when new rows go to ever-earlier
	// keys.
	windowShare float64
	descending  bool
	// newestSpan is the share of the largest group's key order the newest
	// [newestRowsShare] of its rows cover.
	newestSpan float64
}

// findWritePattern looks for the shallowest grouping (at most
// [maxWriteFronts] groups) in which write time follows key order.
func findWritePattern(profile *keyProfile) (writePattern, bool) {
	previousGroups, previousRows := -1, -1
	for depth := 0; depth <= len(profile.positions); depth++ {
		groups := map[string][]int{}
		for i, row := range profile.rows {
			if row.Cells == 0 {
				continue
			}
			prefix := profile.prefixBefore(i, depth)
			if depth > 0 && len(prefix) == len(row.Key) {
				continue
			}
			groups[prefix] = append(groups[prefix], i)
		}
		if len(groups) > maxWriteFronts {
			return writePattern{}, false
		}
		// A deeper grouping refines a shallower one: with as many groups
		// and rows, it is the same grouping, already looked at.
		rows := 0
		for _, members := range groups {
			rows += len(members)
		}
		if len(groups) == previousGroups && rows == previousRows {
			continue
		}
		previousGroups, previousRows = len(groups), rows
		pattern := writePattern{depth: depth}
		var weighted float64
		largest := 0
		timeOrders := make(map[string][]int, len(groups))
		for prefix, members := range groups {
			pattern.groups = append(pattern.groups, prefix)
			if len(members) < minCorrelationRows {
				continue
			}
			rho, span, byTime := groupPattern(profile, members)
			timeOrders[prefix] = byTime
			weighted += rho * float64(len(members))
			pattern.rows += len(members)
			if len(members) > largest {
				largest, pattern.newestSpan = len(members), span
			}
		}
		slices.Sort(pattern.groups)
		if pattern.rows < minCorrelationRows {
			continue
		}
		pattern.correlation = weighted / float64(pattern.rows)
		if math.Abs(pattern.correlation) >= sequentialMinCorrelation {
			pattern.descending = pattern.correlation < 0
			return pattern, true
		}
		// Byte order may not be write order (unpadded numbers): look
		// stretch by stretch of write time.
		var later, earlier float64
		for prefix, members := range groups {
			if len(members) >= minCorrelationRows {
				up, down := windowTrend(profile.rows, members, timeOrders[prefix])
				later += up * float64(len(members))
				earlier += down * float64(len(members))
			}
		}
		pattern.descending = earlier > later
		pattern.windowShare = max(later, earlier) / float64(pattern.rows)
		if pattern.windowShare >= sequentialMinWindowShare {
			return pattern, true
		}
	}
	return writePattern{}, false
}

// windowTrend cuts a group's rows (members, in key order; byTime, their
// places in members, oldest write first) into
// [sequentialWindows] stretches of write time and returns the share of
// stretches within which key order rises with write time, and the share
// within which it falls, each by a rank correlation of at least
// [sequentialMinCorrelation]. Groups too small for stretches of
// [minCorrelationRows] rows give 0, 0.
func windowTrend(rows []keyspace.SampledRow, members, byTime []int) (later, earlier float64) {
	if len(members) < sequentialWindows*minCorrelationRows {
		return 0, 0
	}
	var up, down int
	for w := range sequentialWindows {
		window := byTime[w*len(byTime)/sequentialWindows : (w+1)*len(byTime)/sequentialWindows]
		// The window is in time order: its time ranks need no sort, its
		// key order ranks one of distinct integers.
		timeRanks := ranksInOrder(window, func(k int) int64 { return rows[members[k]].FirstWrite })
		keys := slices.Clone(window)
		slices.Sort(keys)
		keyRanks := make([]float64, len(window))
		for p, k := range window {
			at, _ := slices.BinarySearch(keys, k)
			keyRanks[p] = float64(at + 1)
		}
		switch rho := pearson(keyRanks, timeRanks); {
		case rho >= sequentialMinCorrelation:
			up++
		case rho <= -sequentialMinCorrelation:
			down++
		}
	}
	return float64(up) / sequentialWindows, float64(down) / sequentialWindows
}

// groupPattern returns the rank correlation between key order and first
// write within one group (members are in key order), the share of the
// group's key order its newest rows span, and the group's rows by write
// time (their places in members, oldest first).
func groupPattern(profile *keyProfile, members []int) (rho, newestSpan float64, byTime []int) {
	rows := profile.rows
	order, timeRanks := make([]float64, len(members)), make([]float64, len(members))
	if len(members) == len(rows) {
		// The whole sample, members[k] == k: its order is known.
		byTime, timeRanks = profile.timeOrder()
	} else {
		type timed struct{ at, k int64 }
		sorted := make([]timed, len(members))
		for k, i := range members {
			sorted[k] = timed{rows[i].FirstWrite, int64(k)}
		}
		// Oldest first; of rows written at once, the later in key order
		// first, so that the newest rows are the ones latest written and
		// earliest in key order.
		slices.SortFunc(sorted, func(a, b timed) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(b.k, a.k)) })
		byTime = make([]int, len(members))
		for p, t := range sorted {
			byTime[p] = int(t.k)
		}
		inTime := ranksInOrder(byTime, func(k int) int64 { return rows[members[k]].FirstWrite })
		for p, k := range byTime {
			timeRanks[k] = inTime[p]
		}
	}
	// Spearman's correlation from the order: key order ranks are k+1.
	for k := range order {
		order[k] = float64(k + 1)
	}
	rho = pearson(order, timeRanks)
	newest := byTime[len(byTime)-max(1, int(math.Ceil(float64(len(members))*newestRowsShare))):]
	lo, hi := slices.Min(newest), slices.Max(newest)
	return rho, float64(hi-lo+1) / float64(len(members)), byTime
}

// checkSequentialKeys raises sequential-keys when, in at most
// [maxWriteFronts] groups of keys, write time follows key order.
func checkSequentialKeys(d *diagnosis) []Finding {
	pattern, ok := findWritePattern(d.profile)
	if !ok {
		return nil
	}
	direction := "ever-later"
	end := "end"
	if pattern.descending {
		direction, end = "ever-earlier", "start"
	}
	evidence := Evidence{}
	evidence.set("rank_correlation", pattern.correlation)
	evidence.set("min_rank_correlation", sequentialMinCorrelation)
	evidence.set("sampled_rows", float64(pattern.rows))
	evidence.set("write_fronts", float64(len(pattern.groups)))
	evidence.set("max_write_fronts", maxWriteFronts)
	evidence.set("newest_rows_key_span", pattern.newestSpan)

	f := Finding{Kind: KindSequentialKeys, Severity: SeverityWarning, Advice: sequentialAdvice, Evidence: evidence}
	where, target := "new rows land at "+direction+" keys", "the table"
	if d.scope != nil {
		target = "the dataset"
	}
	if pattern.depth == 0 {
		f.Start, f.End = d.tableWide()
		if common := d.profile.commonPrefix(); common != "" {
			f.Start, f.End = prefixRange(common)
			f.Prefix = keyspace.Key(common)
			target = printable(common)
		}
	} else {
		first, last := pattern.groups[0], pattern.groups[len(pattern.groups)-1]
		f.Start, f.End = keyspace.Key(first), keyspace.Key(keyspace.PrefixEnd(last))
		f.Prefix = keyspace.Key(keyspace.CommonPrefix(first, last))
		names := make([]string, len(pattern.groups))
		for i, g := range pattern.groups {
			names[i] = printable(g)
		}
		where = "within each of " + strings.Join(names, ", ") + ", " + where
		target = "each of these " + plural(len(pattern.groups), "range", "ranges")
	}
	if node := d.groupNode(pattern); node != nil {
		if trend, ok := hottestChildTrend(node); ok {
			evidence.set("hottest_child_trend", trend)
		}
	}
	f.Summary = fmt.Sprintf("%s: key order and write time have rank correlation %.2f over %s sampled rows, "+
		"and the newest %s of rows sit in %s of the key order, so new rows all go to the %s of %s",
		where, pattern.correlation, units.Thousands(int64(pattern.rows)), units.Percent(newestRowsShare), units.Percent(pattern.newestSpan),
		end, target)
	if pattern.newestSpan > oneEndSpan {
		f.Summary = fmt.Sprintf("%s: key order and write time have rank correlation %.2f over %s sampled rows, "+
			"so new rows move toward the %s of %s, though the newest %s of rows span %s of the key order rather than one end of it",
			where, pattern.correlation, units.Thousands(int64(pattern.rows)), end, target, units.Percent(newestRowsShare),
			units.Percent(pattern.newestSpan))
	}
	if math.Abs(pattern.correlation) < sequentialMinCorrelation {
		evidence.set("window_share", pattern.windowShare)
		evidence.set("min_window_share", sequentialMinWindowShare)
		evidence.set("windows", sequentialWindows)
		f.Summary = fmt.Sprintf("%s: in %s of %d stretches of write time, key order and write time have rank "+
			"correlation of at least %.2f, so each stretch's new rows go to one narrow range that moves to %s keys "+
			"(over all of %s, only %.2f: byte order is not the order the keys were written in, as with unpadded numbers)",
			where, units.Percent(pattern.windowShare), sequentialWindows, sequentialMinCorrelation, direction, target, pattern.correlation)
	}
	return []Finding{f}
}

// groupNode returns the tree node of the pattern's only group (the root
// for a table-wide pattern), or nil.
func (d *diagnosis) groupNode(pattern writePattern) *keyspace.Node {
	if pattern.depth == 0 {
		return d.root
	}
	if len(pattern.groups) != 1 {
		return nil
	}
	path := d.root.Lookup(pattern.groups[0])
	if path == nil {
		return nil
	}
	return path[len(path)-1]
}

// hottestChildTrend follows, time bucket by time bucket, which child of n
// took the most writes, and returns the rank correlation between time and
// that child's position: near 1 when the hottest range moves steadily to
// later keys (the Key Visualizer diagonal), from the tree's histograms
// rather than the sample.
func hottestChildTrend(n *keyspace.Node) (float64, bool) {
	if len(n.Children) < 3 {
		return 0, false
	}
	var times, positions []float64
	for bucket := n.Writes.First; bucket < n.Writes.Last(); bucket++ {
		best, bestCount := -1, 0.0
		for i, child := range n.Children {
			if c := child.Writes.At(bucket); c > bestCount {
				best, bestCount = i, c
			}
		}
		if best >= 0 {
			times = append(times, float64(bucket))
			positions = append(positions, float64(best))
		}
	}
	if len(times) < 3 {
		return 0, false
	}
	return spearman(times, positions), true
}

// plural writes n and the singular or plural noun: "1 range", "3 ranges".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return units.Thousands(int64(n)) + " " + many
}
