package demo

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestDesignsGenerateWhatTheySay: every design writes exactly the rows
// asked for, each key once and under its prefix, every cell inside the
// window, the same rows from the same seed; a good design plants nothing
// and a bad one a problem (or, for a band Bigtable balances, an info
// finding), each of a kind a stored table raises; and there are at least
// twelve of them.
func TestDesignsGenerateWhatTheySay(t *testing.T) {
	designs := Designs()
	if len(designs) < 12 {
		t.Fatalf("%d designs, want at least 12", len(designs))
	}
	w := lastWindow(composedWindow)
	for _, d := range designs {
		t.Run(d.Name, func(t *testing.T) {
			rows := max(d.MinRows, 300)
			if d.MaxRows > 0 {
				rows = min(rows, d.MaxRows)
			}
			for _, prefix := range []string{d.Tag + "#", ""} {
				if prefix == "" && d.BareForm == "" {
					continue
				}
				keys := func(seed uint64) []string {
					var keys []string
					err := d.Generate(rand.New(rand.NewPCG(seed, 1)), prefix, rows, w.start, w.end, func(key string, cells ...keyspace.Cell) error {
						keys = append(keys, key)
						for _, c := range cells {
							if c.Timestamp < w.start.UnixMicro() || c.Timestamp >= w.end.UnixMicro() {
								t.Fatalf("%q: a cell at %d, outside the window", key, c.Timestamp)
							}
						}
						if len(cells) == 0 {
							t.Fatalf("%q has no cell", key)
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					return keys
				}
				first := keys(1)
				if len(first) != rows {
					t.Errorf("prefix %q: %d rows, want %d", prefix, len(first), rows)
				}
				sorted := slices.Sorted(slices.Values(first))
				if len(slices.Compact(sorted)) != rows {
					t.Errorf("prefix %q: a key is written twice", prefix)
				}
				for _, key := range first {
					if !strings.HasPrefix(key, prefix) {
						t.Fatalf("%q is not under %q", key, prefix)
					}
				}
				if !slices.Equal(first, keys(1)) {
					t.Errorf("prefix %q: the same seed wrote other rows", prefix)
				}
				for _, loc := range d.Planted(prefix) {
					if !slices.Contains(findingKinds(), loc.Kind) || !strings.HasPrefix(loc.Key, prefix) {
						t.Errorf("planted %+v: not a kind a stored table raises, or not under %q", loc, prefix)
					}
				}
			}
			planted, expected := d.Planted(d.Tag+"#"), d.Expected(d.Tag+"#")
			if (d.Good && len(planted) > 0) || (!d.Good && len(planted)+len(expected) == 0) {
				t.Errorf("Good = %v with planted %v and expected %v", d.Good, planted, expected)
			}
		})
	}
}

// TestComposeIsPureAndBounded: a seed always makes the same table, of 2
// to 5 distinct designs under distinct prefixes, at most one bare dataset
// of each key shape, each dataset within its design's row bounds.
func TestComposeIsPureAndBounded(t *testing.T) {
	for seed := range uint64(200) {
		c := Compose(seed)
		if c.String() != Compose(seed).String() {
			t.Fatalf("seed %d composes two tables: %s and %s", seed, c, Compose(seed))
		}
		if n := len(c.Datasets); n < minComposed || n > maxComposed {
			t.Errorf("%s: %d datasets", c, n)
		}
		designs, prefixes, bare := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, d := range c.Datasets {
			if designs[d.Design.Name] || (d.Prefix != "" && prefixes[d.Prefix]) || (d.Prefix == "" && bare[d.Design.BareForm]) {
				t.Errorf("%s: %s repeats a design, a prefix or a bare key shape", c, d.Name())
			}
			designs[d.Design.Name], prefixes[d.Prefix] = true, true
			if d.Prefix == "" {
				bare[d.Design.BareForm] = true
			}
			if d.Rows < d.Design.MinRows || (d.Design.MaxRows > 0 && d.Rows > d.Design.MaxRows) {
				t.Errorf("%s: %s has %d rows, outside its design's bounds", c, d.Name(), d.Rows)
			}
		}
	}
}
