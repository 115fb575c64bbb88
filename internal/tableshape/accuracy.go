package tableshape

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// Accuracy is how far a snapshot's top-level prefixes are from a
// shape's truth: each top-level node of its tree (a prefix, or a range
// the tree merged small prefixes into) against the rows of the prefixes
// it holds.
type Accuracy struct {
	// Worst is the largest error of a top-level node's share of the rows,
	// in percentage points, and WorstPrefix the node (or the prefix the
	// snapshot lacks) it was found at.
	Worst       float64
	WorstPrefix string
	// Nodes are the top-level nodes compared (and prefixes the snapshot
	// lacks, estimated at zero rows); Covered those whose 95% interval
	// of rows holds the true count.
	Nodes, Covered int
	// Misses name the nodes whose interval missed, with the interval
	// and the true count.
	Misses []string
	// Width is the median over the nodes that hold rows of their
	// interval's half-width over their true rows: how much an interval
	// says. Prefixes the snapshot lacks have no interval and are left
	// out; it is 0 when no node holds rows or the snapshot none.
	Width float64
}

// Coverage returns the share of nodes whose interval held the truth.
func (a Accuracy) Coverage() float64 {
	if a.Nodes == 0 {
		return 1
	}
	return float64(a.Covered) / float64(a.Nodes)
}

// Judge compares snap, a scan of the table of shape s, with the truth:
// rows of a top-level node against the true rows of the prefixes it
// holds, and its 95% interval ([keyspace.Snapshot.NodeRowsInterval])
// against them.
func Judge(snap *keyspace.Snapshot, truth []Truth) Accuracy {
	var total float64
	for _, t := range truth {
		total += float64(t.Rows)
	}
	var a Accuracy
	var widths []float64
	if snap.Root == nil || snap.Root.Rows <= 0 || total <= 0 {
		a.Worst, a.WorstPrefix = 100, "(no rows)"
		return a
	}
	estimated := snap.Root.Rows
	held := make([]float64, len(snap.Root.Children))
	var lacking []Truth
	for _, t := range truth {
		i := slices.IndexFunc(snap.Root.Children, func(n *keyspace.Node) bool { return n.Contains(t.Prefix) })
		if i < 0 {
			lacking = append(lacking, t)
			continue
		}
		held[i] += float64(t.Rows)
	}
	note := func(name string, share, trueShare float64) {
		if e := 100 * math.Abs(share-trueShare); e > a.Worst {
			a.Worst, a.WorstPrefix = e, name
		}
	}
	for i, n := range snap.Root.Children {
		name := keyspace.Printable(string(n.Prefix))
		if n.Kind != keyspace.KindPrefix {
			name = fmt.Sprintf("[%s, %s)", keyspace.Printable(string(n.Start)), keyspace.Printable(string(n.End)))
		}
		note(name, n.Rows/estimated, held[i]/total)
		low, high := snap.NodeRowsInterval(n)
		a.Nodes++
		if held[i] > 0 {
			widths = append(widths, (high-low)/2/held[i])
		}
		if low-0.5 <= held[i] && held[i] <= high+0.5 {
			a.Covered++
		} else {
			a.Misses = append(a.Misses, fmt.Sprintf("%s: %.0f [%.0f, %.0f], true %.0f", name, n.Rows, low, high, held[i]))
		}
	}
	for _, t := range lacking {
		note(strings.TrimSuffix(t.Prefix, "#")+"# (not in the snapshot)", 0, float64(t.Rows)/total)
		a.Nodes++
		a.Misses = append(a.Misses, fmt.Sprintf("%s: not in the snapshot, true %d", t.Prefix, t.Rows))
	}
	if len(widths) > 0 {
		slices.Sort(widths)
		a.Width = widths[len(widths)/2]
	}
	return a
}
