package diagnose

import (
	"fmt"

	"github.com/btviz/btviz/internal/keytime"
	"github.com/btviz/btviz/internal/units"
)

// unpaddedMinDistinct is how many distinct integers a segment position
// must show before unequal widths mean missing padding rather than a
// small enumeration.
const unpaddedMinDistinct = 10

const unpaddedAdvice = "Zero-pad numbers in keys to one fixed width (user#0000003, user#0000020): Bigtable " +
	"sorts keys byte by byte, so unpadded, 3 sorts after 20 and a range scan over numbers returns the wrong " +
	"rows. Choose the width for the largest value the field will ever hold (19 digits fit any 64-bit " +
	"integer); timestamps used in range scans need it most."

// checkUnpaddedNumbers raises unpadded-number for every segment position
// whose integers come in more than one width.
func checkUnpaddedNumbers(d *diagnosis) []Finding {
	var findings []Finding
	for p := range d.profile.positions {
		pos := &d.profile.positions[p]
		if pos.class != classInteger || pos.distinct < unpaddedMinDistinct || pos.minWidth == pos.maxWidth {
			continue
		}
		if pos.maxWidth >= decimalHashMinDigits {
			if form, _, _, _ := hashForm(pos); form == "decimal" {
				continue // a hash has no numeric order to keep
			}
		}
		var shorter int
		for _, v := range pos.values {
			if keytime.Digits(v) && len(v) < pos.maxWidth {
				shorter++
			}
		}
		evidence := Evidence{}
		setField(evidence, pos)
		evidence.set("min_width", float64(pos.minWidth))
		evidence.set("max_width", float64(pos.maxWidth))
		evidence.set("shorter_share", share(float64(shorter), float64(len(pos.values))))
		evidence.set("distinct_sampled", float64(pos.distinct))
		summary := fmt.Sprintf("%s holds integers of %d to %d digits (%s of sampled keys shorter "+
			"than %d), so key order is not numeric order", d.fieldName(pos), pos.minWidth, pos.maxWidth,
			units.Percent(share(float64(shorter), float64(len(pos.values)))), pos.maxWidth)
		if early, late, ok := d.misorderedPair(pos); ok {
			summary += fmt.Sprintf(": %s sorts before %s", printable(early), printable(late))
		}
		f := Finding{Kind: KindUnpaddedNumber, Severity: SeverityWarning, Summary: summary,
			Advice: unpaddedAdvice, Evidence: evidence}
		findings = append(findings, d.positionLocation(f, pos))
	}
	return findings
}

// misorderedPair returns two sampled keys whose integers at pos sort the
// wrong way round: a longer, numerically larger one that sorts first.
// The two share everything before the field (t02#user1000 and t02#user9,
// order1000 and order99), so that the field alone puts them in that
// order; among the prefixes that have such a pair, the first in key
// order gives it.
func (d *diagnosis) misorderedPair(pos *segmentPosition) (early, late string, ok bool) {
	// widest and narrowest are, per prefix before the field, the index in
	// pos.values of the smallest of its widest integers and the largest of
	// its narrowest.
	type extremes struct{ widest, narrowest int }
	byPrefix := make(map[string]*extremes)
	for i, v := range pos.values {
		if !keytime.Digits(v) || v[0] == '0' {
			continue
		}
		prefix := d.profile.prefixBefore(pos.rowOf[i], pos.index)
		e := byPrefix[prefix]
		if e == nil {
			byPrefix[prefix] = &extremes{widest: i, narrowest: i}
			continue
		}
		if w := pos.values[e.widest]; len(v) > len(w) || (len(v) == len(w) && v < w) {
			e.widest = i
		}
		if n := pos.values[e.narrowest]; len(v) < len(n) || (len(v) == len(n) && v > n) {
			e.narrowest = i
		}
	}
	var first string
	for prefix, e := range byPrefix {
		wide, narrow := pos.values[e.widest], pos.values[e.narrowest]
		if len(wide) == len(narrow) || wide >= narrow || (ok && prefix >= first) {
			continue
		}
		first, ok = prefix, true
		early, late = string(d.profile.rows[pos.rowOf[e.widest]].Key), string(d.profile.rows[pos.rowOf[e.narrowest]].Key)
	}
	return early, late, ok
}
