package heatmap

import (
	"github.com/btviz/btviz/internal/keyspace"
)

// unitKind says what a [unit] stands for.
type unitKind uint8

const (
	unitNode      unitKind = iota // a tree node
	unitRemainder                 // rows of a node that none of its children holds
	unitTablet                    // a SampleRowKeys range
	unitEmpty                     // a key range without rows
)

// unit is the smallest piece of key space a bucketing mode places: its key
// range starts at start and ends where the next unit starts.
type unit struct {
	kind   unitKind
	node   *keyspace.Node // the node, or the remainder's parent
	start  string
	end    string // the unit's own end ("" for the end of the table)
	stats  *keyspace.Stats
	writes *keyspace.TimeHist
	// traffic is the unit's recorded traffic, nil without a recording.
	traffic *keyspace.NodeTraffic
	// cpu is the unit's hot-tablet CPU (percent-minutes per bucket of
	// their grid), nil without hot tablets.
	cpu *keyspace.TimeHist
}

// cpuTotal returns the unit's hot-tablet CPU in percent-minutes.
func (u *unit) cpuTotal() float64 {
	if u.cpu == nil {
		return 0
	}
	return u.cpu.Total()
}

// latency returns the unit's latency sketch over the whole recording (nil
// without latencies).
func (u *unit) latency() *keyspace.LatencySketch {
	if u.traffic == nil || u.traffic.Latency == nil {
		return nil
	}
	s := u.traffic.Latency.Whole()
	return &s
}

// keyBounds returns the smallest and largest key the unit is known to
// hold, from its rows or its traffic.
func (u *unit) keyBounds() (first, last string, ok bool) {
	if u.stats.Rows > 0 {
		first, last, ok = string(u.stats.FirstKey), string(u.stats.LastKey), true
	}
	if t := u.traffic; t != nil && t.LastKey != "" {
		if !ok || string(t.FirstKey) < first {
			first = string(t.FirstKey)
		}
		if !ok || string(t.LastKey) > last {
			last = string(t.LastKey)
		}
		ok = true
	}
	return first, last, ok
}

func nodeUnit(n *keyspace.Node) unit {
	return unit{kind: unitNode, node: n, start: string(n.Start), end: string(n.End), stats: &n.Stats, writes: &n.Writes, traffic: n.Traffic, cpu: n.CPU}
}

// remainderUnit is the unit of the rows of n that none of its children
// holds ([keyspace.Node.Remainder]), placed before the first child,
// where a row keyed by the prefix itself sorts.
func remainderUnit(n *keyspace.Node) unit {
	stats, writes, traffic := n.Remainder()
	return unit{kind: unitRemainder, node: n, start: string(n.Start), end: string(n.Children[0].Start), stats: &stats, writes: &writes, traffic: traffic, cpu: n.RemainderCPU()}
}

// childUnits returns the units n splits into: the remainder (if any) and
// the children, in key order. A remainder that is only the traffic of
// scans wider than one child is drawn over the children whose rows the
// scans returned ([keyspace.Node.ChildTraffic]), not as a range of its
// own before the first child.
func childUnits(n *keyspace.Node, out []unit) []unit {
	spread, ok := n.ChildTraffic()
	if n.HasRemainder() && !ok {
		out = append(out, remainderUnit(n))
	}
	for i, c := range n.Children {
		u := nodeUnit(c)
		if ok {
			u.traffic = spread[i]
		}
		out = append(out, u)
	}
	return out
}

// collectUnits lists the units under the scope's anchor in key order. A
// unit with children is split further when split says so, or when it
// straddles a bound of a clipped scope; units outside the scope are left
// out. level is 1 for the anchor's children.
func collectUnits(sc scope, split func(u *unit, level int) bool) []unit {
	if sc.anchor.IsLeaf() {
		return []unit{nodeUnit(sc.anchor)}
	}
	var units []unit
	var walk func(n *keyspace.Node, level int)
	walk = func(n *keyspace.Node, level int) {
		for _, u := range childUnits(n, nil) {
			if !overlaps(u.start, u.end, sc.start, sc.end) {
				continue
			}
			inside := !sc.clipped || (u.start >= sc.start && !keyspace.EndBefore(sc.end, u.end))
			if u.kind == unitNode && !u.node.IsLeaf() && (!inside || split(&u, level)) {
				walk(u.node, level+1)
				continue
			}
			units = append(units, u)
		}
	}
	walk(sc.anchor, 1)
	return units
}

// overlaps reports whether [aStart, aEnd) and [bStart, bEnd) share a key,
// with "" as an end meaning the end of the table.
func overlaps(aStart, aEnd, bStart, bEnd string) bool {
	return (bEnd == "" || aStart < bEnd) && (aEnd == "" || bStart < aEnd)
}
