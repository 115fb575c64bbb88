package demo

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Scenario is one table: a row-key pattern from the Bigtable schema-design
// guide (or, for tests, a shape the demo has no table for), generated
// deterministically. Every field describes the data exactly, so that the
// emulator's and the diagnostics' tests can check what they find against
// it.
type Scenario struct {
	// Name is stable kebab-case and is also the table's name.
	Name string
	// Description is one line for `btviz seed --list`.
	Description string
	// KeyFormat shows the row-key layout, e.g. "<device>#<reversed-ms>".
	KeyFormat string
	// Good is true for a design the guide recommends: it must raise no
	// warning or error.
	Good bool
	// Expect lists the finding kinds (the README's "Findings") this scenario must
	// raise, exactly; empty for good designs.
	Expect []string
	// Locations says where the expected findings must point, for the kinds
	// that have a place (a hot prefix, an oversized row); table-wide kinds
	// have none.
	Locations []Location
	// Families lists the column families the table is created with, sorted.
	// None has a garbage-collection policy, so every version written is kept.
	Families []string
	// Rows is the exact number of rows generated.
	Rows int
	// TimeStart and TimeEnd bound every cell timestamp generated:
	// TimeStart <= ts < TimeEnd, every timestamp a whole millisecond.
	// TimeEnd is the fixed demo "now", [DemoNow].
	TimeStart, TimeEnd time.Time

	// TestOnly marks a table that only tests build (a 100,000-column row,
	// another delimiter, a skewed tablet map): [Scenarios] and [Lookup]
	// leave it out, so `btviz seed` never loads it.
	TestOnly bool
	// Delimiters fixes the key delimiters a snapshot splits at; empty
	// means detect them, as a scan does.
	Delimiters string
	// Tablets is a Cloud Bigtable tablet map for [Scenario.Snapshot]; a
	// scenario with one is diagnosed as a real instance, not an emulator.
	Tablets []keyspace.Range

	generate func(put Put) error
}

// Location is where one expected finding of a [Scenario] must point.
type Location struct {
	// Kind is the finding kind, one of the scenario's Expect.
	Kind string
	// Key is a row key (Row true) or a key prefix (Row false); empty for a
	// table-wide finding that must be there.
	Key string
	// Row is true when Key is one exact row key.
	Row bool
	// Dataset, when set, is the name of the dataset the finding must be
	// about (diagnose's Dataset.Name), for a table of several datasets
	// whose dataset has no prefix to name.
	Dataset string
}

// Put receives one row of a scenario: its key and every cell it holds,
// each with its family, qualifier, timestamp (microseconds, whole
// milliseconds) and value size. A generator puts each row once, in the
// order a writer would write them (often time order, not key order), and
// stops at the first error put returns.
type Put func(key string, cells ...keyspace.Cell) error

// Generate runs the scenario's row generator: pure and deterministic, the
// same rows in the same order on every call. It returns the first error
// put returns, or an error for a Scenario not built by this package.
func (sc Scenario) Generate(put Put) error {
	if !sc.Known() {
		return fmt.Errorf("scenario %q has no row generator; get scenarios from demo.Scenarios or demo.Lookup", sc.Name)
	}
	return sc.generate(put)
}

// Known reports whether sc came from this package, with a row generator.
func (sc Scenario) Known() bool { return sc.generate != nil }

// Finding kinds the scenarios expect, as the README's "Findings" names them.
const (
	kindHotKeyRange            = "hot-key-range"             // a narrow key range takes a disproportionate share
	kindSequentialKeys         = "sequential-keys"           // writes march through the key space over time
	kindKeyStartsWithTimestamp = "key-starts-with-timestamp" // the first key segment is a timestamp
	kindSequentialNumericID    = "sequential-numeric-id"     // the leading segment is a dense increasing ID
	kindLargeRow               = "large-row"                 // a row over 100 MB
	kindLargeCell              = "large-cell"                // a cell over 10 MB
	kindWideRow                = "wide-row"                  // a row with too many columns
	kindFrequentlyUpdatedRow   = "frequently-updated-row"    // one column keeps receiving versions
	kindUnpaddedNumber         = "unpadded-number"           // a numeric segment of varying width
	kindHashedKey              = "hashed-key"                // a high-entropy leading segment
	kindBinaryKey              = "binary-key"                // non-printable bytes in keys
	kindPIIInKey               = "pii-in-key"                // e-mail addresses or phone numbers in keys
	kindDomainNotReversed      = "domain-not-reversed"       // maps.google.com instead of com.google.maps
	kindLongRowKey             = "long-row-key"              // keys well above what is needed
	kindTooManyColumnFamilies  = "too-many-column-families"  // more than about 100 families
	kindTabletSkew             = "tablet-skew"               // one tablet far larger than its neighbours
)

// DemoNow returns the fixed "now" of all scenario data,
// 2026-11-01T00:00:00Z: every cell timestamp ends just before it. Data
// never depends on the wall clock, so two runs are identical.
func DemoNow() time.Time {
	return time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)
}

// window is the half-open interval of cell timestamps a scenario writes.
type window struct{ start, end time.Time }

// lastWindow returns the window of length d ending at [DemoNow].
func lastWindow(d time.Duration) window {
	return window{start: DemoNow().Add(-d), end: DemoNow()}
}

// cellAt is one cell of size value bytes written at at.
func cellAt(family, qualifier string, at time.Time, size int) keyspace.Cell {
	return keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: at.UnixMicro(), ValueBytes: int64(size)}
}
