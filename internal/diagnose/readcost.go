package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// readCost says what t costs readers of snap's keys.
func readCost(t Transform, snap *keyspace.Snapshot) ReadCost {
	switch t.Kind {
	case TransformSalt:
		cost := ReadCost{PrefixScanFanOut: t.Buckets, Summary: fmt.Sprintf("Point reads and writes still compute "+
			"one key. A scan of a logical prefix becomes %d scans, one per salt value, run in parallel and merged by "+
			"the reader (and re-sorted if order matters); a full scan costs the same but returns rows out of "+
			"logical order.", t.Buckets)}
		if t.PrefixSegments > 0 {
			example := ""
			if len(snap.Sample) > 0 {
				rk := newRekeyer(t, snap.Delimiters)
				example = " (such as " + printable(rk.prefixOf(string(snap.Sample[0].Key), t.PrefixSegments)) + ")"
			}
			cost.Summary = fmt.Sprintf("Point reads and writes still compute one key. A scan by a prefix of at "+
				"least %d segments%s stays one scan, since the salt depends only on them: each entity's rows stay "+
				"together. A scan by a shorter prefix becomes %d scans merged by the reader.",
				t.PrefixSegments, example, t.Buckets)
		}
		return cost
	case TransformReverseTimestamp:
		return ReadCost{PrefixScanFanOut: 1, Summary: fmt.Sprintf("Reads stay single scans: a time range [t1, t2) "+
			"within one prefix becomes the range [MAX-t2, MAX-t1) of segment %d, and rows come newest first, so "+
			"reading the newest rows of an entity is a short scan from the start of its prefix; a reader wanting "+
			"oldest first must reverse the order.", t.Segment)}
	case TransformReverse:
		return ReadCost{PrefixScanFanOut: 0, Summary: fmt.Sprintf("Exact-key reads are unchanged (reverse the "+
			"value to build the key), but a range scan over consecutive values of segment %d (say IDs 1000 to "+
			"1999) no longer reads one contiguous range: it becomes one point read per value or a full scan.",
			t.Segment)}
	case TransformPromote:
		distinct := promotedDistinct(t, snap)
		return ReadCost{PrefixScanFanOut: distinct, Summary: fmt.Sprintf("Scans by the value of segment %d "+
			"become prefix scans. A scan by the segments that used to lead becomes one scan per distinct value of "+
			"segment %d (%s in the sample) or one full scan.", t.Segment, t.Segment, units.Thousands(int64(distinct)))}
	}
	return ReadCost{}
}

// promotedDistinct counts the distinct values of the promoted segment in
// the sample.
func promotedDistinct(t Transform, snap *keyspace.Snapshot) int {
	rk := newRekeyer(t, snap.Delimiters)
	seen := map[string]bool{}
	for _, row := range snap.Sample {
		fields, _ := rk.split(string(row.Key))
		i := t.Segment
		if i < 0 {
			i += len(fields)
		}
		if i >= 0 && i < len(fields) {
			seen[fields[i]] = true
		}
	}
	return len(seen)
}
