package keyspace

import (
	"fmt"
	"sort"

	"github.com/btviz/btviz/internal/escape"
)

// NodeKind says what a [Node] of the prefix tree stands for.
type NodeKind uint8

const (
	// KindPrefix is a key prefix that ends at a delimiter ("user#42#");
	// its children split it at the next delimiter. The root is a prefix
	// node with the empty prefix.
	KindPrefix NodeKind = iota
	// KindRow is a single row key with no further delimiter.
	KindRow
	// KindRange is a run of adjacent siblings merged to keep fan-out
	// bounded; it has totals but no children (drilling in needs a rescan).
	KindRange
)

// String names the kind as reports and the UI show it.
func (k NodeKind) String() string {
	switch k {
	case KindPrefix:
		return "prefix"
	case KindRow:
		return "row"
	case KindRange:
		return "range"
	}
	return "unknown"
}

// MarshalText writes the kind's name.
func (k NodeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *NodeKind) UnmarshalText(text []byte) error {
	switch string(text) {
	case "prefix":
		*k = KindPrefix
	case "row":
		*k = KindRow
	case "range":
		*k = KindRange
	default:
		return fmt.Errorf("unknown node kind %s (want prefix, row or range)", escape.Quote(string(text)))
	}
	return nil
}

// Node is one vertex of the delimiter-aware prefix tree: the rows in
// [Start, End), their aggregated [Stats], their cell-write histogram on the
// snapshot's time grid, their largest rows and, in a traffic recording,
// the operations that touched them ([NodeTraffic]). Children are sorted by key,
// disjoint, and lie inside the parent's range; a node's stats include every
// row under it, whether or not a child still represents that row.
type Node struct {
	Kind NodeKind `json:"kind"`
	// Prefix is the key prefix this node stands for: the prefix itself for
	// a prefix node, the row key for a row, and the common prefix of the
	// merged keys for a range.
	Prefix Key `json:"prefix"`
	// Start and End bound the node's key range [Start, End); an empty End
	// is the end of the table.
	Start Key `json:"start"`
	End   Key `json:"end"`
	// Depth counts the delimited segments of Prefix (the root is 0).
	Depth int `json:"depth"`
	Stats
	// Writes counts cells by write time (see [TimeHist]).
	Writes TimeHist `json:"writes"`
	// Top holds this node's largest rows by bytes, largest first, and
	// TopVersioned its rows with the most versions of one column, so
	// that a single large or hot row is never hidden in a coarse bucket.
	Top          []RowStat `json:"top,omitempty"`
	TopVersioned []RowStat `json:"top_versioned,omitempty"`
	// Traffic is the node's recorded traffic; nil in a snapshot without a
	// recording.
	Traffic  *NodeTraffic `json:"traffic,omitempty"`
	Children []*Node      `json:"children,omitempty"`
	// CPU is the node CPU of the hot tablets over the node's keys, in
	// percent-minutes per bucket of the hot tablets' time grid
	// ([HotTablets.BucketMicros]); nil without hot tablets. It is not
	// written to a file: [WithHotTablets] and the reader place it from
	// [Snapshot.HotTablets].
	CPU *TimeHist `json:"-"`
	// opStamp is the last call whose latency the builder counted here
	// ([Builder.AddOp]): a call counts once per node.
	opStamp uint64
}

// IsLeaf reports whether the node has no children to drill into.
func (n *Node) IsLeaf() bool { return len(n.Children) == 0 }

// Contains reports whether key lies in the node's range.
func (n *Node) Contains(key string) bool { return InRange(key, string(n.Start), string(n.End)) }

// childIndex returns the index of the child whose range contains key, or
// the index at which a child for key would be inserted and false.
func (n *Node) childIndex(key string) (int, bool) {
	i := sort.Search(len(n.Children), func(i int) bool {
		end := n.Children[i].End
		return end == "" || key < string(end)
	})
	if i < len(n.Children) && key >= string(n.Children[i].Start) {
		return i, true
	}
	return i, false
}

// Find returns the deepest node whose range contains key, and the path of
// nodes from n down to it.
func (n *Node) Find(key string) []*Node {
	path := []*Node{n}
	for node := n; ; {
		i, ok := node.childIndex(key)
		if !ok {
			return path
		}
		node = node.Children[i]
		path = append(path, node)
	}
}

// Lookup returns the node whose Prefix equals prefix exactly and the path
// to it, or nil when the tree has no such node (for instance because it
// was merged into a range).
func (n *Node) Lookup(prefix string) []*Node {
	path := n.Find(prefix)
	for i := len(path) - 1; i >= 0; i-- {
		if string(path[i].Prefix) == prefix && path[i].Kind != KindRange {
			return path[:i+1]
		}
	}
	return nil
}

// Walk calls visit for n and every node below it, parents before
// children, in key order; visit returns false to skip a node's children.
func (n *Node) Walk(visit func(node *Node) bool) {
	if !visit(n) {
		return
	}
	for _, child := range n.Children {
		child.Walk(visit)
	}
}

// Count returns the number of nodes in the subtree rooted at n.
func (n *Node) Count() int {
	count := 0
	n.Walk(func(*Node) bool { count++; return true })
	return count
}

func (n *Node) clone() *Node {
	c := *n
	c.Stats = n.Stats.clone()
	c.Writes = n.Writes.clone()
	c.Top = append([]RowStat(nil), n.Top...)
	c.TopVersioned = append([]RowStat(nil), n.TopVersioned...)
	c.Traffic = n.Traffic.clone()
	if n.CPU != nil {
		cpu := n.CPU.clone()
		c.CPU = &cpu
	}
	if n.Children != nil {
		c.Children = make([]*Node, len(n.Children))
		for i, child := range n.Children {
			c.Children[i] = child.clone()
		}
	}
	return &c
}
