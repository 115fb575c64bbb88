package diagnose

import (
	"math"

	"github.com/btviz/btviz/internal/keyspace"
)

// recentWindowShare is the part of the snapshot's time span that counts as
// "recent" for write shares: the last tenth. Key Visualizer looks at the
// last hours of operations; offline, the newest tenth of the surviving
// cell timestamps is the closest stand-in that works whatever the span.
const recentWindowShare = 0.1

// recentFrom returns the first absolute time bucket of the recent window
// of the root histogram h.
func recentFrom(h *keyspace.TimeHist) int64 {
	n := len(h.Counts)
	if n == 0 {
		return 0
	}
	k := max(1, int(math.Ceil(float64(n)*recentWindowShare)))
	return h.Last() - int64(k)
}

// recentWrites returns the cells h counts from absolute bucket from on.
func recentWrites(h *keyspace.TimeHist, from int64) float64 {
	var total float64
	for i, c := range h.Counts {
		if h.First+int64(i) >= from {
			total += c
		}
	}
	return total
}

// deepest walks down from n along the child with the largest measure for
// as long as that child's measure is at least threshold, and returns the
// last node reached: the narrowest node that explains a table-wide
// maximum (the row with the largest cell, the longest key).
func deepest(n *keyspace.Node, measure func(*keyspace.Node) int64, threshold int64) *keyspace.Node {
	for {
		var best *keyspace.Node
		for _, child := range n.Children {
			if measure(child) >= threshold && (best == nil || measure(child) > measure(best)) {
				best = child
			}
		}
		if best == nil {
			return n
		}
		n = best
	}
}

// nodeFinding fills a finding's location from a tree node: a row node
// points at its row, a prefix node at its prefix, a range at its range.
func nodeFinding(f Finding, n *keyspace.Node) Finding {
	f.Start, f.End = n.Start, n.End
	f.Prefix = n.Prefix
	if n.Kind == keyspace.KindRow {
		f.Start, f.End = rowRange(string(n.Prefix))
	}
	return f
}

// rowRange returns the range [key, key+"\x00") of exactly one row.
func rowRange(key string) (keyspace.Key, keyspace.Key) {
	return keyspace.Key(key), keyspace.Key(key + "\x00")
}

// prefixRange returns the range of every key starting with prefix.
func prefixRange(prefix string) (keyspace.Key, keyspace.Key) {
	return keyspace.Key(prefix), keyspace.Key(keyspace.PrefixEnd(prefix))
}

// share returns part/whole, 0 when whole is not positive.
func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// positionLocation fills the range of a finding about segment position
// pos: the table when keys fan out before it, else the range of the few
// prefixes before it.
func (d *diagnosis) positionLocation(f Finding, pos *segmentPosition) Finding {
	if at, ok := d.locations[pos]; ok {
		f.Start, f.End, f.Prefix = at.Start, at.End, at.Prefix
		return f
	}
	f = d.locatePosition(f, pos)
	if d.locations == nil {
		d.locations = make(map[*segmentPosition]Finding)
	}
	d.locations[pos] = Finding{Start: f.Start, End: f.End, Prefix: f.Prefix}
	return f
}

// locatePosition does the work of [diagnosis.positionLocation].
func (d *diagnosis) locatePosition(f Finding, pos *segmentPosition) Finding {
	f.Start, f.End = d.tableWide()
	if pos.index == 0 {
		return f
	}
	prefixes := map[string]bool{}
	var first, last string
	for i := range pos.values {
		prefix := d.profile.prefixBefore(pos.rowOf[i], pos.index)
		if len(prefixes) == 0 || prefix < first {
			first = prefix
		}
		if len(prefixes) == 0 || prefix > last {
			last = prefix
		}
		prefixes[prefix] = true
		if len(prefixes) > maxWriteFronts {
			return f
		}
	}
	f.Start, f.End = keyspace.Key(first), keyspace.Key(keyspace.PrefixEnd(last))
	f.Prefix = keyspace.Key(keyspace.CommonPrefix(first, last))
	return f
}
