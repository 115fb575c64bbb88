package export

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/btviz/btviz/escape"
	"github.com/btviz/btviz/keyspace"
)

// maxSuggestedPrefixes is how many prefixes the error for an empty prefix
// names.
const maxSuggestedPrefixes = 8

// checkPrefix fails when prefix holds no rows of snap, naming the largest
// prefixes next to where it would be.
func checkPrefix(snap *keyspace.Snapshot, prefix keyspace.Key) error {
	if prefix == "" {
		return nil
	}
	stats, exact := keyspace.RangeStats(snap.Root, string(prefix), keyspace.PrefixEnd(string(prefix)))
	if stats.Rows > 0 || !exact {
		return nil
	}
	msg := fmt.Sprintf("exporting table %s: no rows start with prefix %s", escape.Quote(snap.Table), quoted(string(prefix)))
	if near := nearbyPrefixes(snap.Root, string(prefix)); len(near) > 0 {
		msg += "; prefixes with rows nearby: " + strings.Join(near, ", ")
	}
	return fmt.Errorf("%s (write bytes outside printable ASCII as \\xNN)", msg)
}

// nearbyPrefixes lists, largest first, the prefixes under the deepest
// node whose range holds prefix: where the user was probably aiming.
func nearbyPrefixes(root *keyspace.Node, prefix string) []string {
	path := root.Find(prefix)
	parent := root
	for i := len(path) - 1; i >= 0; i-- {
		if len(path[i].Children) > 0 {
			parent = path[i]
			break
		}
	}
	children := slices.Clone(parent.Children)
	slices.SortStableFunc(children, func(a, b *keyspace.Node) int { return cmp.Compare(b.Rows, a.Rows) })
	var names []string
	for _, child := range children {
		if child.Kind != keyspace.KindPrefix {
			continue
		}
		names = append(names, quoted(string(child.Prefix)))
		if len(names) == maxSuggestedPrefixes {
			break
		}
	}
	return names
}

// quoted writes a name escaped by keyspace.Printable between quotes.
// quoted writes a key or prefix escaped by [keyspace.Printable] between
// double quotes; names are quoted by [escape.Quote].
func quoted(key string) string { return `"` + keyspace.Printable(key) + `"` }
