package diagnose

import "fmt"

// maxColumnFamilies is the guide's "about 100 column families at most".
const maxColumnFamilies = 100

const familiesAdvice = "Use few column families: Bigtable stores each family apart, so a row spread over many " +
	"families costs many separate reads and compactions, and the guidance stops at about 100. Put columns " +
	"that are read together, or that share a retention policy, in one family, and tell entities apart by " +
	"qualifier or row key instead. Keep family names short (they are stored with every cell) and free of " +
	"personal data."

// checkFamilies raises too-many-column-families above
// [maxColumnFamilies].
func checkFamilies(d *diagnosis) []Finding {
	families := len(d.snap.Families)
	if families <= maxColumnFamilies {
		return nil
	}
	used := d.root.Families()
	evidence := Evidence{}
	evidence.set("families", float64(families))
	evidence.set("families_in_rows_read", float64(used))
	evidence.set("max_families", maxColumnFamilies)
	start, end := d.tableWide()
	return []Finding{{
		Kind:     KindTooManyColumnFamilies,
		Severity: SeverityWarning,
		Start:    start,
		End:      end,
		Summary: fmt.Sprintf("the table has %d column families (%d seen in the rows read), more than the "+
			"about %d the guide allows", families, used, maxColumnFamilies),
		Advice:   familiesAdvice,
		Evidence: evidence,
	}}
}
