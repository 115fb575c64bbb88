package diagnose

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// diagnosis is what the checks share while diagnosing one snapshot, or
// one dataset of it.
type diagnosis struct {
	snap *keyspace.Snapshot
	// root is the node the checks start from: the table's root, or the
	// dataset's (its prefix node, or a node that gathers its top-level
	// nodes when its keys share no prefix).
	root    *keyspace.Node
	profile *keyProfile
	// recentFrom is the first absolute time bucket of the recent window
	// (see [recentWindowShare]).
	recentFrom int64
	// locations remembers [diagnosis.positionLocation]'s answer for each
	// field position, asked by several checks.
	locations map[*segmentPosition]Finding
	// datasets are the table's; scope is the one this diagnosis judges,
	// nil for the whole table. gathered is set when root gathers the
	// scope's top-level nodes, the tree having no node of its own for
	// it.
	datasets *datasetIndex
	scope    *Dataset
	gathered bool
	// salts collects the salting advice of hot ranges, made one per range
	// once every check has run ([diagnosis.adviseSalting]).
	salts *[]saltPlan
}

// Diagnose runs every check on snap and returns its findings, worst
// first (then in [Kinds] order, then by key). It is pure and
// deterministic; a nil or empty snapshot gives only the notes that apply.
//
// A table of several datasets ([Datasets]) is diagnosed dataset by
// dataset: the key-form and hotspot checks judge each dataset's keys on
// their own and name its range (and [Finding.Dataset]); a table-wide
// finding is made only when the table is one dataset.
func Diagnose(snap *keyspace.Snapshot) []Finding {
	return Run(snap).Findings
}

// Result is what [Run] finds in a snapshot: the findings [Diagnose]
// returns, and the datasets [Datasets] returns, found once for both.
type Result struct {
	Findings []Finding
	Datasets []Dataset
}

// Run diagnoses snap as [Diagnose] does, and returns the datasets it
// judged too: a report that lists both finds the datasets once, which
// costs about as much as the key-form checks themselves.
func Run(snap *keyspace.Snapshot) Result {
	if snap == nil {
		return Result{}
	}
	d := &diagnosis{snap: snap, root: snap.Root, profile: newKeyProfile(snap), salts: &[]saltPlan{}}
	if d.root == nil {
		d.root = &keyspace.Node{Kind: keyspace.KindPrefix}
	}
	d.recentFrom = recentFrom(&d.root.Writes)
	d.datasets = findDatasets(snap)
	var findings []Finding
	if len(d.datasets.list) <= 1 {
		for _, check := range checks() {
			findings = append(findings, check(d)...)
		}
		markUncertain(d, findings)
	} else {
		for i := range d.datasets.list {
			sub := d.forDataset(i)
			var found []Finding
			for _, check := range datasetChecks() {
				found = append(found, check(sub)...)
			}
			markUncertain(sub, found)
			findings = append(findings, sub.inDataset(found)...)
		}
		var found []Finding
		for _, check := range tableChecks() {
			found = append(found, check(d)...)
		}
		markUncertain(d, found)
		findings = append(findings, d.attribute(found)...)
	}
	d.adviseSalting(findings)
	sortFindings(findings)
	return Result{Findings: findings, Datasets: d.datasets.list}
}

// checks returns every check, each a function of the diagnosis that
// returns its findings: [datasetChecks], which judge one dataset's keys,
// and [tableChecks], which judge the table. With [Kinds] it is where a
// finding kind is registered: a new kind is its own file (the Kind, its
// thresholds, its check and advice) and a line in one of these lists and
// in Kinds.
func checks() []func(*diagnosis) []Finding {
	return append(datasetChecks(), tableChecks()...)
}

// datasetChecks are the checks of how one dataset's keys are formed and
// where its writes go: run on each dataset of a table that holds several.
func datasetChecks() []func(*diagnosis) []Finding {
	return []func(*diagnosis) []Finding{
		checkHotRanges,
		checkSequentialKeys,
		checkLeadingSegment,
		checkUnpaddedNumbers,
		checkBinaryKeys,
		checkPII,
		checkDomains,
	}
}

// tableChecks are the checks of rows, cells, the schema, the tablets,
// recorded traffic and the scan: run once on the table.
func tableChecks() []func(*diagnosis) []Finding {
	return []func(*diagnosis) []Finding{
		checkLargeRows,
		checkLargeCells,
		checkWideRows,
		checkFrequentlyUpdatedRows,
		checkLongKeys,
		checkFamilies,
		checkTablets,
		checkTraffic,
		checkHotTablets,
		checkLatency,
		checkScanNotes,
	}
}

// Kinds returns every kind in the order reports list them.
func Kinds() []Kind {
	return []Kind{
		KindHotKeyRange, KindSequentialKeys, KindKeyStartsWithTimestamp, KindSequentialNumericID,
		KindLargeRow, KindLargeCell, KindWideRow, KindFrequentlyUpdatedRow,
		KindUnpaddedNumber, KindHashedKey, KindBinaryKey, KindPIIInKey, KindDomainNotReversed,
		KindLongRowKey, KindTooManyColumnFamilies, KindTabletSkew,
		KindReadHotspot, KindWriteHotspot, KindHotRow, KindSequentialWrites, KindHeavyScan,
		KindHotTablet, KindHighLatency,
		KindScanNote,
	}
}

// tableWide returns the range of a finding about the diagnosis's whole
// scope: the dataset's range, or the scanned range.
func (d *diagnosis) tableWide() (start, end keyspace.Key) {
	if d.scope != nil {
		return d.scope.Start, d.scope.End
	}
	return d.snap.Scan.Start, d.snap.Scan.End
}

// forDataset returns the diagnosis of dataset i alone: its sampled rows,
// its own delimiters (a table's are detected from its first rows, which
// may all be another dataset's), and its tree node.
func (d *diagnosis) forDataset(i int) *diagnosis {
	ds := &d.datasets.list[i]
	var rows []keyspace.SampledRow
	for _, row := range d.profile.rows {
		if d.datasets.of(string(row.Key)) == i {
			rows = append(rows, row)
		}
	}
	keys := make([]string, 0, min(len(rows), 2000))
	for _, row := range rows[:min(len(rows), cap(keys))] {
		keys = append(keys, string(row.Key))
	}
	delimiters := keyspace.DetectDelimiters(keys)
	sub := &diagnosis{snap: d.snap, recentFrom: d.recentFrom, datasets: d.datasets, scope: ds, salts: d.salts,
		profile: newKeyProfileOf(rows, delimiters)}
	sub.root, sub.gathered = d.datasetNode(i)
	return sub
}

// datasetNode returns the tree node of dataset i: its prefix's node, or
// one that gathers the table's top-level nodes that belong to it
// (gathered).
func (d *diagnosis) datasetNode(i int) (n *keyspace.Node, gathered bool) {
	ds := &d.datasets.list[i]
	if n := prefixNode(d.root, ds); n != nil {
		return n, false
	}
	node := &keyspace.Node{Kind: keyspace.KindPrefix, Prefix: ds.Prefix, Start: ds.Start, End: ds.End}
	// Descend through the chain of single prefixes every key shares.
	top := d.root
	for len(top.Children) == 1 && top.Children[0].Kind == keyspace.KindPrefix && !top.HasRemainder() {
		top = top.Children[0]
	}
	for _, child := range top.Children {
		first, _, ok := child.KeyBounds()
		if !ok {
			first = child.Start
		}
		if d.datasets.of(string(first)) == i {
			node.Children = append(node.Children, child)
			node.Stats.Merge(&child.Stats)
		}
	}
	return node, true
}

// inDataset names the dataset of the diagnosis in its findings (and at
// the start of their summaries), and gives a finding about the whole
// dataset the dataset's prefix.
func (d *diagnosis) inDataset(findings []Finding) []Finding {
	for i := range findings {
		f := &findings[i]
		f.Dataset = d.scope.Name
		f.Summary = d.scope.lead() + f.Summary
		if f.Prefix == "" && f.Start == d.scope.Start && f.End == d.scope.End {
			f.Prefix = d.scope.Prefix
		}
	}
	return findings
}

// attribute names, in a table-wide check's findings about one row or
// prefix, the dataset it lies in.
func (d *diagnosis) attribute(findings []Finding) []Finding {
	for i := range findings {
		f := &findings[i]
		if f.Kind == KindScanNote || (f.Start == "" && f.End == "") {
			continue
		}
		key := string(f.Start)
		if f.Prefix != "" && strings.HasPrefix(string(f.Prefix), key) {
			key = string(f.Prefix)
		}
		if at := d.datasets.of(key); at >= 0 {
			f.Dataset = d.datasets.list[at].Name
		}
	}
	return findings
}

// lead opens the summary of a finding about the dataset: its name and
// share of the table.
func (ds *Dataset) lead() string {
	if ds.RowShare == 0 && ds.OpShare > 0 {
		return fmt.Sprintf("in dataset %s (%s of operations): ", ds.Name, units.Percent(ds.OpShare))
	}
	return fmt.Sprintf("in dataset %s (%s of rows): ", ds.Name, units.Percent(ds.RowShare))
}
