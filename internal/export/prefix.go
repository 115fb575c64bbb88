package export

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// maxSuggestedPrefixes is how many prefixes the error for an empty prefix
// names.
const maxSuggestedPrefixes = 8

// checkPrefix fails when prefix holds neither rows of snap nor, in a
// recording, traffic, naming the largest prefixes next to where it would
// be.
func checkPrefix(snap *keyspace.Snapshot, prefix keyspace.Key) error {
	if prefix == "" {
		return nil
	}
	start, end := string(prefix), keyspace.PrefixEnd(string(prefix))
	stats, exact := keyspace.RangeStats(snap.Root, start, end)
	if stats.Rows > 0 || !exact || snap.Root.HasTrafficIn(start, end) {
		return nil
	}
	what := "no rows start with prefix %s"
	switch {
	case snap.TrafficOnly():
		what = "the recording touched no key that starts with prefix %s"
	case snap.HasTraffic():
		what = "no rows start with prefix %s, and the recording touched none"
	}
	msg := fmt.Sprintf("exporting table %s: "+what, escape.Quote(snap.Table), quoted(string(prefix)))
	if near := nearbyPrefixes(snap.Root, string(prefix)); len(near) > 0 {
		msg += "; prefixes nearby: " + strings.Join(near, ", ")
	}
	return fmt.Errorf("%s (write bytes outside printable ASCII as \\xNN)", msg)
}

// nearbyPrefixes lists, largest first (by rows, and operations in a
// recording), the prefixes under the deepest node whose range holds
// prefix: where the user was probably aiming.
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
	size := func(n *keyspace.Node) float64 {
		if n.Traffic != nil {
			return n.Rows + n.Traffic.Ops
		}
		return n.Rows
	}
	slices.SortStableFunc(children, func(a, b *keyspace.Node) int { return cmp.Compare(size(b), size(a)) })
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
