package diagnose

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Finding kinds from a traffic recording: what an application's calls
// did, which a scan of what is stored cannot show.
const (
	// KindReadHotspot is a narrow key range that takes a disproportionate
	// share of the rows read.
	KindReadHotspot Kind = "read-hotspot"
	// KindWriteHotspot is a narrow key range that takes a disproportionate
	// share of the rows written.
	KindWriteHotspot Kind = "write-hotspot"
	// KindHotRow is one row that takes a large share of all reads or all
	// writes: a config row every server polls, a counter every request
	// increments.
	KindHotRow Kind = "hot-row"
	// KindSequentialWrites is write traffic that marches through the key
	// space over time: the Key Visualizer diagonal, from real writes.
	KindSequentialWrites Kind = "sequential-writes"
	// KindHeavyScan is a scan that reads most of the table, again and
	// again.
	KindHeavyScan Kind = "heavy-scan"
)

// Thresholds of the traffic findings. The hotspot rules are
// hot-key-range's ([hotMinShare], [hotMinFairFactor]) over operations.
const (
	// trafficMinSiblings is the fewest siblings a range needs for the
	// sibling rule on traffic: with fewer, a factor of [hotMinFairFactor]
	// over a fair share cannot be reached.
	trafficMinSiblings = 4
	// trafficMinRows is the fewest rows read or written a range (or row)
	// must take before its share means anything.
	trafficMinRows = 100
	// hotRowMinShare is the share of all reads, or of all writes, one row
	// must take: a tenth of the traffic on one row is served by one node
	// whatever the cluster's size.
	hotRowMinShare = 0.1
	// sequentialMinBuckets is how many moments with writes the
	// sequential-writes rule needs; the key position of each moment's
	// writes must follow time as closely as sequential-keys asks
	// ([sequentialMinCorrelation]).
	sequentialMinBuckets = 8
	// sequentialMinConcentration is the share of each moment's writes
	// that must land in the moment's busiest tenth of the key space: the
	// writes go to one place at a time, not everywhere.
	sequentialMinConcentration = 0.5
	// heavyScanMinCalls is how often a scan must repeat, and
	// heavyScanMinShare how much of the table it must read each time.
	heavyScanMinCalls = 3
	heavyScanMinShare = 0.5
)

// trafficMeasure is what a traffic hotspot rule counts: rows read or rows
// written.
type trafficMeasure struct {
	kind   Kind
	verb   string
	counts func(c *keyspace.OpCounts) float64
	hist   func(t *keyspace.NodeTraffic) *keyspace.TimeHist
}

var (
	readMeasure = trafficMeasure{KindReadHotspot, "reads", func(c *keyspace.OpCounts) float64 { return max(c.RowsRead, c.PointReads) },
		func(t *keyspace.NodeTraffic) *keyspace.TimeHist { return &t.Time.RowsRead }}
	writeMeasure = trafficMeasure{KindWriteHotspot, "writes", func(c *keyspace.OpCounts) float64 { return c.RowsWritten },
		func(t *keyspace.NodeTraffic) *keyspace.TimeHist { return &t.Time.RowsWritten }}
)

// checkTraffic raises the findings of a traffic recording.
func checkTraffic(d *diagnosis) []Finding {
	if !d.snap.HasTraffic() || d.root.Traffic == nil {
		return nil
	}
	var findings []Finding
	for _, m := range []trafficMeasure{readMeasure, writeMeasure} {
		findings = append(findings, d.trafficHotspots(m)...)
	}
	findings = append(findings, foldHotRows(findings, d.hotRows())...)
	findings = append(findings, d.sequentialWrites()...)
	findings = append(findings, d.heavyScans()...)
	return findings
}

// trafficCandidate is a node whose traffic is disproportionate.
type trafficCandidate struct {
	node, parent *keyspace.Node
	share        float64 // of the table's reads or writes
	factor       float64 // over its fair share, or over its share of the rows
	siblings     int
	byRows       bool // the factor is over its share of the stored rows
}

// trafficHotspots returns the narrowest nodes that take at least
// [hotMinShare] of the table's reads (or writes) and at least
// [hotMinFairFactor] times their share, as hot-key-range's two rules
// measure it: a fair share among their siblings (at least
// [hotMinSiblings] of them when a scan is joined, which tells a big
// tenant from a hot one; [trafficMinSiblings] for a recording alone), or,
// when a scan is joined, their share of the stored rows (the range rule:
// their share of the key space, at any fan-out).
func (d *diagnosis) trafficHotspots(m trafficMeasure) []Finding {
	total := m.counts(&d.root.Traffic.OpCounts)
	if total < trafficMinRows {
		return nil
	}
	var candidates []trafficCandidate
	var walk func(parent *keyspace.Node)
	walk = func(parent *keyspace.Node) {
		for _, child := range parent.Children {
			if child.Traffic != nil && parent.Traffic != nil {
				if c, ok := d.trafficCandidate(m, parent, child, total); ok {
					candidates = append(candidates, c)
				}
				walk(child)
			}
		}
	}
	walk(d.root)
	var findings []Finding
	for _, c := range candidates {
		narrower := slices.ContainsFunc(candidates, func(other trafficCandidate) bool {
			return other.node != c.node && other.node.Depth > c.node.Depth && c.node.Contains(string(other.node.Start))
		})
		if !narrower && !d.oneRowExplains(m, c.node) {
			findings = append(findings, d.trafficHotFinding(m, c))
		}
	}
	return findings
}

// siblingsOf returns the children of parent in child's dataset: all of
// them, unless the table holds several datasets whose top-level nodes
// sit side by side under parent.
func (d *diagnosis) siblingsOf(parent, child *keyspace.Node) []*keyspace.Node {
	if d.datasets == nil || len(d.datasets.list) <= 1 {
		return parent.Children
	}
	datasetOf := func(n *keyspace.Node) int {
		first, _, ok := n.KeyBounds()
		if !ok {
			first = n.Start
		}
		return d.datasets.of(string(first))
	}
	mine := datasetOf(child)
	var siblings []*keyspace.Node
	for _, c := range parent.Children {
		if datasetOf(c) == mine {
			siblings = append(siblings, c)
		}
	}
	return siblings
}

// trafficCandidate measures child against the table and its siblings in
// its dataset.
func (d *diagnosis) trafficCandidate(m trafficMeasure, parent, child *keyspace.Node, total float64) (trafficCandidate, bool) {
	amount := m.counts(&child.Traffic.OpCounts)
	siblings := d.siblingsOf(parent, child)
	c := trafficCandidate{node: child, parent: parent, share: share(amount, total), siblings: len(siblings)}
	if c.share < hotMinShare || amount < trafficMinRows {
		return c, false
	}
	minSiblings := trafficMinSiblings
	if d.root.Rows > 0 {
		minSiblings = hotMinSiblings
	}
	if c.siblings >= minSiblings {
		var siblingsAmount float64
		for _, s := range siblings {
			if s.Traffic != nil {
				siblingsAmount += m.counts(&s.Traffic.OpCounts)
			}
		}
		c.factor = share(amount, siblingsAmount) * float64(c.siblings)
		if c.factor >= hotMinFairFactor {
			return c, true
		}
	}
	if d.root.Rows == 0 {
		return c, false
	}
	// Joined with a scan: the share of the key space is the share of the
	// stored rows (Bigtable splits tablets by size).
	c.byRows = true
	c.factor = math.Inf(1)
	if rowShare := share(child.Rows, d.root.Rows); rowShare > 0 {
		c.factor = c.share / rowShare
	}
	return c, c.factor >= hotMinFairFactor
}

// countedText says what a hotspot's count is: rows written; rows read; or,
// where more point reads were made than rows came back (reads of rows
// that do not exist return none), point reads, with the rows returned.
func countedText(m trafficMeasure, c *keyspace.OpCounts) string {
	switch {
	case m.kind == KindWriteHotspot:
		return units.Count(c.RowsWritten) + " rows written"
	case c.PointReads > c.RowsRead:
		return fmt.Sprintf("%s point reads, which returned %s rows", units.Count(c.PointReads), units.Count(c.RowsRead))
	}
	return units.Count(c.RowsRead) + " rows read"
}

// oneRowExplains reports whether a single hot row takes most of the
// node's reads or writes: hot-row says that better.
func (d *diagnosis) oneRowExplains(m trafficMeasure, n *keyspace.Node) bool {
	rows := d.snap.Traffic.TopReads
	if m.kind == KindWriteHotspot {
		rows = d.snap.Traffic.TopWrites
	}
	amount := m.counts(&n.Traffic.OpCounts)
	for _, r := range rows {
		if n.Contains(string(r.Key)) && r.Count-r.Error >= singleRowWriteShareOf*amount {
			return true
		}
	}
	return false
}

// singleRowWriteShareOf: when one row takes at least this share of a
// range's reads or writes, the traffic is that row's business.
const singleRowWriteShareOf = 0.5

func (d *diagnosis) trafficHotFinding(m trafficMeasure, c trafficCandidate) Finding {
	what := "prefix"
	if c.node.Kind == keyspace.KindRow {
		what = "row"
	}
	against := fmt.Sprintf("%.0f times a fair share among %d siblings under %s", c.factor, c.siblings, quoteKey(string(c.parent.Prefix)))
	if c.byRows {
		rowShare := share(c.node.Rows, d.root.Rows)
		against = fmt.Sprintf("it holds %s of the rows", units.Percent(rowShare))
		if !math.IsInf(c.factor, 1) {
			against += fmt.Sprintf(", so it takes %.0f times its share of the key space", c.factor)
		}
	}
	summary := fmt.Sprintf("%s %s takes %s of the recorded %s (%s): %s",
		what, printable(string(c.node.Prefix)), units.Percent(c.share), m.verb, countedText(m, &c.node.Traffic.OpCounts), against)
	evidence := Evidence{}
	evidence.set(m.verb[:len(m.verb)-1]+"_share", c.share)
	evidence.set(m.verb, m.counts(&c.node.Traffic.OpCounts))
	if m.kind == KindReadHotspot {
		evidence.set("point_reads", c.node.Traffic.PointReads)
		evidence.set("rows_read", c.node.Traffic.RowsRead)
	}
	if !math.IsInf(c.factor, 1) {
		evidence.set("factor", c.factor)
	}
	evidence.set("siblings", float64(c.siblings))
	evidence.set("min_share", hotMinShare)
	evidence.set("min_factor", hotMinFairFactor)
	lead := saltLead
	if m.kind == KindReadHotspot {
		lead = "Every read of this range goes to the node serving its tablets. If the same rows are read again and again, " +
			"cache them in the application (a short TTL is often enough) or read them from a replica cluster with an app " +
			"profile of their own. If the reads are of many distinct rows, spread them over the key space by salting: "
	}
	f := nodeFinding(Finding{Kind: m.kind, Severity: SeverityWarning, Summary: summary, Evidence: evidence}, c.node)
	d.planSalt(&f, c.node, c.share, lead)
	return f
}

// hotRows raises hot-row for each row whose reads or writes are, at
// least (the hot-row counter's lower bound), [hotRowMinShare] of the
// table's.
func (d *diagnosis) hotRows() []Finding {
	t := d.snap.Traffic
	totals := &d.root.Traffic.OpCounts
	var findings []Finding
	for _, list := range []struct {
		rows  []keyspace.HotRow
		total float64
		verb  string
	}{{t.TopReads, readMeasure.counts(totals), "reads"}, {t.TopWrites, totals.RowsWritten, "writes"}} {
		for _, r := range list.rows {
			low := r.Count - r.Error
			if list.total < trafficMinRows || low < trafficMinRows || low < hotRowMinShare*list.total {
				continue
			}
			findings = append(findings, hotRowFinding(r, low/list.total, list.verb))
		}
	}
	return findings
}

// foldHotRows returns the hot rows that no read-hotspot (write-hotspot)
// of the same verb already covers, and names the covered ones in the
// hotspot that covers them: the reads of a celebrity's posts are one
// finding, the user's range, with its hottest rows in its summary and
// evidence, not five more for five adjacent posts. (A range that one row
// explains raises no hotspot: that row stays a hot-row of its own.)
func foldHotRows(hotspots, rows []Finding) []Finding {
	var kept []Finding
	covered := map[int][]Finding{}
	for _, row := range rows {
		kind := KindReadHotspot
		if _, ok := row.Evidence["writes"]; ok {
			kind = KindWriteHotspot
		}
		i := slices.IndexFunc(hotspots, func(h Finding) bool {
			return h.Kind == kind && string(row.Prefix) >= string(h.Start) && (h.End == "" || string(row.Prefix) < string(h.End))
		})
		if i < 0 {
			kept = append(kept, row)
			continue
		}
		covered[i] = append(covered[i], row)
	}
	for i, rows := range covered {
		h := &hotspots[i]
		verb := "reads"
		if h.Kind == KindWriteHotspot {
			verb = "writes"
		}
		var names []string
		for _, row := range rows[:min(len(rows), foldedRowsNamed)] {
			names = append(names, fmt.Sprintf("%s (%s)", printable(string(row.Prefix)), units.Percent(row.Evidence[verb[:len(verb)-1]+"_share"])))
		}
		if len(rows) > foldedRowsNamed {
			names = append(names, fmt.Sprintf("and %d more", len(rows)-foldedRowsNamed))
		}
		h.Summary += fmt.Sprintf("; in it, %s each take at least %s of all %s: %s",
			units.Plural(int64(len(rows)), "row"), units.Percent(hotRowMinShare), verb, strings.Join(names, ", "))
		if len(rows) == 1 {
			h.Summary = strings.Replace(h.Summary, "1 row each take", "1 row takes", 1)
		}
		h.Evidence.set("hot_rows", float64(len(rows)))
	}
	return kept
}

// foldedRowsNamed is how many of the hot rows a hotspot covers its
// summary names.
const foldedRowsNamed = 3

func hotRowFinding(r keyspace.HotRow, rowShare float64, verb string) Finding {
	advice := "A row read this often is served by one node however large the cluster: cache it in the application " +
		"(a config or feature-flag row rarely needs to be read more than once a few seconds per server), or keep " +
		"several copies under different keys and read one at random."
	if verb == "writes" {
		advice = "A row written this often is one node's work and grows with versions: spread it over N rows " +
			"(a counter as N shard rows, key#0 … key#N-1, each incremented at random and summed on read), or keep " +
			"the running value in memory and write it every few seconds; write a new row per event when the history matters."
	}
	evidence := Evidence{}
	evidence.set(verb[:len(verb)-1]+"_share", rowShare)
	evidence.set(verb, r.Count)
	evidence.set("count_error", r.Error)
	evidence.set("min_share", hotRowMinShare)
	summary := fmt.Sprintf("row %s takes %s of all recorded %s (%s)", printable(string(r.Key)), units.Percent(rowShare), verb, units.Count(r.Count))
	f := Finding{Kind: KindHotRow, Severity: SeverityWarning, Summary: summary, Advice: advice, Evidence: evidence, Prefix: r.Key}
	f.Start, f.End = rowRange(string(r.Key))
	return f
}

// sequentialWrites raises sequential-writes when, moment by moment, the
// recorded writes land in one narrow part of the key space that moves
// steadily forward: the rank correlation of time with the key position
// of each moment's writes is at least [sequentialMinCorrelation], over at
// least [sequentialMinBuckets] moments, with each moment's writes
// concentrated in a tenth of the key space.
func (d *diagnosis) sequentialWrites() []Finding {
	var leaves []*keyspace.Node
	d.root.Walk(func(n *keyspace.Node) bool {
		if n.IsLeaf() && n.Traffic != nil && n.Traffic.RowsWritten > 0 {
			leaves = append(leaves, n)
		}
		return true
	})
	if d.datasets == nil || len(d.datasets.list) <= 1 {
		start, end := d.tableWide()
		return d.marchingWrites(leaves, start, end, "")
	}
	// A table of several datasets: the writes of each march on their own.
	byDataset := make([][]*keyspace.Node, len(d.datasets.list))
	for _, n := range leaves {
		first, _, ok := n.KeyBounds()
		if !ok {
			first = n.Start
		}
		if i := d.datasets.of(string(first)); i >= 0 {
			byDataset[i] = append(byDataset[i], n)
		}
	}
	var findings []Finding
	for i, nodes := range byDataset {
		ds := &d.datasets.list[i]
		for _, f := range d.marchingWrites(nodes, ds.Start, ds.End, ds.Name) {
			f.Dataset, f.Prefix = ds.Name, ds.Prefix
			f.Summary = ds.lead() + f.Summary
			findings = append(findings, f)
		}
	}
	return findings
}

// marchingWrites raises sequential-writes for the writes of leaves (in
// key order), a finding at [start, end).
func (d *diagnosis) marchingWrites(leaves []*keyspace.Node, start, end keyspace.Key, dataset string) []Finding {
	var written float64
	for _, n := range leaves {
		written += n.Traffic.RowsWritten
	}
	if len(leaves) < sequentialMinBuckets || written < trafficMinRows {
		return nil
	}
	hist := &d.root.Traffic.Time.RowsWritten
	window := max(1, len(leaves)/10)
	var times, positions []float64
	concentrated, moments := 0, 0
	for b := hist.First; b < hist.Last(); b++ {
		perLeaf := make([]float64, len(leaves))
		var sum, weighted float64
		for i, n := range leaves {
			perLeaf[i] = n.Traffic.Time.RowsWritten.At(b)
			sum += perLeaf[i]
			weighted += float64(i) * perLeaf[i]
		}
		if sum == 0 {
			continue
		}
		moments++
		times = append(times, float64(b))
		positions = append(positions, weighted/sum)
		best := 0.0
		run := 0.0
		for i := range perLeaf {
			run += perLeaf[i]
			if i >= window {
				run -= perLeaf[i-window]
			}
			best = max(best, run)
		}
		if best >= sequentialMinConcentration*sum {
			concentrated++
		}
	}
	if moments < sequentialMinBuckets || float64(concentrated) < 0.8*float64(moments) {
		return nil
	}
	rho := spearman(times, positions)
	if rho < sequentialMinCorrelation {
		return nil
	}
	evidence := Evidence{}
	evidence.set("rank_correlation", rho)
	evidence.set("moments", float64(moments))
	evidence.set("concentrated_moments", float64(concentrated))
	evidence.set("min_rank_correlation", sequentialMinCorrelation)
	where := "the key space"
	if dataset != "" {
		where = "the dataset"
	}
	return []Finding{{
		Kind: KindSequentialWrites, Severity: SeverityWarning, Start: start, End: end,
		Summary: fmt.Sprintf("the recorded writes march through %s: in %d of %d moments they land in one tenth of it, "+
			"and where they land follows time (rank correlation %.2f); one tablet takes the writes of each moment", where, concentrated, moments, rho),
		Advice: "Writes keyed by time (a timestamp or an increasing ID first) all go to the end of the table. Lead the key " +
			"with a field of many values (device, user), reverse an increasing ID, or put the timestamp after the entity; " +
			"salting the key spreads the writes when nothing else can lead it.",
		Evidence: evidence,
	}}
}

// heavyScans raises heavy-scan for scanned ranges repeated at least
// [heavyScanMinCalls] times that return, each time, at least
// [heavyScanMinShare] of the table's rows (the stored rows when a scan is
// joined; else the whole table asked for).
func (d *diagnosis) heavyScans() []Finding {
	var findings []Finding
	for _, s := range d.snap.Traffic.TopScans {
		calls := s.Count - s.Error
		if calls < heavyScanMinCalls {
			continue
		}
		perCall := s.Rows / s.Count
		whole := s.Start == "" && s.End == ""
		readShare := 0.0
		if d.root.Rows > 0 {
			readShare = perCall / d.root.Rows
		}
		if !(readShare >= heavyScanMinShare || (d.root.Rows == 0 && whole && perCall > 0)) {
			continue
		}
		what := "the whole table"
		if !whole {
			what = fmt.Sprintf("[%s, %s)", printable(string(s.Start)), endText(s.End))
		}
		share := ""
		if readShare > 0 {
			share = fmt.Sprintf(", %s of the table's rows", units.Percent(min(readShare, 1)))
		}
		evidence := Evidence{}
		evidence.set("scans", s.Count)
		evidence.set("rows_per_scan", perCall)
		evidence.set("table_share_per_scan", readShare)
		evidence.set("min_scans", heavyScanMinCalls)
		evidence.set("min_share", heavyScanMinShare)
		findings = append(findings, Finding{
			Kind: KindHeavyScan, Severity: SeverityWarning, Start: s.Start, End: s.End,
			Summary: fmt.Sprintf("%s was scanned %s times, %s rows a scan%s", what, units.Count(s.Count), units.Count(perCall), share),
			Advice: "A scan of most of the table reads every tablet on every node, and repeated it competes with the serving " +
				"traffic. Read only the rows needed: design the key so that the query is a prefix or a narrow range (a " +
				"second table keyed for this query is common), cache the result, or run analytics through a Data Boost " +
				"app profile, which never touches the serving nodes.",
			Evidence: evidence,
		})
	}
	return findings
}

// endText writes a range end, naming the table's end.
func endText(end keyspace.Key) string {
	if end == "" {
		return "end of table"
	}
	return printable(string(end))
}
