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
	var findings []Finding
	for _, check := range checks() {
		findings = append(findings, check(d)...)
	}
	markUncertain(d, findings)
	sortFindings(findings)
	return findings
}

// checks returns every check, each a function of the diagnosis that
// returns its findings. With [Kinds] it is where a finding kind is
// registered: a new kind is its own file (the Kind, its thresholds, its
// check and advice) and a line in each of these two lists.
func checks() []func(*diagnosis) []Finding {
	return []func(*diagnosis) []Finding{
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

// tableWide returns the scanned range, the range of a table-wide finding.
func (d *diagnosis) tableWide() (start, end keyspace.Key) {
	return d.snap.Scan.Start, d.snap.Scan.End
}
