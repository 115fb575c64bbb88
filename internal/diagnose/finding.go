package diagnose

import (
	"cmp"
	"math"
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
)

// Kind names what a [Finding] is about. The names are stable: reports,
// tests and users' scripts rely on them (the README's "Findings").
type Kind string

// The finding kinds of the README's "Findings", and [KindScanNote] for notes about the
// scan itself.
const (
	KindHotKeyRange            Kind = "hot-key-range"
	KindSequentialKeys         Kind = "sequential-keys"
	KindKeyStartsWithTimestamp Kind = "key-starts-with-timestamp"
	KindSequentialNumericID    Kind = "sequential-numeric-id"
	KindLargeRow               Kind = "large-row"
	KindLargeCell              Kind = "large-cell"
	KindWideRow                Kind = "wide-row"
	KindFrequentlyUpdatedRow   Kind = "frequently-updated-row"
	KindUnpaddedNumber         Kind = "unpadded-number"
	KindHashedKey              Kind = "hashed-key"
	KindBinaryKey              Kind = "binary-key"
	KindPIIInKey               Kind = "pii-in-key"
	KindDomainNotReversed      Kind = "domain-not-reversed"
	KindLongRowKey             Kind = "long-row-key"
	KindTooManyColumnFamilies  Kind = "too-many-column-families"
	KindTabletSkew             Kind = "tablet-skew"
	// KindScanNote is always [SeverityInfo]: what the snapshot can and
	// cannot show (emulator boundaries, a sampled or incomplete scan,
	// versions removed by garbage collection).
	KindScanNote Kind = "scan-note"
)

// Finding is one problem [Diagnose] found: what, how bad, where in the key
// space, the numbers behind it and what to do.
type Finding struct {
	Kind     Kind     `json:"kind"`
	Severity Severity `json:"severity"`
	// Start and End bound the key range the finding points at,
	// [Start, End); an empty End is the end of the table, so a table-wide
	// finding has both empty (or the scanned range).
	Start keyspace.Key `json:"start"`
	End   keyspace.Key `json:"end"`
	// Prefix is the key prefix or row key the finding names; empty for
	// table-wide findings.
	Prefix keyspace.Key `json:"prefix"`
	// Dataset names the dataset the finding is about ([Dataset.Name])
	// when the table holds several; empty when it is one.
	Dataset string `json:"dataset,omitempty"`
	// Summary is one line with the numbers; keys in it are escaped by
	// [keyspace.Printable].
	Summary string `json:"summary"`
	// Advice says what to change, in a sentence or three.
	Advice   string   `json:"advice"`
	Evidence Evidence `json:"evidence"`
	// Uncertain is true when the finding rests on numbers a sample
	// estimates and the threshold that raised it lies inside their 95%
	// intervals: another sample may not raise it (see [estimates]). The
	// summary then says so, and the evidence holds <metric>_low and
	// <metric>_high.
	Uncertain bool `json:"uncertain,omitempty"`
}

// Evidence holds the named numbers behind a [Finding]: shares (0–1),
// counts, sizes in bytes and the thresholds they were compared with.
// Values are always finite.
type Evidence map[string]float64

// Names returns the evidence names in sorted order, the order reports
// print them in.
func (e Evidence) Names() []string {
	names := make([]string, 0, len(e))
	for name := range e {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// set records a value, rounded to 4 significant decimals for shares and
// replaced by 0 when not finite, so that reports stay readable and JSON
// encodable.
func (e Evidence) set(name string, value float64) {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		value = 0
	}
	if value != math.Trunc(value) {
		value = math.Round(value*1e4) / 1e4
	}
	e[name] = value
}

// Counts is how many findings there are of each severity.
type Counts struct {
	Info, Warning, Error int
}

// CountBySeverity counts findings per severity.
func CountBySeverity(findings []Finding) Counts {
	var c Counts
	for _, f := range findings {
		switch f.Severity {
		case SeverityInfo:
			c.Info++
		case SeverityWarning:
			c.Warning++
		case SeverityError:
			c.Error++
		}
	}
	return c
}

// AtLeast reports whether any finding has severity threshold or worse:
// the rule behind `btviz report --fail-on`.
func AtLeast(findings []Finding, threshold Severity) bool {
	return slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity >= threshold })
}

// sortFindings orders findings worst first, then by kind in [Kinds]
// order, then by key.
func sortFindings(findings []Finding) {
	order := make(map[Kind]int)
	for i, kind := range Kinds() {
		order[kind] = i
	}
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(b.Severity, a.Severity),
			cmp.Compare(order[a.Kind], order[b.Kind]),
			cmp.Compare(a.Start, b.Start),
			cmp.Compare(a.Prefix, b.Prefix),
		)
	})
}
