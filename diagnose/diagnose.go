package diagnose

import "github.com/btviz/btviz/keyspace"

// diagnosis is what the checks share while diagnosing one snapshot.
type diagnosis struct {
	snap    *keyspace.Snapshot
	root    *keyspace.Node
	profile *keyProfile
	// recentFrom is the first absolute time bucket of the recent window
	// (see [recentWindowShare]).
	recentFrom int64
	// locations remembers [diagnosis.positionLocation]'s answer for each
	// field position, asked by several checks.
	locations map[*segmentPosition]Finding
}

// Diagnose runs every check on snap and returns its findings, worst
// first (then in [Kinds] order, then by key). It is pure and
// deterministic; a nil or empty snapshot gives only the notes that apply.
func Diagnose(snap *keyspace.Snapshot) []Finding {
	if snap == nil {
		return nil
	}
	d := &diagnosis{snap: snap, root: snap.Root, profile: newKeyProfile(snap)}
	if d.root == nil {
		d.root = &keyspace.Node{Kind: keyspace.KindPrefix}
	}
	d.recentFrom = recentFrom(&d.root.Writes)
	checks := []func(*diagnosis) []Finding{
		checkHotRanges,
		checkSequentialKeys,
		checkLeadingSegment,
		checkLargeRows,
		checkLargeCells,
		checkWideRows,
		checkFrequentlyUpdatedRows,
		checkUnpaddedNumbers,
		checkBinaryKeys,
		checkPII,
		checkDomains,
		checkLongKeys,
		checkFamilies,
		checkTablets,
		checkTraffic,
		checkScanNotes,
	}
	var findings []Finding
	for _, check := range checks {
		findings = append(findings, check(d)...)
	}
	sortFindings(findings)
	return findings
}

// tableWide returns the scanned range, the range of a table-wide finding.
func (d *diagnosis) tableWide() (start, end keyspace.Key) {
	return d.snap.Scan.Start, d.snap.Scan.End
}
