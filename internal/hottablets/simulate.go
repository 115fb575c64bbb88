package hottablets

import (
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// The simulation's model of a node, for the demo. Cloud Bigtable's
// guides put a node at about 10,000 reads or writes of 1 KB rows a
// second; the demo's load generator makes 200 calls a second, so its
// simulated node is one that 400 units of work a second fill (an
// operation, a row read and a row written each count one), so that a
// range taking most of the demo's traffic is as hot as a hotspot of a
// real cluster's. Like ListHotTablets, it lists one sample per tablet per
// minute, and only tablets at or above SimulatedMinCPU.
const (
	SimulatedNodeUnitsPerSecond = 400
	SimulatedMinCPU             = 10
	// simulatedRowSplitShare: a row that takes a quarter of its tablet's
	// work is a tablet of its own, as Cloud Bigtable splits tablets by
	// load down to one row.
	simulatedRowSplitShare = 0.25
	// simulatedTablets is how many tablets the key space is cut into when
	// the scan's ranges are not tablets (an emulator's samples).
	simulatedTablets = 16
	// SimulatedCluster is the name of the simulated cluster.
	SimulatedCluster = "simulated"
)

// SimulatedNote says how simulated hot tablets are made, wherever they
// are shown.
var SimulatedNote = fmt.Sprintf("simulated by btviz from the recorded operations, not Cloud Bigtable's: a node does %d units of work a second "+
	"(an operation, a row read, a row written), one sample per tablet per minute, samples under %d%% left out, a row taking a quarter of its tablet's work a tablet of its own",
	SimulatedNodeUnitsPerSecond, SimulatedMinCPU)

// simTablet is one tablet of the simulation: its range [start, end),
// the inclusive end key a hot tablet names, and its work per minute.
type simTablet struct {
	start, end string
	endKey     keyspace.Key
	work       map[int64]float64 // minute → units
}

// Simulate computes hot tablets of snap's table from its recorded traffic
// (snap is a recording joined with a scan, whose ranges are the tablets
// when [keyspace.Snapshot.RangesAreTablets], as on Cloud Bigtable or the
// demo's Cloud-like emulator; otherwise the key space is cut into 16
// tablets of equal rows). Each tablet's work (operations, rows read, rows
// written) per minute becomes its node's CPU at
// [SimulatedNodeUnitsPerSecond]; a row that takes a quarter of its
// tablet's work is cut out as a one-row tablet, as Cloud Bigtable splits
// by load. The minute now falls in counts the seconds recorded so far.
// The result is labelled simulated ([keyspace.HotTabletsSimulated]).
func Simulate(snap *keyspace.Snapshot, now time.Time) *keyspace.HotTablets {
	out := &keyspace.HotTablets{Source: keyspace.HotTabletsSimulated, Project: snap.Project, Instance: snap.Instance,
		Clusters: []string{SimulatedCluster}, Note: SimulatedNote}
	if !snap.HasTraffic() || snap.Root == nil || snap.Root.Traffic == nil {
		return keyspace.NewHotTablets(*out)
	}
	first, last, micros := snap.TrafficSpan()
	began := time.UnixMicro(first * micros).UTC()
	if started := snap.Traffic.Started; !started.IsZero() && started.After(began) {
		began = started.UTC() // the recording's own start, within its first bucket
	}
	out.From = began.Truncate(time.Minute)
	out.To = time.UnixMicro(last * micros).UTC()
	if now.After(out.To) {
		out.To = now.UTC()
	}
	tablets := simTablets(snap)
	for _, t := range tablets {
		t.work = workByMinute(keyspace.RangeTraffic(snap.Root, t.start, t.end), micros)
	}
	tablets = append(tablets, splitHotRows(snap, tablets, micros)...)
	for _, t := range tablets {
		for minute, units := range t.work {
			start := time.Unix(minute*60, 0).UTC()
			// The seconds of the minute that were recorded: the first
			// and the current minute are partial.
			from, to := start, start.Add(time.Minute)
			if began.After(from) {
				from = began
			}
			if out.To.Before(to) {
				to = out.To
			}
			seconds := max(to.Sub(from).Seconds(), 1)
			cpu := min(100*units/(SimulatedNodeUnitsPerSecond*seconds), 100)
			if cpu < SimulatedMinCPU {
				continue
			}
			out.Tablets = append(out.Tablets, keyspace.HotTablet{Cluster: SimulatedCluster, Table: snap.Table,
				StartKey: keyspace.Key(t.start), EndKey: t.endKey, Start: start, End: start.Add(time.Minute), CPU: float64(int(cpu*100)) / 100})
		}
	}
	return keyspace.NewHotTablets(*out)
}

// simTablets returns the tablets of snap: its ranges when they are
// tablets, else the ranges grouped into [simulatedTablets] of about
// equal rows.
func simTablets(snap *keyspace.Snapshot) []*simTablet {
	ranges := snap.Ranges
	if len(ranges) == 0 {
		return []*simTablet{{start: "", end: "", endKey: lastKeyIn(snap, "", "")}}
	}
	var cuts []int // the first range of each tablet
	if snap.RangesAreTablets {
		for i := range ranges {
			cuts = append(cuts, i)
		}
	} else {
		total := 0.0
		for i := range ranges {
			total += ranges[i].Rows
		}
		seen, next := 0.0, 0.0
		for i := range ranges {
			if i == 0 || seen >= next {
				cuts = append(cuts, i)
				next = seen + total/simulatedTablets
			}
			seen += ranges[i].Rows
		}
	}
	var out []*simTablet
	for k, i := range cuts {
		end := ""
		if k+1 < len(cuts) {
			end = string(ranges[cuts[k+1]].Start)
		} else {
			end = string(ranges[len(ranges)-1].End)
		}
		start := string(ranges[i].Start)
		out = append(out, &simTablet{start: start, end: end, endKey: lastKeyIn(snap, start, end)})
	}
	return out
}

// lastKeyIn returns the inclusive end key a hot tablet over [start, end)
// names: the last key the scan or the traffic saw there (empty at the end
// of the table, as the API's last tablet).
func lastKeyIn(snap *keyspace.Snapshot, start, end string) keyspace.Key {
	if end == "" {
		return ""
	}
	last := keyspace.Key(start)
	if stats, _ := keyspace.RangeStats(snap.Root, start, end); stats.Rows > 0 {
		last = max(last, stats.LastKey)
	}
	if t := keyspace.RangeTraffic(snap.Root, start, end); t != nil && t.LastKey != "" {
		last = max(last, t.LastKey)
	}
	return last
}

// workByMinute sums a range's work (operations, rows read, rows written)
// per minute, from its histograms of buckets micros wide: a bucket wider
// than a minute is spread evenly over the minutes it covers.
func workByMinute(t *keyspace.NodeTraffic, micros int64) map[int64]float64 {
	work := map[int64]float64{}
	if t == nil || micros <= 0 {
		return work
	}
	for _, h := range []*keyspace.TimeHist{&t.Time.Ops, &t.Time.RowsRead, &t.Time.RowsWritten} {
		for j, c := range h.Counts {
			if c == 0 {
				continue
			}
			start := time.UnixMicro((h.First + int64(j)) * micros)
			first := start.Truncate(time.Minute).Unix() / 60
			last := start.Add(time.Duration(micros-1)*time.Microsecond).Truncate(time.Minute).Unix() / 60
			for m := first; m <= last; m++ {
				work[m] += c / float64(last-first+1)
			}
		}
	}
	return work
}

// splitHotRows cuts each row that takes a quarter of its tablet's work
// out of it as a one-row tablet and returns those.
func splitHotRows(snap *keyspace.Snapshot, tablets []*simTablet, micros int64) []*simTablet {
	var rows []keyspace.Key
	for _, r := range keyspace.RepeatedRows(snap.Traffic.TopReads) {
		rows = append(rows, r.Key)
	}
	for _, r := range keyspace.RepeatedRows(snap.Traffic.TopWrites) {
		rows = append(rows, r.Key)
	}
	slices.Sort(rows)
	rows = slices.Compact(rows)
	var out []*simTablet
	for _, row := range rows {
		path := snap.Root.Lookup(string(row))
		if path == nil || path[len(path)-1].Kind != keyspace.KindRow || path[len(path)-1].Traffic == nil {
			continue
		}
		work := workByMinute(path[len(path)-1].Traffic, micros)
		i := slices.IndexFunc(tablets, func(t *simTablet) bool { return keyspace.InRange(string(row), t.start, t.end) })
		if i < 0 || total(work) < simulatedRowSplitShare*total(tablets[i].work) || tablets[i].end == string(row)+"\x00" {
			continue
		}
		for m, w := range work {
			tablets[i].work[m] = max(tablets[i].work[m]-w, 0)
		}
		out = append(out, &simTablet{start: string(row), end: string(row) + "\x00", endKey: row + "\x00", work: work})
	}
	return out
}

// total sums a work map.
func total(work map[int64]float64) float64 {
	sum := 0.0
	for _, w := range work {
		sum += w
	}
	return sum
}
