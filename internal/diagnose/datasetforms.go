package diagnose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keytime"
)

// How dataset detection reads a key's top-level form ([datasetIndex]):
// its first field's kind, the shape of what follows it, and how words,
// numbers and value kinds are grouped into the forms of datasets.

// keyForm is what dataset detection reads from one key.
type keyForm struct {
	// form is the dataset form the first field gives; word is the tag
	// word when the field is one (form is then "" until words are
	// grouped).
	form, word string
	// rest is the shape of the fields after the first.
	rest string
	// delimiter is the byte that ends the first field, 0 for none.
	delimiter byte
	// width is the first field's length; class its class; digits is set
	// when it is all decimal digits.
	width  int
	class  segmentClass
	digits bool
}

// read returns the form of one key.
func (idx *datasetIndex) read(key string) keyForm {
	if isBinary(key) {
		// Raw bytes hold delimiter bytes by chance: such a key is one
		// field, and all of them are one form, unless it starts with a
		// tag word that text keys, or many binary keys, start with
		// ([datasetIndex.tagBinary]).
		f := keyForm{form: "<binary>", width: len(key), class: classBinary}
		if i := idx.firstFieldEnd(key); i > 0 && i < len(key) && !isBinary(key[:i+1]) {
			f.word, f.delimiter = key[:i], key[i]
		}
		if idx.binaryTags[f.word] {
			f.form = idx.join("tag:", f.word)
		}
		return f
	}
	end := idx.firstFieldEnd(key)
	var delimiter byte
	if end < len(key) {
		delimiter = key[end]
	}
	field := key[:end]
	f := keyForm{delimiter: delimiter, rest: idx.restShape(key[min(end+1, len(key)):]), width: len(field)}
	if keytime.Digits(field) {
		// A number, a time, a date: their forms go by width
		// ([datasetIndex.groupDigits]), whatever each value looks like.
		f.digits = true
		f.class = classifySegment(field)
		f.form = "<digits>"
		return f
	}
	f.class = classifySegment(field)
	switch class := f.class; class {
	case classText:
		if word, ok := gluedWord(field); ok {
			f.form, f.word = idx.join(word, "<number>"), word
			return f
		}
		if hostLike(field) {
			f.form = "<host name>"
			return f
		}
		f.word = field
		return f
	case classDomain:
		f.form = "<host name>"
	case classHex, classBase64:
		f.form = "<" + class.String() + ", " + lengthBucket(len(field)) + ">"
	default:
		f.form = "<" + class.String() + ">"
	}
	return f
}

// lengthBucket names a length for a hex or base64 form: IDs of 8 and
// hashes of 32 characters are different datasets.
func lengthBucket(n int) string {
	switch {
	case n <= 12:
		return "short"
	case n <= 24:
		return "medium"
	}
	return "long"
}

// gluedWord returns the word of a field made of letters followed by
// digits (invoice123, sensor07, u0042).
func gluedWord(field string) (string, bool) {
	i := 0
	for i < len(field) && (field[i]|0x20 >= 'a' && field[i]|0x20 <= 'z') {
		i++
	}
	if i == 0 || i == len(field) {
		return "", false
	}
	for j := i; j < len(field); j++ {
		if field[j] < '0' || field[j] > '9' {
			return "", false
		}
	}
	return field[:i], true
}

// hostLike reports whether a field is written like a host name (two or
// more dot-separated labels of letters, digits and inner hyphens, with a
// letter), whichever end its top-level label is at: go.dev and
// de.wikipedia.org are host names too.
func hostLike(field string) bool {
	_, _, ok := hostLabels(field)
	return ok
}

// restShape writes the shape of the fields after a key's first: each
// field's class, a glued word as word<n>, joined by "/". Keys of a
// dataset share a handful of shapes: each is kept once.
func (idx *datasetIndex) restShape(rest string) string {
	if rest == "" {
		return ""
	}
	b := idx.scratch[:0]
	for from := 0; from < len(rest); {
		n := idx.splitter.Next(rest, from)
		field, _ := idx.splitter.Field(rest[from:from+n], 0)
		from += n
		if field == "" {
			continue // delimiters side by side part no field
		}
		if len(b) > 0 {
			b = append(b, '/')
		}
		class := classifySegment(field)
		if word, ok := gluedWord(field); ok && class == classText {
			b = append(append(b, word...), "<n>"...)
			continue
		}
		b = append(b, class.String()...)
	}
	idx.scratch = b
	if shape, ok := idx.shapes[string(b)]; ok {
		return shape
	}
	if idx.shapes == nil {
		idx.shapes = map[string]string{}
	}
	shape := string(b)
	idx.shapes[shape] = shape
	return shape
}

// join returns a + b, the one copy of it the index keeps: dataset
// detection names every sampled key's form, and tens of thousands of
// keys share a few forms.
func (idx *datasetIndex) join(a, b string) string {
	if last := idx.lastJoin; last[0] == a && last[1] == b {
		return last[2] // keys in order: the form of the key before
	}
	joined, ok := idx.names[[2]string{a, b}]
	if !ok {
		if idx.names == nil {
			idx.names = map[[2]string]string{}
		}
		joined = a + b
		idx.names[[2]string{a, b}] = joined
	}
	idx.lastJoin = [3]string{a, b, joined}
	return joined
}

// minBinaryTagShare is the share of the binary keys a tag word before a
// delimiter must lead for it to be a tag rather than bytes that happen to
// be printable (E| in a packed sensor ID), unless text keys have it too.
const minBinaryTagShare = 0.1

// tagBinary gives binary keys that start with a tag word (user#\x00\x01)
// the tag's dataset when text keys start with the word too, or at least
// [minBinaryTagShare] of the binary keys do.
func (idx *datasetIndex) tagBinary(forms []keyForm) {
	textWords := map[string]bool{}
	binaryWords := map[string]int{}
	binary := 0
	for _, f := range forms {
		switch {
		case f.form == "<binary>":
			binary++
			if f.word != "" {
				binaryWords[f.word]++
			}
		case f.form == "" && f.word != "":
			textWords[f.word] = true
		}
	}
	for word, n := range binaryWords {
		if textWords[word] || float64(n) >= minBinaryTagShare*float64(binary) {
			if idx.binaryTags == nil {
				idx.binaryTags = map[string]bool{}
			}
			idx.binaryTags[word] = true
		}
	}
	for i := range forms {
		f := &forms[i]
		if f.form == "<binary>" && idx.binaryTags[f.word] {
			f.form = "" // a tag word, given its form with the others
			continue
		}
		if f.form == "<binary>" {
			f.word, f.delimiter = "", 0 // a delimiter byte by chance
		}
	}
}

// groupWords gives tag words their forms: each word its own dataset while
// few words share one shape of key after them (user# and config#, or
// crawl# and pages# both before a host and a page), and all the words of
// a shape one dataset when more than [maxTagDatasets] do (tenants, bus
// companies, handles: an entity first).
func (idx *datasetIndex) groupWords(forms []keyForm) {
	modal := modalShapes(forms, func(f keyForm) (string, bool) { return f.word, f.form == "" })
	if len(modal) == 0 {
		return
	}
	wordsOf := map[string][]string{}
	for _, word := range slices.Sorted(maps.Keys(modal)) {
		wordsOf[modal[word]] = append(wordsOf[modal[word]], word)
	}
	grouped := map[string]bool{}
	for shape, words := range wordsOf {
		if len(words) > maxTagDatasets {
			grouped[shape] = true
		}
	}
	for i := range forms {
		f := &forms[i]
		if f.form != "" {
			continue
		}
		if shape := modal[f.word]; grouped[shape] {
			f.form = idx.join("<word>#", shape)
			f.word = ""
			continue
		}
		f.form = idx.join("tag:", f.word)
	}
	for shape := range grouped {
		idx.grouped[shape] = -1 // filled when the dataset is made
	}
}

// groupDigits gives leading numbers their forms by width: widths that
// follow one another (1 to 5 digits, an unpadded ID) are one form, while
// a gap parts them (a 1-digit salt and 8-digit IDs), whatever each value
// looks like (a reversed 8-digit ID may read as a date). Numbers as wide
// as the hex IDs of a form many times their number are hex IDs that
// happen to hold no letter (one in 40 of 8 hex digits), and join that
// form.
func (idx *datasetIndex) groupDigits(forms []keyForm) {
	numbers := map[int]int{}
	hexForms := map[int]map[string]int{}
	for _, f := range forms {
		switch {
		case f.digits:
			numbers[f.width]++
		case f.class == classHex:
			if hexForms[f.width] == nil {
				hexForms[f.width] = map[string]int{}
			}
			hexForms[f.width][f.form]++
		}
	}
	if len(numbers) == 0 {
		return
	}
	asHex := map[int]string{}
	for width, n := range numbers {
		for _, form := range slices.Sorted(maps.Keys(hexForms[width])) {
			if hexForms[width][form] >= decimalHexRatio*n {
				asHex[width] = form
			}
		}
	}
	widths := slices.Sorted(maps.Keys(numbers))
	runOf := map[int]string{}
	for i := 0; i < len(widths); {
		if _, ok := asHex[widths[i]]; ok {
			i++
			continue
		}
		j := i
		for j+1 < len(widths) && widths[j+1] == widths[j]+1 {
			if _, ok := asHex[widths[j+1]]; ok {
				break
			}
			j++
		}
		name := fmt.Sprintf("<%d-digit number>", widths[i])
		if j > i {
			name = fmt.Sprintf("<number of %d to %d digits>", widths[i], widths[j])
		}
		for _, w := range widths[i : j+1] {
			runOf[w] = name
		}
		i = j + 1
	}
	for i := range forms {
		f := &forms[i]
		if !f.digits {
			continue
		}
		if form, ok := asHex[f.width]; ok {
			f.form = form
			continue
		}
		f.form = runOf[f.width]
	}
	idx.digitForms = runOf
	idx.hexWidths = asHex
}

// mergeShapes makes one form of value forms whose keys go on alike after
// the first field (logins keyed by an e-mail address or a phone number,
// then a time): one dataset whose first field holds values of two kinds.
// Keys with nothing after the first field say nothing of the kind, and
// tag words and glued words are never merged.
func (idx *datasetIndex) mergeShapes(forms []keyForm) {
	modal := modalShapes(forms, func(f keyForm) (string, bool) {
		return f.form, strings.HasPrefix(f.form, "<") && f.form != "<binary>" && !strings.HasPrefix(f.form, "<word>")
	})
	byShape := map[string][]string{}
	for _, form := range slices.Sorted(maps.Keys(modal)) {
		if shape := modal[form]; shape != "" {
			byShape[shape] = append(byShape[shape], form)
		}
	}
	into := map[string]string{}
	for _, group := range byShape {
		if len(group) < 2 {
			continue
		}
		names := make([]string, len(group))
		for i, form := range group {
			names[i] = strings.Trim(form, "<>")
		}
		merged := "<" + strings.Join(names, " or ") + ">"
		for _, form := range group {
			into[form] = merged
		}
	}
	if len(into) == 0 {
		return
	}
	for i := range forms {
		if merged, ok := into[forms[i].form]; ok {
			forms[i].form = merged
		}
	}
	idx.merged = into
}

// decimalHexRatio is how many times more hex IDs of a width there must be
// than integers of that width for the integers to be hex IDs without a
// letter: of n random hex digits, a share (10/16)^n hold none, under a
// tenth from five digits on.
const decimalHexRatio = 9

// modalShapes returns, for each group of keys (group names a key's group
// and whether it has one), the most common shape of key after the first
// field among the group's keys ([keyForm.rest]; of equally common ones,
// the first in byte order).
func modalShapes(forms []keyForm, group func(keyForm) (string, bool)) map[string]string {
	counts := map[string]map[string]int{}
	for _, f := range forms {
		name, ok := group(f)
		if !ok {
			continue
		}
		if counts[name] == nil {
			counts[name] = map[string]int{}
		}
		counts[name][f.rest]++
	}
	modal := make(map[string]string, len(counts))
	for name, shapes := range counts {
		best, count := "", -1
		for _, shape := range slices.Sorted(maps.Keys(shapes)) {
			if shapes[shape] > count {
				best, count = shape, shapes[shape]
			}
		}
		modal[name] = best
	}
	return modal
}
