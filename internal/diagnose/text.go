package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// ordinal names segment i (from 0) for a human: "the first segment".
func ordinal(i int) string {
	names := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"}
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%dth", i+1)
}

// quoteKey escapes a key for a summary.
func quoteKey(key string) string {
	if key == "" {
		return `""`
	}
	return printable(key)
}

// maxSummaryKeyBytes is how much of a key a summary shows; a longer key
// (say a 5 KB one) is cut and its length given.
const maxSummaryKeyBytes = 64

// printable escapes a key for a summary with [keyspace.Printable], cutting
// keys longer than [maxSummaryKeyBytes].
func printable(key string) string {
	if len(key) <= maxSummaryKeyBytes {
		return keyspace.Printable(key)
	}
	return keyspace.Printable(key[:maxSummaryKeyBytes]) + "... (" + units.Thousands(int64(len(key))) + " bytes)"
}
