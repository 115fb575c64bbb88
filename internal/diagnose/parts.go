package diagnose

import "github.com/btviz/btviz/internal/keytime"

// Cutting a key segment into parts at character-class boundaries: user123
// is the word user and the number 123, sensor7reading is sensor, 7 and
// reading. Many real keys glue an ID to a word with no delimiter; the
// checks that read segments (unpadded numbers, sequential IDs, timestamps,
// hashes) read these parts as fields of their own.

const (
	// maxParts is the most parts a segment is cut into; a value with more
	// character-class runs is not cut.
	maxParts = 8
	// runDigits, runText and runBytes are the character classes a cut
	// separates: decimal digits, other printable characters, and bytes a
	// terminal cannot show (controls, DEL, non-ASCII).
	runDigits = 1
	runText   = 2
	runBytes  = 3
	// maxPartWords is how many distinct values a text part may take: a
	// part cut from a segment is a word from a small vocabulary (user,
	// order, invoice), not a name: user123 is a word and an ID, while
	// carmen_schmidt100 is a handle and stays whole.
	maxPartWords = 16
	// splitDecisionSample bounds how many values of a position are
	// classified to decide whether to cut it.
	splitDecisionSample = 1000
)

// runKind is the character class of byte c.
func runKind(c byte) uint32 { return uint32(runKinds[c]) }

// runKinds holds [runKind] of every byte: a part cut reads a table, not
// two comparisons a byte.
var runKinds = func() (kinds [256]uint8) {
	for c := range kinds {
		switch {
		case c >= '0' && c <= '9':
			kinds[c] = runDigits
		case c < 0x20 || c >= 0x7f:
			kinds[c] = runBytes
		default:
			kinds[c] = runText
		}
	}
	return kinds
}()

// partRuns cuts value at every change of character class, writing the
// length of each run to runs, and returns how many runs there are and
// their classes as one number (two bits a run): equal shapes have equal
// numbers. A value of more than len(runs) runs has shape 0.
func partRuns(value string, runs []int) (n int, shape uint32) {
	for i := 0; i < len(value); {
		kind := runKind(value[i])
		j := i + 1
		for j < len(value) && runKind(value[j]) == kind {
			j++
		}
		if n == len(runs) {
			return n + 1, 0
		}
		runs[n] = j - i
		n++
		shape = shape<<2 | kind
		i = j
	}
	return n, shape
}

// splitParts decides whether the values of one segment position are cut
// into parts: when at least [classMajority] of them have the same shape of
// two or more character-class runs, are text (or binary) rather than a
// number, date, hash, address or host name (judged on up to
// [splitDecisionSample] values spread evenly), and their text runs take at
// most [maxPartWords] values — the same word followed by numbers of
// varying width, say. It returns that shape and the number of parts, or 0
// and 1 when the segment stays whole.
func splitParts(values []string) (shape uint32, parts int) {
	if len(values) == 0 {
		return 0, 1
	}
	counts := make(map[uint32]int)
	var runs [maxParts]int
	last, lastCount := uint32(0), 0 // most values repeat the shape before them
	for _, v := range values {
		n, s := partRuns(v, runs[:])
		switch {
		case n < 2 || s == 0:
		case s == last:
			lastCount++
		default:
			counts[last] += lastCount
			last, lastCount = s, 1
		}
	}
	counts[last] += lastCount
	delete(counts, 0)
	best, bestCount := uint32(0), 0
	for s, c := range counts {
		if c > bestCount || c == bestCount && s < best {
			best, bestCount = s, c
		}
	}
	if float64(bestCount) < classMajority*float64(len(values)) {
		return 0, 1
	}
	step := max(1, len(values)/splitDecisionSample)
	wordy, sampled := 0, 0
	for i := 0; i < len(values); i += step {
		if c := classifySegment(values[i]); c == classText || c == classBinary {
			wordy++
		}
		sampled++
	}
	if float64(wordy) < classMajority*float64(sampled) {
		return 0, 1
	}
	for s := best; s != 0; s >>= 2 {
		parts++
	}
	words := make([]map[string]bool, parts)
	lastWords := make([]string, parts)
	for _, v := range values {
		n, s := partRuns(v, runs[:])
		if s != best {
			continue
		}
		from := 0
		for part := range n {
			run := v[from : from+runs[part]]
			from += runs[part]
			if runKind(run[0]) != runText || run == lastWords[part] {
				continue // numbers and bytes may take any value
			}
			lastWords[part] = run
			if words[part] == nil {
				words[part] = make(map[string]bool)
			}
			if words[part][run] = true; len(words[part]) > maxPartWords {
				return 0, 1
			}
		}
	}
	return best, parts
}

// partNoun says what a part holds, for a pattern like user<number>.
func partNoun(values []string) string {
	digits, text := 0, 0
	for _, v := range values {
		switch {
		case keytime.Digits(v):
			digits++
		case !isBinary(v):
			text++
		}
	}
	switch {
	case float64(digits) >= classMajority*float64(len(values)):
		return "number"
	case float64(digits+text) >= classMajority*float64(len(values)):
		return "text"
	}
	return "bytes"
}
