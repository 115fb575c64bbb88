package diagnose

import (
	"fmt"
	"math"
	"strconv"

	"github.com/btviz/btviz/internal/keytime"
	"github.com/btviz/btviz/internal/units"
)

// Thresholds of the leading-segment checks (key-starts-with-timestamp,
// sequential-numeric-id, hashed-key), beyond [classMajority],
// [maxWriteFronts] and [sequentialMinCorrelation].
const (
	// idMinDistinct is how many distinct values the leading segment must
	// show in the sample to be an ID rather than a category or a salt.
	idMinDistinct = 100
	// hashMinChars is the mean length a hex or base64 leading segment must
	// have to be a hash: 16 hex digits are 64 bits, the shortest
	// truncation used to spread keys, while readable device and asset IDs
	// (phone#4c410523) are shorter.
	hashMinChars = 16
	// hashMinEntropyBits is the character entropy, in bits per character,
	// the segment's values must reach: random hex gives about 4.
	hashMinEntropyBits = 3.5
	// decimalHashMinDigits is the mean length a decimal hash must have: a
	// 64-bit hash written in decimal has 19 or 20 digits, while IDs that
	// long (snowflake IDs, nanosecond times) repeat their leading digits.
	decimalHashMinDigits = 16
	// decimalHashMinEntropyBits is the digit entropy a decimal hash must
	// reach: random digits give log2(10) = 3.32 bits, time-ordered IDs of
	// the same length well under 3.
	decimalHashMinEntropyBits = 3.2
)

const timestampFirstAdvice = "Do not lead the key with the time: every new row then lands at the end of the " +
	"table, on one tablet. Put a high-cardinality field first and the time after it " +
	"(machine_4223421#1425330757685), with a reversed timestamp (Long.MAX_VALUE - millis, zero-padded) when the " +
	"newest rows are read first. If one scan must read a time range across all entities, salt the key " +
	"(hash mod N in front) and run N scans."

const sequentialIDAdvice = "New IDs are the busiest and sit next to each other, so all their writes hit one " +
	"tablet. Reverse the ID's digits (10400123 becomes 32100401) so consecutive IDs land in different ranges " +
	"and a point read still needs one key, or lead with another high-cardinality field. " +
	"Try it first with the what-if reverse(SEGMENT)."

const hashedKeyAdvice = "A hashed key spreads writes but throws away what the key could say: no prefix or " +
	"range scan by customer, date or kind is possible, and the key means nothing in tools and logs. Prefer a " +
	"readable, structured key from general to specific (customer#order-date#order-id) and spread writes by " +
	"field order; if a hash is needed to spread a hot entity, keep it to a short salt (hash mod N) in front " +
	"of the readable key."

// checkLeadingSegment looks at the first segment position where keys fan
// out ([keyProfile.leading]) for a timestamp, an increasing integer ID or
// a hash.
func checkLeadingSegment(d *diagnosis) []Finding {
	profile := d.profile
	pos := profile.position(profile.leading)
	if pos == nil || len(pos.values) == 0 {
		return nil
	}
	if f, ok := d.timestampFirst(pos); ok {
		return []Finding{f}
	}
	if f, ok := d.sequentialID(pos); ok {
		return []Finding{f}
	}
	if f, ok := d.hashedLeading(profile.firstVaried()); ok {
		return []Finding{f}
	}
	return nil
}

// segmentName names the first varying field for a summary.
func (d *diagnosis) segmentName(pos *segmentPosition) string {
	if pos.segment == 0 || pos.part >= 0 {
		return d.fieldName(pos)
	}
	return d.fieldName(pos) + " (the first that varies)"
}

// fieldName names a field position for a summary: a key segment, or a
// part of one, named by the segment's pattern ("the number in keys of the
// form user<number>").
func (d *diagnosis) fieldName(pos *segmentPosition) string {
	if pos.part < 0 {
		return fmt.Sprintf("the %s key segment", ordinal(pos.segment))
	}
	noun := partNoun(pos.values)
	if d.profile.oneSegment {
		return fmt.Sprintf("the %s in keys of the form %s", noun, pos.pattern)
	}
	return fmt.Sprintf("the %s in the %s key segment, %s", noun, ordinal(pos.segment), pos.pattern)
}

// setField records which field a finding is about: the segment and, for
// a part of one, which part.
func setField(evidence Evidence, pos *segmentPosition) {
	evidence.set("segment", float64(pos.segment))
	if pos.part >= 0 {
		evidence.set("segment_part", float64(pos.part))
	}
}

func (d *diagnosis) timestampFirst(pos *segmentPosition) (Finding, bool) {
	timeShare := pos.classShare(classTimestamp) + pos.classShare(classReversedTimestamp) + pos.classShare(classDate)
	if timeShare < classMajority {
		return Finding{}, false
	}
	class := classTimestamp
	for _, c := range []segmentClass{classReversedTimestamp, classDate} {
		if pos.classes[c] > pos.classes[class] {
			class = c
		}
	}
	example := exampleOf(pos, class)
	kind := timeKindName(class, example)
	evidence := Evidence{}
	setField(evidence, pos)
	evidence.set("timestamp_share", timeShare)
	evidence.set("min_share", classMajority)
	evidence.set("sampled_keys", float64(len(pos.values)))
	f := Finding{
		Kind:     KindKeyStartsWithTimestamp,
		Severity: SeverityWarning,
		Summary: fmt.Sprintf("%s is a %s in %s of sampled keys, e.g. %s", d.segmentName(pos), kind,
			units.Percent(timeShare), printable(example)),
		Advice:   timestampFirstAdvice,
		Evidence: evidence,
	}
	return d.positionLocation(f, pos), true
}

// timeKindName names a time class for a summary, with the epoch unit read
// from the example's width.
func timeKindName(class segmentClass, example string) string {
	switch class {
	case classReversedTimestamp:
		return "reversed timestamp"
	case classDate:
		return "date"
	}
	switch len(example) {
	case 10:
		return "timestamp (epoch seconds)"
	case 13:
		return "timestamp (epoch milliseconds)"
	case 16:
		return "timestamp (epoch microseconds)"
	case 19:
		return "timestamp (epoch nanoseconds)"
	}
	return "timestamp"
}

// exampleOf returns the first value of class c at the position.
func exampleOf(pos *segmentPosition, c segmentClass) string {
	for _, v := range pos.values {
		if classifySegment(v) == c {
			return v
		}
	}
	return ""
}

func (d *diagnosis) sequentialID(pos *segmentPosition) (Finding, bool) {
	if pos.class != classInteger || pos.distinct < idMinDistinct {
		return Finding{}, false
	}
	groups := map[string][]int{}
	for i := range pos.values {
		row := d.profile.rows[pos.rowOf[i]]
		if row.Cells == 0 || pos.valueClasses[i] != classInteger {
			continue
		}
		prefix := d.profile.prefixBefore(pos.rowOf[i], pos.index)
		groups[prefix] = append(groups[prefix], i)
	}
	var weighted float64
	var rows int
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, members := range groups {
		if len(members) < minCorrelationRows {
			continue
		}
		ids := make([]float64, len(members))
		times := make([]float64, len(members))
		for k, i := range members {
			id, err := strconv.ParseFloat(pos.values[i], 64)
			if err != nil {
				continue
			}
			ids[k], times[k] = id, float64(d.profile.rows[pos.rowOf[i]].FirstWrite)
			lo, hi = min(lo, id), max(hi, id)
		}
		if len(members) == len(d.profile.rows) {
			// Every sampled row, in key order: their time ranks are known.
			_, timeRank := d.profile.timeOrder()
			weighted += pearson(ranks(ids), timeRank) * float64(len(members))
		} else {
			weighted += spearman(ids, times) * float64(len(members))
		}
		rows += len(members)
	}
	if rows < minCorrelationRows {
		return Finding{}, false
	}
	correlation := weighted / float64(rows)
	if correlation < sequentialMinCorrelation {
		return Finding{}, false
	}
	// Density: the IDs the table holds (estimated from the sample's share
	// of distinct values) over the width of the ID range they span.
	estimatedIDs := float64(pos.distinct) / float64(len(pos.values)) * d.root.Rows
	density := min(1, share(estimatedIDs, hi-lo+1))
	evidence := Evidence{}
	setField(evidence, pos)
	evidence.set("rank_correlation", correlation)
	evidence.set("min_rank_correlation", sequentialMinCorrelation)
	evidence.set("distinct_ids_sampled", float64(pos.distinct))
	evidence.set("sampled_rows", float64(rows))
	evidence.set("id_min", lo)
	evidence.set("id_max", hi)
	evidence.set("id_density", density)
	f := Finding{
		Kind:     KindSequentialNumericID,
		Severity: SeverityWarning,
		Summary: fmt.Sprintf("%s is an increasing integer ID (%s to %s, %s of the range in use): ID and write "+
			"time have rank correlation %.2f over %s sampled rows", d.segmentName(pos),
			strconv.FormatFloat(lo, 'f', -1, 64), strconv.FormatFloat(hi, 'f', -1, 64), units.Percent(density),
			correlation, units.Thousands(int64(rows))),
		Advice:   sequentialIDAdvice,
		Evidence: evidence,
	}
	return d.positionLocation(f, pos), true
}

func (d *diagnosis) hashedLeading(pos *segmentPosition) (Finding, bool) {
	if pos == nil || len(pos.values) == 0 {
		return Finding{}, false
	}
	form, hashShare, meanChars, entropy := hashForm(pos)
	if form == "" || pos.distinct < min(idMinDistinct, len(pos.values)/2) {
		return Finding{}, false
	}
	evidence := Evidence{}
	setField(evidence, pos)
	evidence.set("hash_share", hashShare)
	evidence.set("mean_chars", meanChars)
	evidence.set("entropy_bits_per_char", entropy)
	if form == "decimal" {
		evidence.set("min_mean_chars", decimalHashMinDigits)
		evidence.set("min_entropy_bits_per_char", decimalHashMinEntropyBits)
	} else {
		evidence.set("min_mean_chars", hashMinChars)
		evidence.set("min_entropy_bits_per_char", hashMinEntropyBits)
	}
	f := Finding{
		Kind:     KindHashedKey,
		Severity: SeverityWarning,
		Summary: fmt.Sprintf("%s is a %.0f-character %s hash in %s of sampled keys (%.1f bits of entropy per "+
			"character), e.g. %s: keys keep no natural order", d.segmentName(pos), meanChars, form,
			units.Percent(hashShare), entropy, printable(pos.values[0])),
		Advice:   hashedKeyAdvice,
		Evidence: evidence,
	}
	return d.positionLocation(f, pos), true
}

// hashForm says whether a field's values look like a hash: "hex" or
// "base64" (at least [classMajority] of the values, [hashMinChars] long on
// average, [hashMinEntropyBits] of entropy per character) or "decimal"
// (digits, [decimalHashMinDigits] long, [decimalHashMinEntropyBits]), or
// "" for none. It returns the share of values of that form, their mean
// length and their entropy.
func hashForm(pos *segmentPosition) (form string, formShare, meanChars, entropy float64) {
	if len(pos.values) == 0 {
		return "", 0, 0, 0
	}
	var chars, digits int
	for _, v := range pos.values {
		chars += len(v)
		if keytime.Digits(v) {
			digits++
		}
	}
	meanChars = float64(chars) / float64(len(pos.values))
	entropy = charEntropy(pos.values)
	if share := pos.classShare(classHex) + pos.classShare(classBase64); share >= classMajority {
		if meanChars < hashMinChars || entropy < hashMinEntropyBits {
			return "", share, meanChars, entropy
		}
		if pos.classes[classBase64] > pos.classes[classHex] {
			return "base64", share, meanChars, entropy
		}
		return "hex", share, meanChars, entropy
	}
	share := float64(digits) / float64(len(pos.values))
	if share >= classMajority && meanChars >= decimalHashMinDigits && entropy >= decimalHashMinEntropyBits {
		return "decimal", share, meanChars, entropy
	}
	return "", share, meanChars, entropy
}
