package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// KindHotTablet is a tablet that Cloud Bigtable's ListHotTablets found
// using a large share of its node's CPU for a sustained time: a key range
// (or one row) the node mostly serves.
const KindHotTablet Kind = "hot-tablet"

// Thresholds of hot-tablet, on the node CPU percent ListHotTablets gives
// each sample (the tablet's share of its node's CPU, reads and writes,
// averaged over the sample).
const (
	// hotTabletWarnCPU: a tablet that takes half of its node's CPU leaves
	// the node's other tablets the other half. Below it a tablet is
	// background: the API lists many such, and they raise nothing.
	hotTabletWarnCPU = 50
	// hotTabletErrorCPU: Google recommends keeping a cluster's average
	// node CPU under 70% (single-cluster routing; see
	// BIGTABLE-KEYS.md's traffic signals); a tablet that alone holds its
	// node above that puts every other tablet on the node at risk of
	// latency.
	hotTabletErrorCPU = 70
	// hotTabletMinSamples is how many samples a tablet must hold its CPU
	// in: the API keeps at most one sample per tablet in 15 minutes, so 5
	// samples span an hour or more. A shorter burst (a batch job, a
	// backfill) is not a key design problem.
	hotTabletMinSamples = 5
)

// hotTabletGroup is the samples of one tablet: one cluster, one key range.
type hotTabletGroup struct {
	cluster    string
	start, end keyspace.Key // as the API gives them, both inclusive
	samples    []keyspace.HotTablet
}

// sustained returns the CPU the tablet held in at least
// [hotTabletMinSamples] samples (the 5th highest), and its peak.
func (g *hotTabletGroup) sustained() (sustained, peak float64) {
	cpus := make([]float64, len(g.samples))
	for i, s := range g.samples {
		cpus[i] = s.CPU
	}
	slices.Sort(cpus)
	slices.Reverse(cpus)
	if len(cpus) >= hotTabletMinSamples {
		sustained = cpus[hotTabletMinSamples-1]
	}
	return sustained, cpus[0]
}

// checkHotTablets raises hot-tablet for each tablet of the snapshot's hot
// tablets, on any cluster, that held at least [hotTabletWarnCPU] of its
// node's CPU in at least [hotTabletMinSamples] samples.
func checkHotTablets(d *diagnosis) []Finding {
	h := d.snap.HotTablets
	if h == nil {
		return nil
	}
	byTablet := map[[3]string]*hotTabletGroup{}
	var groups []*hotTabletGroup
	for _, t := range h.Tablets {
		if t.Table != d.snap.Table {
			continue
		}
		k := [3]string{t.Cluster, string(t.StartKey), string(t.EndKey)}
		g := byTablet[k]
		if g == nil {
			g = &hotTabletGroup{cluster: t.Cluster, start: t.StartKey, end: t.EndKey}
			byTablet[k] = g
			groups = append(groups, g)
		}
		g.samples = append(g.samples, t)
	}
	slices.SortFunc(groups, func(a, b *hotTabletGroup) int {
		return cmp.Or(strings.Compare(a.cluster, b.cluster), strings.Compare(string(a.start), string(b.start)), strings.Compare(string(a.end), string(b.end)))
	})
	var findings []Finding
	for _, g := range groups {
		if f, ok := d.hotTabletFinding(g, h.Simulated()); ok {
			findings = append(findings, f)
		}
	}
	return findings
}

// hotTabletFinding measures one tablet against the thresholds.
func (d *diagnosis) hotTabletFinding(g *hotTabletGroup, simulated bool) (Finding, bool) {
	sustained, peak := g.sustained()
	if sustained < hotTabletWarnCPU {
		return Finding{}, false
	}
	severity := SeverityWarning
	if sustained >= hotTabletErrorCPU {
		severity = SeverityError
	}
	first, last := g.samples[0].Start, g.samples[0].End
	hot, minutes := 0, 0.0
	for _, s := range g.samples {
		if s.Start.Before(first) {
			first = s.Start
		}
		if s.End.After(last) {
			last = s.End
		}
		if s.CPU >= hotTabletWarnCPU {
			hot++
		}
		minutes += s.Minutes()
	}
	sample := g.samples[0]
	start, end := sample.Range()
	row, oneRow := sample.OneRow()
	f := Finding{Kind: KindHotTablet, Severity: severity, Start: keyspace.Key(start), End: keyspace.Key(end)}
	var what string
	if oneRow {
		f.Prefix = row
		what = "the one-row tablet of row " + printable(string(row))
	} else {
		f.Prefix = keyspace.Key(keyspace.CommonPrefix(string(g.start), string(g.end)))
		what = fmt.Sprintf("tablet [%s, %s]", tabletKey(string(g.start), "(table start)"), tabletKey(string(g.end), "(table end)"))
	}
	summary := fmt.Sprintf("%s on cluster %s used %s of its node's CPU at its peak and at least %s in %d of its %d samples, between %s and %s",
		what, g.cluster, units.Percent(peak/100), units.Percent(sustained/100), hot, len(g.samples), utcMinute(first), utcMinute(last))
	if simulated {
		summary = "SIMULATED (computed from recorded operations, not Cloud Bigtable's): " + summary
	}
	holds, evidence := d.tabletHolds(start, end, oneRow, row)
	if holds != "" {
		summary += "; " + holds
	}
	evidence.set("peak_cpu", peak)
	evidence.set("sustained_cpu", sustained)
	evidence.set("samples", float64(len(g.samples)))
	evidence.set("hot_samples", float64(hot))
	evidence.set("sample_minutes", minutes)
	evidence.set("min_cpu", hotTabletWarnCPU)
	evidence.set("error_cpu", hotTabletErrorCPU)
	evidence.set("min_samples", hotTabletMinSamples)
	evidence.set("first_seen_unix", float64(first.Unix()))
	evidence.set("last_seen_unix", float64(last.Unix()))
	if simulated {
		evidence.set("simulated", 1)
	}
	f.Summary, f.Evidence = summary, evidence
	f.Advice = hotTabletAdvice(oneRow, sustained)
	return f, true
}

// tabletKey writes a tablet's bound for a summary, empty as what it
// stands for.
func tabletKey(key, empty string) string {
	if key == "" {
		return empty
	}
	return printable(key)
}

// utcMinute writes a time to the minute, in UTC.
func utcMinute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04Z") }

// tabletHolds says what the scan found in [start, end): the prefixes (or
// the row) and datasets it covers, with their rows and bytes. Without a
// scan it says nothing and the evidence is empty.
func (d *diagnosis) tabletHolds(start, end string, oneRow bool, row keyspace.Key) (string, Evidence) {
	evidence := Evidence{}
	if d.root.Rows <= 0 {
		return "", evidence
	}
	stats, exact := keyspace.RangeStats(d.root, start, end)
	if oneRow {
		return d.rowHolds(row, stats, exact, start, end)
	}
	evidence.set("rows", stats.Rows)
	evidence.set("bytes", stats.Bytes)
	evidence.set("row_share", share(stats.Rows, d.root.Rows))
	at := "at least "
	if exact {
		at = ""
	}
	text := fmt.Sprintf("it holds %s%s rows (%s of the table) and %s", at, units.Count(stats.Rows), units.Percent(share(stats.Rows, d.root.Rows)), units.Bytes(stats.Bytes))
	if names := coveredPrefixes(d.root, start, end); len(names) > 0 {
		text += " under " + strings.Join(names, ", ")
	}
	if sets := d.datasetsIn(start, end); len(sets) > 0 {
		word := "dataset"
		if len(sets) > 1 {
			word = "datasets"
		}
		text += fmt.Sprintf(" (%s %s)", word, strings.Join(sets, ", "))
	}
	return text, evidence
}

// rowHolds says what the scan found of the one row of a hot tablet: the
// row's own size when the scan kept it among the largest rows, the range's
// rows when the tree resolves them, that the scan did not find it only
// when the tree places every row around it (exact), and otherwise where it
// lies, as the tree counts groups of rows, not each row.
func (d *diagnosis) rowHolds(row keyspace.Key, stats keyspace.Stats, exact bool, start, end string) (string, Evidence) {
	evidence := Evidence{}
	for _, r := range slices.Concat(d.snap.Largest, d.snap.MostVersioned) {
		if r.Key == row {
			evidence.set("rows", 1)
			evidence.set("bytes", float64(r.Bytes))
			return fmt.Sprintf("the row holds %s in %s cells (one of the table's largest rows)", units.Bytes(float64(r.Bytes)), units.Count(float64(r.Cells))), evidence
		}
	}
	switch {
	case stats.Rows > 0:
		evidence.set("rows", stats.Rows)
		evidence.set("bytes", stats.Bytes)
		return fmt.Sprintf("the row holds %s in %s cells", units.Bytes(stats.Bytes), units.Count(stats.Cells)), evidence
	case exact:
		evidence.set("rows", 0)
		return "the scan did not find the row (written after it, or deleted)", evidence
	}
	return "the scan counts the rows around it together, not this one row, under " + strings.Join(coveredPrefixes(d.root, start, end), ", "), evidence
}

// wholePrefixShare is the share of a prefix's rows a hot tablet must
// cover for its summary to name the prefix rather than its children.
const wholePrefixShare = 0.9

// maxNamedPrefixes is how many prefixes a hot tablet's summary names.
const maxNamedPrefixes = 4

// coveredPrefixes names the prefixes a key range covers: the children of
// the deepest node that holds it which meet it, the most rows first.
func coveredPrefixes(root *keyspace.Node, start, end string) []string {
	holder := root
	for {
		var next *keyspace.Node
		for _, c := range holder.Children {
			if c.Start <= keyspace.Key(start) && !keyspace.EndBefore(string(c.End), end) {
				next = c
			}
		}
		if next == nil || next.Kind != keyspace.KindPrefix {
			if next != nil {
				return []string{printable(string(next.Prefix))}
			}
			break
		}
		holder = next
	}
	if holder != root {
		// A tablet cut at its prefix's first and last rows rather than at
		// the prefix's bounds still covers the prefix: name it, not its
		// children.
		if in, _ := keyspace.RangeStats(holder, start, end); holder.Rows > 0 && in.Rows >= wholePrefixShare*holder.Rows {
			return []string{printable(string(holder.Prefix))}
		}
	}
	var met []*keyspace.Node
	for _, c := range holder.Children {
		if (end == "" || string(c.Start) < end) && (c.End == "" || start < string(c.End)) && c.Rows > 0 {
			met = append(met, c)
		}
	}
	if len(met) == 0 {
		return []string{printable(string(holder.Prefix))}
	}
	slices.SortStableFunc(met, func(a, b *keyspace.Node) int { return cmp.Compare(b.Rows, a.Rows) })
	var names []string
	for i, c := range met {
		if i == maxNamedPrefixes {
			names = append(names, fmt.Sprintf("and %d more", len(met)-i))
			break
		}
		names = append(names, printable(string(c.Prefix)))
	}
	return names
}

// datasetsIn names the table's datasets ([Datasets]) whose keys a key
// range meets.
func (d *diagnosis) datasetsIn(start, end string) []string {
	if d.datasets == nil {
		return nil
	}
	var names []string
	for _, ds := range d.datasets.list {
		if (end == "" || string(ds.Start) < end) && (ds.End == "" || start < string(ds.End)) {
			names = append(names, ds.Name)
		}
	}
	return names
}

// hotTabletAdvice says what to do about a hot tablet, in our own words
// after the schema guide.
func hotTabletAdvice(oneRow bool, sustained float64) string {
	if oneRow {
		return "One row is most of what its node does, and a row cannot be split across nodes, so adding nodes does not help. " +
			"If the row is read again and again (a configuration or a popular item), cache it in the application, or serve its reads from " +
			"a replica cluster through an app profile of their own. If it is written again and again (a counter, a status), write a new row " +
			"per event (the key followed by a timestamp), keep the running count in memory and flush it now and then, or spread it over a few " +
			"rows (key#0 … key#N−1, summed when read)."
	}
	advice := "Bigtable splits and moves tablets by load, so a tablet that stays hot is traffic on a key range too narrow to split further: " +
		"one entity (a celebrity user, a busy device), or the newest keys of a design that leads with a timestamp or a rising ID. " +
		"Spread the range: put a salt before the key (a hash of the key, or of the key without its timestamp, mod N), or lead the key with " +
		"a field of many values; cache what is read again and again."
	if sustained >= hotTabletErrorCPU {
		advice += " At this load the node's other tablets wait too: act before the traffic grows."
	}
	return advice
}
