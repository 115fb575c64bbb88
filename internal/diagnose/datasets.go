package diagnose

import (
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
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
	// maxTagDatasets is the most tag words followed by one shape of key
	// that are each a dataset: more are the values of one field (tenants,
	// bus companies, handles), one dataset, as more than [maxWriteFronts]
	// values of a field are where keys fan out.
	maxTagDatasets = maxWriteFronts
	// topDelimiters are the bytes that end a key's first field for
	// dataset detection, besides the snapshot's delimiters: the strong
	// delimiters, which never occur inside a value.
	topDelimiters = "#:/|"
)

// Dataset is one dataset of a table: the keys of one top-level form, and
// its share of the table.
type Dataset struct {
	// Name names the dataset: its prefix ("user#", "invoice"), or its key
	// shape ("<epoch millis>#...", "<host name>#...") when its keys share no
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
	// writes sums the writes of its keys, until WriteShare is set.
	writes float64
	// keys counts the keys it was found from, times those whose first
	// field is a time; example is one, and delimiter the byte that ends
	// the first field of its keys (0 for none).
	keys, times int
	example     string
	delimiter   byte
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
	// byForm maps a key's form ([datasetIndex.read]) to its dataset.
	byForm map[string]int
	// grouped maps the shape of a key after its first field to the
	// dataset of tag words grouped as one (handles, tenants), for words
	// the sample did not show.
	grouped map[string]int
	// splitter cuts keys at the bytes that end a key's first field
	// and part the fields after it.
	splitter keyspace.Splitter
	// digitForms and hexWidths give a leading number of a width its form
	// ([datasetIndex.groupDigits]); merged maps value forms to the form
	// they were merged into ([datasetIndex.mergeShapes]).
	digitForms map[int]string
	hexWidths  map[int]string
	merged     map[string]string
	// binaryTags are the tag words binary keys may start with.
	binaryTags map[string]bool
	// sampled holds the dataset of every key datasets were found from,
	// made from keys and forms when [datasetIndex.of] is first asked
	// (a table of one dataset without traffic never asks).
	sampled map[string]int
	keys    []keyspace.SampledRow
	forms   []keyForm
	// names and shapes keep one copy of each form and key shape
	// ([datasetIndex.join], [datasetIndex.restShape]); lastJoin is the
	// last form joined, and scratch where a shape is written.
	names    map[[2]string]string
	lastJoin [3]string
	shapes   map[string]string
	scratch  []byte
}

// datasetKeys returns the keys to find datasets from, as rows: the row
// sample itself, or, for a recording alone, the first and last key each
// of the tree's leaves touched, in key order, as rows of weight 0 (a
// recording stores no rows: its keys stand for operations only,
// [datasetIndex.opShares]). sampled says which.
func datasetKeys(snap *keyspace.Snapshot) (keys []keyspace.SampledRow, sampled bool) {
	if len(snap.Sample) > 0 || snap.Root == nil {
		return snap.Sample, true
	}
	snap.Root.Walk(func(n *keyspace.Node) bool {
		if !n.IsLeaf() || n.Traffic == nil {
			return true
		}
		if first, last, ok := n.KeyBounds(); ok {
			keys = append(keys, keyspace.SampledRow{Key: first}, keyspace.SampledRow{Key: last})
		}
		return true
	})
	slices.SortFunc(keys, func(a, b keyspace.SampledRow) int { return strings.Compare(string(a.Key), string(b.Key)) })
	return keys, false
}

// findDatasets finds snap's datasets.
func findDatasets(snap *keyspace.Snapshot) *datasetIndex {
	keys, sampled := datasetKeys(snap)
	idx := &datasetIndex{byForm: map[string]int{}, grouped: map[string]int{}, splitter: keyspace.NewSplitter(topDelimiters + snap.Delimiters)}
	if len(keys) == 0 {
		return idx
	}
	forms := make([]keyForm, len(keys))
	for i, k := range keys {
		forms[i] = idx.read(string(k.Key))
	}
	idx.tagBinary(forms)
	idx.groupWords(forms)
	idx.groupDigits(forms)
	idx.mergeShapes(forms)
	// Datasets by form, in the order of their first key.
	var total, totalBytes, totalWrites float64
	for i, k := range keys {
		f, key := forms[i], string(k.Key)
		rows, bytes, writes := k.Weight, k.Weight*float64(k.Bytes), k.Weight*float64(k.Cells)
		total += rows
		totalBytes += bytes
		totalWrites += writes
		at, ok := idx.byForm[f.form]
		if !ok {
			at = len(idx.list)
			idx.byForm[f.form] = at
			idx.list = append(idx.list, Dataset{form: f.form, Start: k.Key})
		}
		ds := &idx.list[at]
		ds.Rows += rows
		ds.Bytes += bytes
		ds.writes += writes
		ds.keys++
		if ds.delimiter == 0 {
			ds.delimiter = f.delimiter
		}
		if sampled {
			ds.SampledRows++
		}
		if f.class == classTimestamp || f.class == classReversedTimestamp {
			ds.times++
			if ds.example == "" {
				ds.example = key[:f.width]
			}
		}
		ds.End = k.Key // the last key for now
		if f.word != "" && !strings.HasPrefix(f.form, "<") {
			// The prefix is the word and the delimiter right after it
			// (user#), or the word alone when a number comes between
			// (invoice in invoice123#line4) or the keys disagree on the
			// delimiter.
			prefix := f.word
			if n := len(f.word); f.delimiter != 0 && n < len(key) && key[n] == f.delimiter {
				prefix = key[:n+1]
			}
			if ds.Prefix == "" {
				ds.Prefix = keyspace.Key(prefix)
			} else if string(ds.Prefix) != prefix {
				ds.Prefix = keyspace.Key(keyspace.CommonPrefix(string(ds.Prefix), prefix))
			}
		}
	}
	idx.keys, idx.forms = keys, forms
	for i := range idx.list {
		idx.bound(&idx.list[i])
	}
	if snap.Root != nil && snap.Root.Rows > 0 {
		total, totalBytes, totalWrites = idx.treeSizes(snap.Root)
	}
	for i := range idx.list {
		ds := &idx.list[i]
		ds.RowShare = share(ds.Rows, total)
		ds.ByteShare = share(ds.Bytes, totalBytes)
		ds.WriteShare = share(ds.writes, totalWrites)
	}
	idx.opShares(snap)
	return idx
}

// treeSizes takes the sizes of the datasets with a prefix from the tree,
// which counts every row a scan read (exact after a full scan), and
// gives the datasets without one the rest of the table, in proportion to
// the sample's estimates of them. It returns the table's rows, bytes and
// cells.
func (idx *datasetIndex) treeSizes(root *keyspace.Node) (rows, bytes, writes float64) {
	rows, bytes, writes = root.Rows, root.Bytes, root.Cells
	restRows, restBytes, restWrites := rows, bytes, writes
	var shapeRows, shapeBytes, shapeWrites float64
	fromTree := make([]bool, len(idx.list))
	for i := range idx.list {
		ds := &idx.list[i]
		if n := prefixNode(root, ds); n != nil {
			ds.Rows, ds.Bytes, ds.writes = n.Rows, n.Bytes, n.Cells
			restRows, restBytes, restWrites = restRows-n.Rows, restBytes-n.Bytes, restWrites-n.Cells
			fromTree[i] = true
			continue
		}
		shapeRows, shapeBytes, shapeWrites = shapeRows+ds.Rows, shapeBytes+ds.Bytes, shapeWrites+ds.writes
	}
	for i := range idx.list {
		if ds := &idx.list[i]; !fromTree[i] {
			ds.Rows = max(restRows, 0) * share(ds.Rows, shapeRows)
			ds.Bytes = max(restBytes, 0) * share(ds.Bytes, shapeBytes)
			ds.writes = max(restWrites, 0) * share(ds.writes, shapeWrites)
		}
	}
	return rows, bytes, writes
}

// prefixNode returns the tree node of a dataset's prefix, nil when it
// has none: the node [keyspace.Node.Lookup] finds for the prefix, if it
// holds rows and its range holds the dataset's. A prefix without a
// delimiter (invoice, of invoice123#line4) may name a row instead, keyed
// by the bare word, which holds none of the dataset's other keys.
func prefixNode(root *keyspace.Node, ds *Dataset) *keyspace.Node {
	if ds.Prefix == "" {
		return nil
	}
	path := root.Lookup(string(ds.Prefix))
	if path == nil {
		return nil
	}
	n := path[len(path)-1]
	if n.Rows <= 0 || n.Start > ds.Start || (n.End != "" && (ds.End == "" || n.End < ds.End)) {
		return nil
	}
	return n
}

// bound sets a dataset's name and range: its prefix's range, or from the
// first field of its first key to past the first field of its last.
func (idx *datasetIndex) bound(ds *Dataset) {
	if ds.Prefix != "" {
		ds.Start, ds.End = prefixRange(string(ds.Prefix))
		ds.Name = keyspace.Printable(string(ds.Prefix))
		return
	}
	first, last := string(ds.Start), string(ds.End)
	ds.Start = keyspace.Key(first[:idx.firstFieldEnd(first)])
	ds.End = keyspace.Key(keyspace.PrefixEnd(last[:idx.firstFieldEnd(last)]))
	name := strings.TrimPrefix(ds.form, "tag:")
	if ds.keys > 0 && float64(ds.times) >= classMajority*float64(ds.keys) {
		name = "<" + timeKindName(classifySegment(ds.example), ds.example) + ">"
	}
	if shape, ok := strings.CutPrefix(ds.form, "<word>#"); ok {
		name = "<word>"
		if at, ok := idx.grouped[shape]; ok && at < 0 {
			idx.grouped[shape] = idx.byForm[ds.form]
		}
	}
	// Name the delimiter after the first field when the keys have one.
	if ds.delimiter != 0 {
		name += string(ds.delimiter) + "..."
	}
	ds.Name = name
}

// firstFieldEnd returns where key's first field ends.
func (idx *datasetIndex) firstFieldEnd(key string) int {
	field, _ := idx.splitter.Field(key, 0)
	return len(field)
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
	if idx.sampled == nil {
		idx.sampled = make(map[string]int, len(idx.keys))
		for i, k := range idx.keys {
			idx.sampled[string(k.Key)] = idx.byForm[idx.forms[i].form]
		}
	}
	if at, ok := idx.sampled[key]; ok {
		return at
	}
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
