package diagnose

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/keytime"
)

// Datasets: a table usually holds several datasets (entity types) side by
// side, each under its own key prefix or in a key shape of its own
// (BIGTABLE-KEYS.md), and their sizes differ by orders of magnitude. The
// key-form checks judge each dataset on its own rows, and the hotspot
// checks compare ranges only with ranges of the same dataset: the first
// bytes of another dataset's keys are not siblings, and one dataset's
// size beside another's says nothing about load.
//
// A dataset is found by its keys' top-level form: the first field (up to
// the first delimiter) is a tag word (user in user#u0042#item#007), a
// word glued to a number (invoice in invoice123), or a value of a kind
// (an epoch time, an integer, a hex ID, a host name, an e-mail address).
// Tag words are datasets each, while there are few of them; many words of
// one form (user handles, tenant names) are one dataset, whose first
// field is an entity.

// Thresholds of dataset detection.
const (
	// maxTagDatasets is the most distinct tag words with the same shape of
	// key after them that are each a dataset; more are values of one
	// field (tenants, handles), one dataset.
	maxTagDatasets = 12
	// topDelimiters are the bytes that end a key's first field for
	// dataset detection, besides the snapshot's delimiters: the strong
	// delimiters, which never occur inside a value.
	topDelimiters = "#:/|"
)

// Dataset is one dataset of a table: the keys of one top-level form, and
// its share of the table.
type Dataset struct {
	// Name names the dataset: its prefix ("user#", "invoice"), or its key
	// shape ("<epoch millis>#…", "<host name>#…") when its keys share no
	// prefix. Escaped by [keyspace.Printable].
	Name string `json:"name"`
	// Prefix is what all its keys start with ("user#", "invoice"), or
	// empty for a key shape.
	Prefix keyspace.Key `json:"prefix"`
	// Start and End bound its keys, [Start, End): the prefix's range, or
	// from its first key to past its last. A dataset of a key shape may
	// share its range with others whose keys sort among its own.
	Start keyspace.Key `json:"start"`
	End   keyspace.Key `json:"end"`
	// Rows and Bytes estimate its size; RowShare, ByteShare and
	// WriteShare (of the cell versions stored) are its shares of the
	// table's, from the row sample. OpShare is its share of a traffic
	// recording's operations (0 without one).
	Rows       float64 `json:"rows"`
	Bytes      float64 `json:"bytes"`
	RowShare   float64 `json:"row_share"`
	ByteShare  float64 `json:"byte_share"`
	WriteShare float64 `json:"write_share"`
	OpShare    float64 `json:"op_share,omitempty"`
	// SampledRows is how many sampled rows it was found from.
	SampledRows int `json:"sampled_rows"`

	form string
	// times counts its keys whose first field is a time, of sampled
	// keys; example is one.
	times   int
	example string
}

// Datasets returns the datasets of snap in key order of their first key:
// one when its keys share one form (the whole table), several when it
// holds datasets side by side. A snapshot without keys has none.
func Datasets(snap *keyspace.Snapshot) []Dataset {
	if snap == nil {
		return nil
	}
	return findDatasets(snap).list
}

// datasetIndex is the datasets of a snapshot and how to tell which one a
// key belongs to.
type datasetIndex struct {
	list []Dataset
	// byForm maps a key's form ([datasetIndex.formOf]) to its dataset.
	byForm map[string]int
	// grouped maps the shape of a key after its first field to the
	// dataset of tag words grouped as one (handles, tenants), for words
	// the sample did not show.
	grouped    map[string]int
	delimiters string
	// digitForms and hexWidths give a leading number of a width its form
	// ([datasetIndex.groupDigits]); merged maps value forms to the form
	// they were merged into ([datasetIndex.mergeShapes]).
	digitForms map[int]string
	hexWidths  map[int]string
	merged     map[string]string
	// binaryTags are the tag words binary keys may start with.
	binaryTags map[string]bool
}

// datasetKey is one key dataset detection reads, with the rows, bytes
// and writes it stands for.
type datasetKey struct {
	key                 string
	rows, bytes, writes float64
	sampled             bool
}

// datasetKeys returns the keys to find datasets from: the row sample, or,
// for a recording alone, the keys the tree's leaves hold (weighted by
// their operations).
func datasetKeys(snap *keyspace.Snapshot) []datasetKey {
	var keys []datasetKey
	for _, row := range snap.Sample {
		keys = append(keys, datasetKey{key: string(row.Key), rows: row.Weight, bytes: row.Weight * float64(row.Bytes),
			writes: row.Weight * float64(row.Cells), sampled: true})
	}
	if len(keys) > 0 || snap.Root == nil {
		return keys
	}
	snap.Root.Walk(func(n *keyspace.Node) bool {
		if !n.IsLeaf() || n.Traffic == nil {
			return true
		}
		first, last, ok := n.KeyBounds()
		if !ok {
			return true
		}
		ops := max(n.Traffic.Ops, 1)
		keys = append(keys, datasetKey{key: string(first), rows: ops / 2, writes: n.Traffic.RowsWritten / 2})
		keys = append(keys, datasetKey{key: string(last), rows: ops / 2, writes: n.Traffic.RowsWritten / 2})
		return true
	})
	slices.SortFunc(keys, func(a, b datasetKey) int { return strings.Compare(a.key, b.key) })
	return keys
}

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

// findDatasets finds snap's datasets.
func findDatasets(snap *keyspace.Snapshot) *datasetIndex {
	keys := datasetKeys(snap)
	idx := &datasetIndex{byForm: map[string]int{}, grouped: map[string]int{}, delimiters: topDelimiters + snap.Delimiters}
	if len(keys) == 0 {
		return idx
	}
	forms := make([]keyForm, len(keys))
	for i, k := range keys {
		forms[i] = idx.read(k.key)
	}
	idx.tagBinary(forms)
	idx.groupWords(forms)
	idx.groupDigits(forms)
	idx.mergeShapes(forms)
	// Datasets by form, in the order of their first key.
	var total, totalBytes, totalWrites float64
	for i, k := range keys {
		f := forms[i]
		total += k.rows
		totalBytes += k.bytes
		totalWrites += k.writes
		at, ok := idx.byForm[f.form]
		if !ok {
			at = len(idx.list)
			idx.byForm[f.form] = at
			idx.list = append(idx.list, Dataset{form: f.form, Start: keyspace.Key(k.key)})
		}
		ds := &idx.list[at]
		ds.Rows += k.rows
		ds.Bytes += k.bytes
		ds.WriteShare += k.writes
		if k.sampled {
			ds.SampledRows++
		}
		if f.class == classTimestamp || f.class == classReversedTimestamp {
			ds.times++
			if ds.example == "" {
				ds.example = k.key[:f.width]
			}
		}
		ds.End = keyspace.Key(k.key) // the last key for now
		if f.word != "" && !strings.HasPrefix(f.form, "<") {
			ds.Prefix = keyspace.Key(f.word)
			if f.delimiter != 0 {
				ds.Prefix += keyspace.Key(f.delimiter)
			}
		}
	}
	for i := range idx.list {
		ds := &idx.list[i]
		ds.RowShare = share(ds.Rows, total)
		ds.ByteShare = share(ds.Bytes, totalBytes)
		ds.WriteShare = share(ds.WriteShare, totalWrites)
		idx.bound(ds, keys, forms)
	}
	idx.opShares(snap)
	return idx
}

// read returns the form of one key.
func (idx *datasetIndex) read(key string) keyForm {
	if isBinary(key) {
		// Raw bytes hold delimiter bytes by chance: such a key is one
		// field, and all of them are one form, unless it starts with a
		// tag word that text keys, or many binary keys, start with
		// ([datasetIndex.tagBinary]).
		f := keyForm{form: "<binary>", width: len(key), class: classBinary}
		if i := strings.IndexAny(key, idx.delimiters); i > 0 && !isBinary(key[:i+1]) {
			f.word, f.delimiter = key[:i], key[i]
		}
		if idx.binaryTags[f.word] {
			f.form = "tag:" + f.word
		}
		return f
	}
	end := len(key)
	var delimiter byte
	if i := strings.IndexAny(key, idx.delimiters); i >= 0 {
		end, delimiter = i, key[i]
	}
	field := key[:end]
	f := keyForm{delimiter: delimiter, rest: restShape(key[min(end+1, len(key)):], idx.delimiters), width: len(field)}
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
			f.form, f.word = word+"<number>", word
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
	labels := strings.Split(field, ".")
	if len(labels) < 2 {
		return false
	}
	letter := false
	for _, label := range labels {
		if !validLabel(label) {
			return false
		}
		letter = letter || strings.IndexFunc(label, func(r rune) bool { return r|0x20 >= 'a' && r|0x20 <= 'z' }) >= 0
	}
	return letter
}

// restShape writes the shape of the fields after a key's first: each
// field's class, a glued word as word<n>, joined by "/".
func restShape(rest, delimiters string) string {
	if rest == "" {
		return ""
	}
	var b strings.Builder
	for field := range strings.FieldsFuncSeq(rest, func(r rune) bool { return strings.ContainsRune(delimiters, r) }) {
		if b.Len() > 0 {
			b.WriteByte('/')
		}
		class := classifySegment(field)
		if word, ok := gluedWord(field); ok && class == classText {
			b.WriteString(word + "<n>")
			continue
		}
		b.WriteString(class.String())
	}
	return b.String()
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
			f.word = ""
		}
	}
}

// groupWords gives tag words their forms: each word its own dataset while
// few words share one shape of key after them, and all the words of a
// shape one dataset when many do (tenants, handles: an entity first).
func (idx *datasetIndex) groupWords(forms []keyForm) {
	// Each word's most common shape after it.
	shapes := map[string]map[string]int{}
	for _, f := range forms {
		if f.form != "" {
			continue
		}
		if shapes[f.word] == nil {
			shapes[f.word] = map[string]int{}
		}
		shapes[f.word][f.rest]++
	}
	if len(shapes) == 0 {
		return
	}
	modal := map[string]string{}
	wordsOf := map[string][]string{}
	for _, word := range slices.Sorted(maps.Keys(shapes)) {
		best, count := "", -1
		for _, shape := range slices.Sorted(maps.Keys(shapes[word])) {
			if shapes[word][shape] > count {
				best, count = shape, shapes[word][shape]
			}
		}
		modal[word] = best
		wordsOf[best] = append(wordsOf[best], word)
	}
	grouped := map[string]bool{}
	if len(shapes) > maxTagDatasets {
		for shape, words := range wordsOf {
			if len(words) > maxTagDatasets {
				grouped[shape] = true
			}
		}
	}
	for i := range forms {
		f := &forms[i]
		if f.form != "" {
			continue
		}
		if shape := modal[f.word]; grouped[shape] {
			f.form = "<word>#" + shape
			f.word = ""
			continue
		}
		f.form = "tag:" + f.word
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
	modal := map[string]map[string]int{}
	for _, f := range forms {
		if !strings.HasPrefix(f.form, "<") || f.form == "<binary>" || strings.HasPrefix(f.form, "<word>") {
			continue
		}
		if modal[f.form] == nil {
			modal[f.form] = map[string]int{}
		}
		modal[f.form][f.rest]++
	}
	byShape := map[string][]string{}
	for _, form := range slices.Sorted(maps.Keys(modal)) {
		best, count := "", -1
		for _, shape := range slices.Sorted(maps.Keys(modal[form])) {
			if modal[form][shape] > count {
				best, count = shape, modal[form][shape]
			}
		}
		if best != "" {
			byShape[best] = append(byShape[best], form)
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

// bound sets a dataset's name and range: its prefix's range, or from the
// first field of its first key to past the first field of its last.
func (idx *datasetIndex) bound(ds *Dataset, keys []datasetKey, forms []keyForm) {
	if ds.Prefix != "" {
		ds.Start, ds.End = prefixRange(string(ds.Prefix))
		ds.Name = keyspace.Printable(string(ds.Prefix))
		return
	}
	first, last := string(ds.Start), string(ds.End)
	ds.Start = keyspace.Key(first[:idx.firstFieldEnd(first)])
	ds.End = keyspace.Key(keyspace.PrefixEnd(last[:idx.firstFieldEnd(last)]))
	name := strings.TrimPrefix(ds.form, "tag:")
	if ds.SampledRows > 0 && float64(ds.times) >= classMajority*float64(ds.SampledRows) {
		name = "<" + timeKindName(classifySegment(ds.example), ds.example) + ">"
	}
	if shape, ok := strings.CutPrefix(ds.form, "<word>#"); ok {
		name = "<word>"
		if at, ok := idx.grouped[shape]; ok && at < 0 {
			idx.grouped[shape] = idx.byForm[ds.form]
		}
	}
	// Name the delimiter after the first field when the keys have one.
	for i, k := range keys {
		if forms[i].form == ds.form && forms[i].delimiter != 0 && strings.HasPrefix(k.key, first[:min(len(first), 1)]) {
			name += string(forms[i].delimiter) + "…"
			break
		}
	}
	ds.Name = name
}

// firstFieldEnd returns where key's first field ends.
func (idx *datasetIndex) firstFieldEnd(key string) int {
	if i := strings.IndexAny(key, idx.delimiters); i >= 0 {
		return i
	}
	return len(key)
}

// opShares sets each dataset's share of the recorded operations, from the
// tree's leaves.
func (idx *datasetIndex) opShares(snap *keyspace.Snapshot) {
	if !snap.HasTraffic() || snap.Root == nil || snap.Root.Traffic == nil || snap.Root.Traffic.Ops == 0 {
		return
	}
	ops := make([]float64, len(idx.list))
	var total float64
	snap.Root.Walk(func(n *keyspace.Node) bool {
		if !n.IsLeaf() || n.Traffic == nil {
			return true
		}
		first, _, ok := n.KeyBounds()
		if !ok {
			first = n.Start
		}
		total += n.Traffic.Ops
		if i := idx.of(string(first)); i >= 0 {
			ops[i] += n.Traffic.Ops
		}
		return true
	})
	for i := range idx.list {
		idx.list[i].OpShare = share(ops[i], total)
	}
}

// of returns the index of the dataset key belongs to, or -1 when its form
// is none of theirs.
func (idx *datasetIndex) of(key string) int {
	f := idx.read(key)
	if f.form == "" {
		if at, ok := idx.byForm["tag:"+f.word]; ok {
			return at
		}
		if at, ok := idx.grouped[f.rest]; ok && at >= 0 {
			return at
		}
		return -1
	}
	if f.digits {
		if form, ok := idx.hexWidths[f.width]; ok {
			f.form = form
		} else if form, ok := idx.digitForms[f.width]; ok {
			f.form = form
		}
	}
	if merged, ok := idx.merged[f.form]; ok {
		f.form = merged
	}
	if at, ok := idx.byForm[f.form]; ok {
		return at
	}
	return -1
}

// sortedByStart returns the datasets in key order of their start.
func (idx *datasetIndex) sortedByStart() []Dataset {
	list := slices.Clone(idx.list)
	slices.SortStableFunc(list, func(a, b Dataset) int { return cmp.Compare(a.Start, b.Start) })
	return list
}
