package heatmap

import (
	"strings"

	"github.com/btviz/btviz/keyspace"
)

// tableStartLabel names a range that starts at the very first key.
const tableStartLabel = "(table start)"

// bucketLabels names a bucket made of units (in key order) with the
// aggregate stats, starting at start, in a view whose short labels leave
// out viewPrefix, the anchor's prefix or a longer one all its keys share
// (then the short label starts with "…"). It returns the full label and
// the short one, both printable.
func bucketLabels(units []unit, stats *keyspace.Stats, start, viewPrefix, anchorPrefix string) (label, short string) {
	raw, suffix := rawLabel(units, stats, start)
	if raw == "" && (suffix == "" || units[0].kind == unitTablet) {
		return tableStartLabel + suffix, tableStartLabel + suffix
	}
	label = keyspace.Printable(raw) + suffix
	short = label
	if rest, ok := strings.CutPrefix(raw, viewPrefix); ok && (rest != "" || suffix != "") {
		short = keyspace.Printable(rest) + suffix
		if len(viewPrefix) > len(anchorPrefix) {
			short = ellipsis + short
		}
	}
	return label, short
}

// rawLabel returns the raw key bytes that name a bucket and a printable
// suffix: a node's prefix, a tablet's start key, or for a run of keys
// their common prefix followed by "[a-k]", the range of the byte after it.
func rawLabel(units []unit, stats *keyspace.Stats, start string) (raw, suffix string) {
	if len(units) == 1 {
		u := units[0]
		switch {
		case u.kind == unitTablet || u.kind == unitEmpty:
			return start, ""
		case u.kind == unitRemainder:
			return string(u.node.Prefix), ""
		case u.node.Kind != keyspace.KindRange:
			return string(u.node.Prefix), ""
		}
	}
	if len(units) > 0 && units[0].kind == unitTablet {
		return start, "…"
	}
	first, last, ok := groupBounds(units)
	if !ok {
		return start, ""
	}
	if first == last {
		return first, ""
	}
	common := keyspace.CommonPrefix(first, last)
	return common, "[" + nextByte(first, len(common)) + "-" + nextByte(last, len(common)) + "]"
}

// nextByte returns key's byte at i, escaped, or "" past its end.
func nextByte(key string, i int) string {
	if i >= len(key) {
		return ""
	}
	return keyspace.Printable(key[i : i+1])
}

// groupBounds returns the smallest and largest key a group of units is
// known to hold.
func groupBounds(units []unit) (first, last string, ok bool) {
	for i := range units {
		f, l, has := units[i].keyBounds()
		if !has {
			continue
		}
		if !ok || f < first {
			first = f
		}
		if !ok || l > last {
			last = l
		}
		ok = true
	}
	return first, last, ok
}
