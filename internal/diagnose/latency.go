package diagnose

import (
	"fmt"
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// KindHighLatency is a key range whose recorded calls of one kind (point
// reads, scans, MutateRows calls …) are far slower at the median than the
// same kind of call on the rest of the table.
const KindHighLatency Kind = "high-latency"

// Thresholds of high-latency.
const (
	// highLatencyMinRatio: a range's median at least five times the
	// rest's. Calls of one kind on one table vary by a factor of two or
	// three with row sizes and load; five times is a range apart.
	highLatencyMinRatio = 5
	// highLatencyMinCalls is how many calls of the kind the range, and
	// the rest of the table, must have had: a median of a handful of calls
	// says little.
	highLatencyMinCalls = 100
)

// latencyCandidate is a node whose calls of one kind are slow.
type latencyCandidate struct {
	node       *keyspace.Node
	kind       string
	mine, rest keyspace.LatencySketch
	ratio      float64
}

// checkLatency raises high-latency for the narrowest key ranges whose
// calls of a kind are [highLatencyMinRatio] times slower at the median
// than the rest of the table's calls of that kind, over at least
// [highLatencyMinCalls] calls on each side.
func checkLatency(d *diagnosis) []Finding {
	if !d.snap.HasTraffic() || d.root.Traffic == nil || d.root.Traffic.Latency == nil {
		return nil
	}
	table := d.root.Traffic.Latency
	var candidates []latencyCandidate
	d.root.Walk(func(n *keyspace.Node) bool {
		if n == d.root {
			return true
		}
		if n.Traffic == nil || n.Traffic.Latency == nil {
			return false
		}
		for _, k := range n.Traffic.Latency.Kinds {
			if c, ok := slowRange(n, k.Kind, &k.Sketch, table.Kind(k.Kind)); ok {
				candidates = append(candidates, c)
			}
		}
		return true
	})
	var findings []Finding
	for _, c := range candidates {
		narrower := slices.ContainsFunc(candidates, func(o latencyCandidate) bool {
			return o.node != c.node && o.kind == c.kind && o.node.Depth > c.node.Depth && c.node.Contains(string(o.node.Start))
		})
		if !narrower {
			findings = append(findings, latencyFinding(c))
		}
	}
	return findings
}

// slowRange measures node n's calls of kind against the rest of the
// table's.
func slowRange(n *keyspace.Node, kind string, mine, table *keyspace.LatencySketch) (latencyCandidate, bool) {
	if table == nil || mine.Count() < highLatencyMinCalls {
		return latencyCandidate{}, false
	}
	rest := keyspace.LatencyRest(table, mine)
	if rest.Count() < highLatencyMinCalls {
		return latencyCandidate{}, false
	}
	m, r := mine.Median(), rest.Median()
	if r <= 0 || float64(m) < highLatencyMinRatio*float64(r) {
		return latencyCandidate{}, false
	}
	return latencyCandidate{node: n, kind: kind, mine: *mine, rest: rest, ratio: float64(m) / float64(r)}, true
}

// latencyFinding writes a high-latency finding.
func latencyFinding(c latencyCandidate) Finding {
	what := "prefix"
	switch c.node.Kind {
	case keyspace.KindRow:
		what = "row"
	case keyspace.KindRange:
		what = "key range"
	}
	m, r := c.mine.Median(), c.rest.Median()
	errBound := max(c.mine.RelativeError(), c.rest.RelativeError())
	summary := fmt.Sprintf("%s of %s %s took %s at the median over %s calls, %.1f times the %s of the rest of the table's %s (%s calls); slowest %s",
		keyspace.CallKindWords(c.kind), what, printable(string(c.node.Prefix)), units.Latency(m), units.Count(c.mine.Count()),
		c.ratio, units.Latency(r), keyspace.CallKindWords(c.kind), units.Count(c.rest.Count()), units.Latency(c.mine.Max()))
	if low := c.ratio * (1 - errBound) / (1 + errBound); low < highLatencyMinRatio {
		summary += fmt.Sprintf(" (the medians are within %s of the calls' latencies, so the ratio may be as low as %.1f)", units.Percent(errBound), low)
	}
	evidence := Evidence{}
	evidence.set("median_ns", float64(m))
	evidence.set("rest_median_ns", float64(r))
	evidence.set("max_ns", c.mine.MaxNs)
	evidence.set("calls", c.mine.Count())
	evidence.set("rest_calls", c.rest.Count())
	evidence.set("ratio", c.ratio)
	evidence.set("min_ratio", highLatencyMinRatio)
	evidence.set("min_calls", highLatencyMinCalls)
	evidence.set("relative_error", errBound)
	advice := "These calls wait far longer here than the same calls elsewhere in the table. Look at what the range holds and how it is " +
		"read: large or wide rows (read only the columns needed, or split the row), many versions of a cell (a garbage-collection " +
		"policy, or a filter that keeps the latest), scans that read far more than they return (a filter that drops most rows reads " +
		"them all), or a hotspot whose node is busy (spread the range). The latency is what the recording proxy saw, from the request " +
		"to the trailers: the upstream's time and the network to it, not the client's hop to the proxy."
	return nodeFinding(Finding{Kind: KindHighLatency, Severity: SeverityWarning, Summary: summary, Advice: advice, Evidence: evidence}, c.node)
}
