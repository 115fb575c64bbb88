package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/units"
)

// binaryMinShare is the share of sampled keys with raw bytes above which
// binary-key is a warning; below it a few odd keys get an info note.
const binaryMinShare = 0.01

const binaryAdvice = "Use printable row keys: raw bytes (packed integers, binary IDs) are fine in values, but " +
	"in keys they are unreadable in tools, logs and Key Visualizer, and easy to mangle in shells and scripts. " +
	"Write numbers as fixed-width decimal or hex text and join fields with a printable delimiter; fixed-width " +
	"hex of a big-endian unsigned value keeps the same order."

// checkBinaryKeys raises binary-key when sampled keys hold control bytes
// or bytes that are not UTF-8.
func checkBinaryKeys(d *diagnosis) []Finding {
	rows := d.profile.rows
	var binary int
	var example string
	for _, row := range rows {
		if isBinary(string(row.Key)) {
			if binary == 0 {
				example = string(row.Key)
			}
			binary++
		}
	}
	if binary == 0 {
		return nil
	}
	keyShare := share(float64(binary), float64(len(rows)))
	severity := SeverityWarning
	if keyShare < binaryMinShare {
		severity = SeverityInfo
	}
	evidence := Evidence{}
	evidence.set("binary_key_share", keyShare)
	evidence.set("binary_keys_sampled", float64(binary))
	evidence.set("sampled_keys", float64(len(rows)))
	evidence.set("min_share", binaryMinShare)
	start, end := d.tableWide()
	return []Finding{{
		Kind: KindBinaryKey, Severity: severity, Start: start, End: end,
		Summary: fmt.Sprintf("%s of sampled keys (%s of %s) hold control bytes or bytes that are not UTF-8, e.g. %s",
			units.Percent(keyShare), units.Thousands(int64(binary)), units.Thousands(int64(len(rows))), printable(example)),
		Advice:   binaryAdvice,
		Evidence: evidence,
	}}
}
