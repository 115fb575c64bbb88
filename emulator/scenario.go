package emulator

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Scenario is one demo table: a row-key pattern from the Bigtable
// schema-design guide, loaded deterministically into a table named after it
// by [Seed]. Every field describes the data exactly, so that tests and the
// diagnose package can check what they find against it.
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
	// Expect lists the finding kinds (DESIGN.md's table) this scenario must
	// raise; empty for good designs.
	Expect []string
	// Locations says where the expected findings must point, for the kinds
	// that have a place (a hot prefix, an oversized row); table-wide kinds
	// have none.
	Locations []Location
	// Families lists the column families the table is created with, sorted.
	// None has a garbage-collection policy, so every version written is kept.
	Families []string
	// Rows is the exact number of rows written.
	Rows int
	// TimeStart and TimeEnd bound every cell timestamp written:
	// TimeStart <= ts < TimeEnd. TimeEnd is the fixed demo "now", [DemoNow].
	TimeStart, TimeEnd time.Time

	generate func(out rowSink) error
}

// Location is where one expected finding of a [Scenario] must point.
type Location struct {
	// Kind is the finding kind, one of the scenario's Expect.
	Kind string
	// Key is a row key (Row true) or a key prefix (Row false).
	Key string
	// Row is true when Key is one exact row key.
	Row bool
}

// Finding kinds the scenarios expect, as DESIGN.md names them.
const (
	kindHotKeyRange            = "hot-key-range"             // a narrow key range takes a disproportionate share
	kindSequentialKeys         = "sequential-keys"           // writes march through the key space over time
	kindKeyStartsWithTimestamp = "key-starts-with-timestamp" // the first key segment is a timestamp
	kindSequentialNumericID    = "sequential-numeric-id"     // the leading segment is a dense increasing ID
	kindLargeRow               = "large-row"                 // a row over 100 MB
	kindLargeCell              = "large-cell"                // a cell over 10 MB
	kindFrequentlyUpdatedRow   = "frequently-updated-row"    // one column keeps receiving versions
	kindUnpaddedNumber         = "unpadded-number"           // a numeric segment of varying width
	kindHashedKey              = "hashed-key"                // a high-entropy leading segment
	kindBinaryKey              = "binary-key"                // non-printable bytes in keys
	kindPIIInKey               = "pii-in-key"                // e-mail addresses or phone numbers in keys
	kindDomainNotReversed      = "domain-not-reversed"       // maps.google.com instead of com.google.maps
	kindTooManyColumnFamilies  = "too-many-column-families"  // more than about 100 families
)

// DemoNow returns the fixed "now" of all demo data, 2026-11-01T00:00:00Z:
// every scenario's cell timestamps end just before it. Data never depends on
// the wall clock, so two loads are identical.
func DemoNow() time.Time {
	return time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)
}

// Scenarios returns every demo scenario in a stable order: good and bad
// variants of a pattern next to each other. The result is a fresh slice the
// caller may modify.
func Scenarios() []Scenario {
	return []Scenario{
		timeseriesReversedScenario(),
		timeseriesTimestampFirstScenario(),
		usersSequentialScenario(),
		usersReversedScenario(),
		celebrityScenario(),
		celebritySaltedScenario(),
		phoneDeviceDayScenario(),
		multitenantScenario(),
		busLocationsScenario(),
		domainsForwardScenario(),
		domainsReversedScenario(),
		largeRowAndCellScenario(),
		memusageRowScenario(),
		unpaddedIDsScenario(),
		hashedKeysScenario(),
		binaryKeysScenario(),
		piiKeysScenario(),
		tooManyFamiliesScenario(),
	}
}

// ScenarioNames returns the names of [Scenarios], in the same order.
func ScenarioNames() []string {
	all := Scenarios()
	names := make([]string, len(all))
	for i, sc := range all {
		names[i] = sc.Name
	}
	return names
}

// Lookup resolves a scenario spec: "all", or comma-separated names such as
// "bus-locations,social-celebrity". Names are trimmed, duplicates dropped and
// the spec's order kept. An unknown or empty name is an error that lists the
// valid names.
func Lookup(spec string) ([]Scenario, error) {
	all := Scenarios()
	if strings.TrimSpace(spec) == "all" {
		return all, nil
	}
	var (
		picked  []Scenario
		unknown []string
	)
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("scenario list %q has an empty name; use \"all\" or comma-separated names from: %s",
				spec, strings.Join(ScenarioNames(), ", "))
		}
		if name == "all" {
			return all, nil
		}
		if slices.ContainsFunc(picked, func(sc Scenario) bool { return sc.Name == name }) {
			continue
		}
		i := slices.IndexFunc(all, func(sc Scenario) bool { return sc.Name == name })
		if i < 0 {
			unknown = append(unknown, fmt.Sprintf("%q", name))
			continue
		}
		picked = append(picked, all[i])
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown scenario %s; use \"all\" or names from: %s",
			strings.Join(unknown, ", "), strings.Join(ScenarioNames(), ", "))
	}
	return picked, nil
}
