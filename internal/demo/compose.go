package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Bounds of a composition: how many datasets one table holds, the share
// of its rows each may take, and its size.
const (
	minComposed = 2
	maxComposed = 5
	// minComposedShare and maxComposedShare bound each dataset's share of
	// the rows, drawn log-uniformly between them: a dataset may be a
	// thousandth of the table or nine tenths of it.
	minComposedShare = 0.001
	maxComposedShare = 0.9
	// minComposedRows and maxComposedRows bound the table: large enough
	// that the smallest dataset's share leaves it its design's MinRows.
	minComposedRows = 20_000
	maxComposedRows = 300_000
	// bareChance is how often a design that may go without a prefix is
	// composed bare.
	bareChance = 0.4
	// composedWindow is the time span every dataset's writes fall in.
	composedWindow = 30 * 24 * time.Hour
)

// Composition is one table made of several [Design]s, each a dataset
// under its own prefix or bare, at a random share of the rows: the tables
// the guide recommends (several datasets side by side) with good and bad
// designs mixed, and the ground truth of what each must raise.
type Composition struct {
	// Seed made it: [Compose] with the same seed makes the same table.
	Seed     uint64
	Datasets []ComposedDataset
}

// ComposedDataset is one dataset of a [Composition].
type ComposedDataset struct {
	Design Design
	// Prefix is what every key of the dataset starts with: the design's
	// tag and "#", or "" for a bare dataset.
	Prefix string
	// Rows is the exact number of rows, and Share their share of the
	// table's.
	Rows  int
	Share float64
	// seed seeds the dataset's generator.
	seed uint64
}

// Planted returns the dataset's planted problems ([Design.Planted]).
func (d ComposedDataset) Planted() []Location { return d.Design.Planted(d.Prefix) }

// Expected returns the info findings the dataset must raise
// ([Design.Expected]).
func (d ComposedDataset) Expected() []Location { return d.Design.Expected(d.Prefix) }

// Name names the dataset: its prefix, or its design with "(bare)".
func (d ComposedDataset) Name() string {
	if d.Prefix != "" {
		return d.Prefix + " " + d.Design.Name
	}
	return d.Design.Name + " (bare)"
}

// Compose draws a table of 2 to 5 datasets from [Designs]: each design at
// most once, each bare (without a prefix) at random when it may be and
// no other bare dataset has its key shape, each at a share of the rows
// drawn log-uniformly from 0.1% to 90% (then scaled to add up), the
// table sized so that every dataset holds at least its design's MinRows.
// It is pure: the same seed gives the same composition.
func Compose(seed uint64) Composition {
	r := rand.New(rand.NewPCG(seed, 0x636f6d706f7365))
	designs := Designs()
	r.Shuffle(len(designs), func(i, j int) { designs[i], designs[j] = designs[j], designs[i] })
	n := minComposed + r.IntN(maxComposed-minComposed+1)
	c := Composition{Seed: seed}
	bareForms := map[string]bool{}
	weights := make([]float64, n)
	var sum float64
	for i, d := range designs[:n] {
		ds := ComposedDataset{Design: d, Prefix: d.Tag + "#", seed: r.Uint64()}
		if d.BareForm != "" && !bareForms[d.BareForm] && r.Float64() < bareChance {
			ds.Prefix = ""
			bareForms[d.BareForm] = true
		}
		c.Datasets = append(c.Datasets, ds)
		weights[i] = math.Exp(math.Log(minComposedShare) + r.Float64()*(math.Log(maxComposedShare)-math.Log(minComposedShare)))
		sum += weights[i]
	}
	// The table's size: the smallest that leaves every dataset its
	// design's MinRows at its share, within the bounds.
	total := float64(minComposedRows)
	for i, ds := range c.Datasets {
		if ds.Design.MaxRows == 0 {
			total = max(total, float64(ds.Design.MinRows)/(weights[i]/sum))
		}
	}
	total = min(total, maxComposedRows)
	// A dataset capped by its design's MaxRows leaves its rows to the
	// others, in their proportions.
	capped, uncappedWeight := 0.0, 0.0
	for i, ds := range c.Datasets {
		if limit := ds.Design.MaxRows; limit > 0 && weights[i]/sum*total > float64(limit) {
			capped += float64(limit)
		} else {
			uncappedWeight += weights[i]
		}
	}
	rows := 0
	for i := range c.Datasets {
		ds := &c.Datasets[i]
		if limit := ds.Design.MaxRows; limit > 0 && weights[i]/sum*total > float64(limit) {
			ds.Rows = limit
		} else {
			ds.Rows = max(int(math.Round(weights[i]/uncappedWeight*(total-capped))), ds.Design.MinRows)
			if limit > 0 {
				ds.Rows = min(ds.Rows, limit)
			}
		}
		rows += ds.Rows
	}
	for i := range c.Datasets {
		c.Datasets[i].Share = float64(c.Datasets[i].Rows) / float64(rows)
	}
	slices.SortFunc(c.Datasets, func(a, b ComposedDataset) int { return strings.Compare(a.Prefix+a.Design.Name, b.Prefix+b.Design.Name) })
	return c
}

// Rows returns the table's row count.
func (c Composition) Rows() int {
	rows := 0
	for _, d := range c.Datasets {
		rows += d.Rows
	}
	return rows
}

// String lists the datasets and their shares, for a test's log.
func (c Composition) String() string {
	parts := make([]string, len(c.Datasets))
	for i, d := range c.Datasets {
		parts[i] = fmt.Sprintf("%s %d rows (%.2f%%)", d.Name(), d.Rows, 100*d.Share)
	}
	return fmt.Sprintf("seed %d: %s", c.Seed, strings.Join(parts, ", "))
}

// Generate puts every row of every dataset, dataset by dataset; dataset
// is called before each dataset's first row with its index.
func (c Composition) Generate(dataset func(i int), put Put) error {
	w := lastWindow(composedWindow)
	for i, d := range c.Datasets {
		if dataset != nil {
			dataset(i)
		}
		r := rand.New(rand.NewPCG(d.seed, uint64(i)))
		if err := d.Design.Generate(r, d.Prefix, d.Rows, w.start, w.end, put); err != nil {
			return fmt.Errorf("composition %d, dataset %s: %w", c.Seed, d.Name(), err)
		}
	}
	return nil
}

// Scenario returns the composition as a test table: its rows, families
// and the warnings its datasets plant.
func (c Composition) Scenario() Scenario {
	w := lastWindow(composedWindow)
	var families, expect []string
	var locations []Location
	for _, d := range c.Datasets {
		families = append(families, d.Design.Families...)
		for _, p := range d.Planted() {
			if !slices.Contains(expect, p.Kind) {
				expect = append(expect, p.Kind)
			}
			locations = append(locations, p)
		}
	}
	slices.Sort(families)
	good := len(expect) == 0
	return Scenario{
		Name:        fmt.Sprintf("composition-%d", c.Seed),
		Description: c.String(),
		KeyFormat:   "several datasets",
		Good:        good,
		Expect:      expect,
		Locations:   locations,
		Families:    slices.Compact(families),
		Rows:        c.Rows(),
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		generate:    func(put Put) error { return c.Generate(nil, put) },
	}
}
