package diagnose

import (
	"fmt"
	"sort"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
)

// minSaltAdviceRows is how many sampled rows a hot range needs before
// [seriesSalt] judges how its segments would spread: fewer say too little.
const minSaltAdviceRows = 64

// seriesSalt looks for the salt that keeps series together: the fewest
// leading segments K, more than the hot prefix's own and fewer than the
// key's, whose hash spreads the hot range over buckets pieces as well as
// hashing the whole key would (no group of rows sharing the first K
// segments holds more than 1/buckets of the range). It returns K and the
// largest group's share of the range, or ok false when no such K exists
// (the range is one series: only hashing the whole key spreads it).
func (d *diagnosis) seriesSalt(hot *keyspace.Node, buckets int) (segments int, largest float64, ok bool) {
	start, end := d.sampledRowsIn(hot)
	rows := d.profile.rows[start:end]
	if len(rows) < minSaltAdviceRows {
		return 0, 0, false
	}
	splitter := d.profile.splitter
	for k := hot.Depth + 1; ; k++ {
		groups := map[string]float64{}
		var total float64
		allLonger := true
		for _, row := range rows {
			segments := splitter.Segments(string(row.Key))
			if len(segments) <= k {
				allLonger = false
				break
			}
			prefix := ""
			for _, segment := range segments[:k] {
				prefix += segment
			}
			groups[prefix] += row.Weight
			total += row.Weight
		}
		if !allLonger || total == 0 {
			return 0, 0, false
		}
		largest = 0
		for _, weight := range groups {
			largest = max(largest, weight/total)
		}
		if largest <= 1/float64(buckets) {
			return k, largest, true
		}
	}
}

// sampledRowsIn returns the sampled rows of n's range: the profile's rows
// from start to end.
func (d *diagnosis) sampledRowsIn(n *keyspace.Node) (start, end int) {
	rows := d.profile.rows
	start = sort.Search(len(rows), func(i int) bool { return string(rows[i].Key) >= string(n.Start) })
	end = start
	for end < len(rows) && n.Contains(string(rows[end].Key)) {
		end++
	}
	return start, end
}

// keysHoldTime reports whether, at some field, [classMajority] of the
// sampled keys of n's range hold a time: a timestamp, a reversed one or a
// date.
func (d *diagnosis) keysHoldTime(n *keyspace.Node) bool {
	start, end := d.sampledRowsIn(n)
	if end == start {
		return false
	}
	for p := range d.profile.positions {
		pos := &d.profile.positions[p]
		times := 0
		for i, row := range pos.rowOf {
			if row < start || row >= end {
				continue
			}
			switch pos.valueClasses[i] {
			case classTimestamp, classReversedTimestamp, classDate:
				times++
			}
		}
		if float64(times) >= classMajority*float64(end-start) {
			return true
		}
	}
	return false
}

// hotAdvice says how to salt the hot range: by its series when the data
// allows, otherwise by the whole key (its timestamp too, when it has one).
func (d *diagnosis) hotAdvice(hot *keyspace.Node, buckets int, worst float64) string {
	common := fmt.Sprintf("Point reads and writes still compute one key; a scan that the salt splits becomes %d scans "+
		"merged by the reader. Salting can start with new keys after a cut-over time.", buckets)
	if k, largest, ok := d.seriesSalt(hot, buckets); ok {
		return fmt.Sprintf("Spread this range over the key space by salting: put hash(first %d segments of the key) mod %d "+
			"and a delimiter in front of the key. Hashing the key without its last part keeps each series "+
			"(the rows that share those %d segments) together and in order for prefix scans, and still spreads "+
			"this range: no such series holds more than %s of it, so each of the %d pieces keeps about %s of the "+
			"table. %s Compare before migrating with the what-if salt(%d, prefix=%d).",
			k, buckets, k, units.Percent(largest), buckets, units.Percent(worst/float64(buckets)), common, buckets, k)
	}
	why := "Hash the whole key: no leading part of it shorter than the whole was found to spread this range."
	if d.keysHoldTime(hot) {
		why = "Hash the whole key, timestamp included: this range is essentially one series, so hashing only the " +
			"part before the timestamp would keep it in one piece, just as hot."
	}
	return fmt.Sprintf("Spread this range over the key space by salting: put hash(key) mod %d and a delimiter in "+
		"front of the key, leaving each piece about %s. %s %s Compare before migrating with the what-if salt(%d).",
		buckets, units.Percent(worst/float64(buckets)), why, common, buckets)
}
