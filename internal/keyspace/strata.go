package keyspace

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Strata of the row sample. A table usually holds several datasets side
// by side, whose sizes differ by orders of magnitude: a uniform sample of
// 20,000 rows holds 20 rows of a dataset with a thousandth of the table,
// too few to tell how its keys are formed. Beside its uniform reservoir,
// the sample therefore keeps a small reservoir of every stratum (a coarse
// key form: the word a key starts with, or the shape of its leading
// number or hex), and a stratum the uniform reservoir holds fewer rows of
// is drawn from its own reservoir instead, its rows weighted by the
// stratum's size. Every row still stands for the rows of its stratum it
// was drawn from, so weighted totals stay unbiased.
const (
	// stratumRows is the size of each stratum's reservoir: enough rows
	// for the key-form checks (a rank correlation over ten stretches of
	// write time needs 300) with room to spare.
	stratumRows = 600
	// maxStrata is how many strata keep a reservoir at once; past it,
	// the stratum offered the most rows gives its reservoir up (the
	// uniform reservoir holds it best), for good, when it was offered at
	// least largeStratum rows; else the new stratum keeps none.
	maxStrata = 128
	// largeStratum is how many rows a stratum must have been offered to
	// give up its reservoir for a new one: ten reservoirs' worth, as many
	// as a uniform sample of 20,000 holds of a stratum of a third of
	// 600,000 rows.
	largeStratum = 10 * stratumRows
	// maxStratumWord is the longest leading word that names a stratum;
	// a longer word is cut.
	maxStratumWord = 16
	// maxDroppedStrata bounds the names of strata given up; past it no
	// stratum starts.
	maxDroppedStrata = 4096
	// minStratumHex is the shortest leading hex run that is a stratum of
	// its own ("x8", "x32"), not a word.
	minStratumHex = 8
)

// stratumOf returns the coarse key form of key that the sample
// stratifies by: the leading run of letters ("user" of user#42 and of
// user42), or, when a dot, dash, underscore or at sign joins it to more
// of one value (maps.google.com, alice_smith, alice.smith@example.com),
// that joining byte alone, so that host names, handles and e-mail
// addresses are one stratum each and not one per first word; the length
// of a leading run of decimal digits ("d13" for epoch millis), of a
// leading hex run of at least [minStratumHex] characters ("x8"), or the
// first byte.
func stratumOf(key string) string {
	name, _ := stratumSpan(key)
	return name
}

// stratumSpan returns [stratumOf] key and how many leading bytes decide
// it: every key that starts with key[:span] is of the same stratum. span
// is 0 when a run of the key's form goes on to its end, so that a longer
// key could be of another.
func stratumSpan(key string) (name string, span int) {
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isLetter := func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
	isHex := func(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
	if key == "" {
		return "", 0
	}
	hex := 0
	for hex < len(key) && isHex(key[hex]) {
		hex++
	}
	digits := 0
	for digits < len(key) && isDigit(key[digits]) {
		digits++
	}
	letters := 0
	if isLetter(key[0]) {
		for letters < len(key) && isLetter(key[letters]) {
			letters++
		}
	}
	// The bytes read: the runs, and the byte that ends the longer (the
	// digits run is never longer than the hex run).
	if read := max(hex, letters); read < len(key) {
		span = read + 1
	}
	switch {
	case hex >= minStratumHex && hex > digits && (hex == len(key) || !isLetter(key[hex])):
		return "x" + strconv.Itoa(hex), span
	case digits > 0:
		return "d" + strconv.Itoa(min(digits, 20)), span
	case letters > 0:
		if letters < len(key) && strings.IndexByte(".-_@", key[letters]) >= 0 {
			return "w" + key[letters:letters+1], span
		}
		return key[:min(letters, maxStratumWord)], span
	}
	return key[:1], span
}

// stratumMemo remembers the stratum of the last key asked: a scan offers
// its rows in key order, and the rows of a stratum side by side.
type stratumMemo struct {
	key  string
	span int
	name string
}

// of returns [stratumOf] key, from the last key's when key starts with
// the bytes that decided it.
func (m *stratumMemo) of(key string) string {
	if m.span > 0 && len(key) >= m.span && key[:m.span] == m.key[:m.span] {
		return m.name
	}
	m.name, m.span = stratumSpan(key)
	m.key = key
	return m.name
}

// stratum is one stratum's reservoir and how many rows it was offered.
type stratum struct {
	kept   sampleHeap
	offers int
	// weight is the number of table rows its offered rows stand for.
	weight float64
}

// strata are the sample's per-stratum reservoirs.
type strata struct {
	byName  map[string]*stratum
	dropped map[string]bool
	// lastName and last are the stratum offered the last row (in
	// byName), nil when it kept none or has since been given up.
	lastName string
	last     *stratum
}

// offer adds a row to its stratum's reservoir, with the sampling key the
// uniform reservoir gave it (so that a row both keep is the same draw).
func (s *strata) offer(name string, w weightedRow) {
	if s.last != nil && name == s.lastName {
		s.last.add(w)
		return
	}
	s.last = nil
	if s.dropped[name] {
		return
	}
	st := s.byName[name]
	if st == nil {
		if len(s.dropped) >= maxDroppedStrata {
			return
		}
		if s.byName == nil {
			s.byName, s.dropped = map[string]*stratum{}, map[string]bool{}
		}
		if len(s.byName) >= maxStrata && !s.dropLargest() {
			s.dropped[name] = true // no room: the uniform reservoir holds it
			return
		}
		st = &stratum{}
		s.byName[name] = st
	}
	s.lastName, s.last = name, st
	st.add(w)
}

// add counts the row offered and keeps it if its key is among the
// largest.
func (st *stratum) add(w weightedRow) {
	st.offers++
	st.weight += w.row.Weight
	st.keep(w)
}

// keep adds w to the stratum's reservoir if its key is among the largest.
func (st *stratum) keep(w weightedRow) {
	if len(st.kept) < stratumRows {
		st.kept = append(st.kept, w)
		st.kept.up(len(st.kept) - 1)
		return
	}
	if w.key > st.kept[0].key {
		st.kept[0] = w
		st.kept.down(0)
	}
}

// dropLargest gives up the reservoir of the stratum offered the most
// rows, if it was offered at least [largeStratum], and reports whether it
// did.
func (s *strata) dropLargest() bool {
	names := slices.Sorted(maps.Keys(s.byName))
	largest := names[0]
	for _, name := range names {
		if s.byName[name].offers > s.byName[largest].offers {
			largest = name
		}
	}
	if s.byName[largest].offers < largeStratum {
		return false
	}
	s.last = nil
	delete(s.byName, largest)
	s.dropped[largest] = true
	return true
}

// absorb merges other's strata into s, as if s had been offered other's
// rows too: a stratum either gave up is given up.
func (s *strata) absorb(other *strata) {
	s.last = nil
	for name := range other.dropped {
		if s.dropped == nil {
			s.byName, s.dropped = map[string]*stratum{}, map[string]bool{}
		}
		s.dropped[name] = true
		delete(s.byName, name)
	}
	for _, name := range slices.Sorted(maps.Keys(other.byName)) {
		if s.dropped[name] {
			continue
		}
		theirs := other.byName[name]
		mine := s.byName[name]
		if mine == nil {
			if s.byName == nil {
				s.byName, s.dropped = map[string]*stratum{}, map[string]bool{}
			}
			mine = &stratum{}
			s.byName[name] = mine
		}
		mine.offers += theirs.offers
		mine.weight += theirs.weight
		for _, w := range theirs.kept {
			mine.keep(w)
		}
	}
	for len(s.byName) > maxStrata {
		if !s.dropLargest() {
			// Keep the largest strata: the smallest go without.
			names := slices.Sorted(maps.Keys(s.byName))
			smallest := names[0]
			for _, name := range names {
				if s.byName[name].offers < s.byName[smallest].offers {
					smallest = name
				}
			}
			delete(s.byName, smallest)
			s.dropped[smallest] = true
		}
	}
}
