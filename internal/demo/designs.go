package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// Dataset designs: the ways the schema guide says to key one dataset, and
// the ways it warns against, each a pure generator of a dataset's rows
// with its ground truth. Tests compose several of them into one table
// ([Compose]) to check that the diagnostics judge each dataset on its
// own, as a table usually holds several (BIGTABLE-KEYS.md: "Several
// datasets in one table, each under its own key prefix, is the
// recommended layout").

// Design is one way to key one dataset.
type Design struct {
	// Name is stable kebab-case.
	Name string
	// Description says what the dataset holds and how it is keyed.
	Description string
	// KeyFormat shows the key under the dataset prefix P ("P" is empty
	// when the design is composed bare).
	KeyFormat string
	// Good is true for a design the guide recommends: it raises no
	// warning or error.
	Good bool
	// Tag is the dataset prefix the design is composed under ("metrics"
	// is written "metrics#"), unless bare.
	Tag string
	// BareForm is the shape of the design's keys when it is composed
	// without a prefix ("digits", "hex", "words", "hosts", "word<number>"),
	// or "" when it always has one. A composition holds at most one bare
	// dataset of each shape: two of one shape without a prefix are one
	// dataset to anyone reading the keys.
	BareForm string
	// MinRows is the fewest rows the design is generated with: the size
	// below which its pattern is not yet what it is (twenty sequential IDs
	// are not a write front). MaxRows, when set, is the most (a config
	// set stays small whatever the table's size).
	MinRows, MaxRows int
	// Families lists the column families the design writes.
	Families []string

	generate func(g designRun) error
	planted  func(prefix string) []Location
	expected func(prefix string) []Location
}

// designRun is what a design's generator writes with: its random
// numbers, its key prefix ("" when bare), its exact row count, the time
// window its cells fall in, and where rows go.
type designRun struct {
	r      *rand.Rand
	prefix string
	rows   int
	w      window
	put    Put
}

// Planted returns the problems the design plants when composed under
// prefix ("" when bare): each a finding kind at a warning or error, and
// where it must point (the dataset's prefix, or one row). A good design
// plants none.
func (d Design) Planted(prefix string) []Location {
	if d.planted == nil {
		return nil
	}
	return d.planted(prefix)
}

// Expected returns the info findings the design must raise besides its
// planted problems (a wide band of hot keys, which Bigtable can balance,
// is one to watch rather than a warning).
func (d Design) Expected(prefix string) []Location {
	if d.expected == nil {
		return nil
	}
	return d.expected(prefix)
}

// Generate writes rows rows of the design under prefix, with cell times in
// [start, end), drawing from r: pure and deterministic, each key once.
func (d Design) Generate(r *rand.Rand, prefix string, rows int, start, end time.Time, put Put) error {
	if rows < 1 {
		return fmt.Errorf("design %s: asked for %d rows; ask for at least one", d.Name, rows)
	}
	return d.generate(designRun{r: r, prefix: prefix, rows: rows, w: window{start, end}, put: put})
}

// Designs returns every dataset design, good ones first, in a stable
// order.
func Designs() []Design {
	return slices.Concat(goodDesigns(), badDesigns())
}

// DesignNamed returns the design called name.
func DesignNamed(name string) (Design, bool) {
	i := slices.IndexFunc(Designs(), func(d Design) bool { return d.Name == name })
	if i < 0 {
		return Design{}, false
	}
	return Designs()[i], true
}

// uniqueKeys draws n distinct keys from next, which returns a key and the
// time its row was written, and returns them with their times, oldest
// first: the order a writer wrote them.
func uniqueKeys(n int, next func() (string, time.Time)) []timedKey {
	seen := make(map[string]bool, n)
	keys := make([]timedKey, 0, n)
	for tries := 0; len(keys) < n; tries++ {
		key, at := next()
		if seen[key] {
			continue
		}
		seen[key] = true
		keys = append(keys, timedKey{key, at})
	}
	slices.SortStableFunc(keys, func(a, b timedKey) int { return a.at.Compare(b.at) })
	return keys
}

// timedKey is a row key and the time its row was written.
type timedKey struct {
	key string
	at  time.Time
}

// putOneCell puts each key with one cell family:qualifier of size bytes
// (size drawn per row), in the order given.
func putOneCell(g designRun, keys []timedKey, family, qualifier string, size func() int) error {
	for _, k := range keys {
		if err := g.put(k.key, cellAt(family, qualifier, k.at, size())); err != nil {
			return err
		}
	}
	return nil
}

// dayOf writes a time's UTC day as yyyymmdd.
func dayOf(t time.Time) string { return t.UTC().Format("20060102") }

// prefixLocation is a finding at the dataset under prefix: the prefix
// itself, or "" for a bare dataset, whose findings name its key form.
func prefixLocation(kind, prefix string) Location { return Location{Kind: kind, Key: prefix} }
