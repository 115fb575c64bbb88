package diagnose

import (
	"fmt"
	"sort"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
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

// saltPlan is a finding's advice to salt a hot range, made once every
// check has run so that every finding about one range advises the same
// number of buckets ([diagnosis.adviseSalting]).
type saltPlan struct {
	kind               Kind
	start, end, prefix keyspace.Key
	// d is the diagnosis that found it (its dataset's rows say how the
	// range's series spread); hot is the range's node, worst the largest
	// share of load it takes.
	d     *diagnosis
	hot   *keyspace.Node
	worst float64
	// lead is the advice before the salting method, which ends in "by
	// salting: " or the like.
	lead string
}

// planSalt records that finding f advises salting node hot, which takes
// worst of its load, after lead; its advice is written once every check
// has run.
func (d *diagnosis) planSalt(f *Finding, hot *keyspace.Node, worst float64, lead string) {
	*d.salts = append(*d.salts, saltPlan{kind: f.Kind, start: f.Start, end: f.End, prefix: f.Prefix, d: d, hot: hot, worst: worst, lead: lead})
	f.Advice = lead + d.saltMethod(hot, suggestedSalt(worst), worst)
}

// adviseSalting writes the salting advice of every planned finding: one
// bucket count per key range, for the largest share of load any finding
// about it measured, so that a read hotspot and a hot write range at one
// prefix advise the same salt.
func (d *diagnosis) adviseSalting(findings []Finding) {
	type rangeKey struct{ start, end, prefix keyspace.Key }
	worst := map[rangeKey]float64{}
	for _, p := range *d.salts {
		k := rangeKey{p.start, p.end, p.prefix}
		worst[k] = max(worst[k], p.worst)
	}
	for _, p := range *d.salts {
		k := rangeKey{p.start, p.end, p.prefix}
		buckets := suggestedSalt(worst[k])
		for i := range findings {
			f := &findings[i]
			if f.Kind != p.kind || f.Start != p.start || f.End != p.end || f.Prefix != p.prefix {
				continue
			}
			f.Advice = p.lead + p.d.saltMethod(p.hot, buckets, worst[k])
			f.Evidence.set("suggested_salt_buckets", float64(buckets))
		}
	}
}

// saltLead is how hot-key-range and write-hotspot advice opens.
const saltLead = "Spread this range over the key space by salting: "

// saltMethod says how to salt the hot range into buckets pieces: by its
// series when the data allows, otherwise by the whole key (its timestamp
// too, when it has one). It continues a sentence that ends in a colon.
func (d *diagnosis) saltMethod(hot *keyspace.Node, buckets int, worst float64) string {
	common := fmt.Sprintf("Point reads and writes still compute one key; a scan that the salt splits becomes %d scans "+
		"merged by the reader. Salting can start with new keys after a cut-over time.", buckets)
	if k, largest, ok := d.seriesSalt(hot, buckets); ok {
		return fmt.Sprintf("put hash(first %d segments of the key) mod %d "+
			"and a delimiter in front of the key. Hashing the key without its last part keeps each series "+
			"(the rows that share those %d segments) together and in order for prefix scans, and still spreads "+
			"this range: no such series holds more than %s of it, so each of the %d pieces keeps about %s of the "+
			"load. %s Compare before migrating with the what-if salt(%d, prefix=%d).",
			k, buckets, k, units.Percent(largest), buckets, units.Percent(worst/float64(buckets)), common, buckets, k)
	}
	why := "Hash the whole key: no leading part of it shorter than the whole was found to spread this range."
	if d.keysHoldTime(hot) {
		why = "Hash the whole key, timestamp included: this range is essentially one series, so hashing only the " +
			"part before the timestamp would keep it in one piece, just as hot."
	}
	return fmt.Sprintf("put hash(key) mod %d and a delimiter in "+
		"front of the key, leaving each piece about %s of the load. %s %s Compare before migrating with the what-if salt(%d).",
		buckets, units.Percent(worst/float64(buckets)), why, common, buckets)
}
