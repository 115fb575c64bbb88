package diagnose

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// TestUnpaddedSequentialAtAnySize: greeting1 … greetingN written in order
// raises unpadded-number, sequential-numeric-id and sequential-keys at any
// row count, near a power of ten or not, although byte order scrambles
// numeric order.
func TestUnpaddedSequentialAtAnySize(t *testing.T) {
	// Every size in the slow tier; two in the fast one, where a 250,000-row
	// table takes seconds to build under -race.
	sizes := []int{1_000, 5_000, 37_000, 100_000, 250_000}
	if !tier.Slow {
		sizes = []int{5_000, 37_000}
	}
	for _, rows := range sizes {
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			t.Parallel()
			sc := demo.UnpaddedSequentialTable(rows)
			snap, err := sc.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			findings := Diagnose(snap)
			expectation{kinds: sc.Expect, locations: sc.Locations}.check(t, findings)
			id := findingOf(t, findings, KindSequentialNumericID)
			if !strings.Contains(id.Summary, "greeting<number>") {
				t.Errorf("summary %q does not name the number after greeting", id.Summary)
			}
		})
	}
}

func TestSplitParts(t *testing.T) {
	cases := []struct {
		name   string
		values func(i int) string
		parts  int
	}{
		{"a word and an unpadded ID", func(i int) string { return fmt.Sprintf("user%d", i*7+1) }, 2},
		{"a word, a number, a word", func(i int) string { return fmt.Sprintf("sensor%dreading", i%40) }, 3},
		{"a padded ID after a letter", func(i int) string { return fmt.Sprintf("p%06d", i) }, 2},
		{"roles, numbers, regions", func(i int) string { return fmt.Sprintf("%s-%02d-euw%d", []string{"api", "web", "db"}[i%3], i%40, i%3) }, 4},
		{"handles with a number on some", func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("carmen_garcia%d", i)
			}
			return "bob_smith"
		}, 1},
		{"handles with a number on all", func(i int) string { return fmt.Sprintf("name%c%c_%d", 'a'+i%26, 'a'+i/26%26, i) }, 1},
		{"hex hashes", func(i int) string { return fmt.Sprintf("%08x", uint32(i)*2654435761) }, 1},
		{"dates", func(i int) string { return fmt.Sprintf("2026-10-%02d", 1+i%28) }, 1},
		{"plain words", func(i int) string { return []string{"alpha", "beta", "gamma"}[i%3] }, 1},
		{"phone numbers", func(i int) string { return fmt.Sprintf("+4477009%05d", i) }, 1},
		{"text then bytes", func(i int) string { return fmt.Sprintf("dev%c%c", 1+i%20, 2+i/20%20) }, 2},
	}
	for _, c := range cases {
		values := make([]string, 500)
		for i := range values {
			values[i] = c.values(i)
		}
		if _, parts := splitParts(values); parts != c.parts {
			t.Errorf("%s (%q, %q): %d parts, want %d", c.name, values[0], values[1], parts, c.parts)
		}
	}
}

// TestSortByTime: the packed sort and the comparison sort give one order,
// oldest first, ties later-in-key-order first.
func TestSortByTime(t *testing.T) {
	rows := make([]keyspace.SampledRow, 1000)
	for i := range rows {
		rows[i].FirstWrite = 1_793_000_000_000_000 + int64(i*7919%97)*1_000_000
	}
	got := sortByTime(rows)
	want := slices.Clone(got)
	slices.SortFunc(want, func(a, b int) int {
		return cmp.Or(cmp.Compare(rows[a].FirstWrite, rows[b].FirstWrite), cmp.Compare(b, a))
	})
	if !slices.Equal(got, want) {
		t.Fatalf("packed order differs from the comparison order")
	}
	rows[0].FirstWrite = math.MinInt64 / 2 // a span too wide to pack
	got = sortByTime(rows)
	sorted := slices.IsSortedFunc(got, func(a, b int) int {
		return cmp.Or(cmp.Compare(rows[a].FirstWrite, rows[b].FirstWrite), cmp.Compare(b, a))
	})
	if !sorted || got[0] != 0 {
		t.Fatalf("comparison order wrong: %v", got[:3])
	}
}

// keysSnapshot builds a table of the given keys, one cell each, written
// in the order given.
func keysSnapshot(keys []string, delimiters string) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceBigtable, Table: "t", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
		keyspace.Options{Delimiters: delimiters, DelimitersDecided: true, Seed: 1})
	for i, key := range keys {
		b.Add(&keyspace.Row{Key: key, Weight: 1, Cells: []keyspace.Cell{{Family: "f", Qualifier: "q", Timestamp: int64(i) * 1_000_000, ValueBytes: 20}}})
	}
	return b.Snapshot()
}

// TestUnpaddedExampleSharesThePrefix: the pair unpadded-number shows sorts
// the wrong way round because of the number alone: both keys share what
// comes before it. Taken from any two rows, t09#user1000 "sorts before"
// t00#user9 (it does not: t00 comes first), and order1000 before user9
// says nothing about numbers.
func TestUnpaddedExampleSharesThePrefix(t *testing.T) {
	var tenants, words []string
	for tenant := range 10 {
		for id := 1; id <= 100*(tenant+1); id++ {
			tenants = append(tenants, fmt.Sprintf("t%02d#user%d", tenant, id))
		}
	}
	for id := 10; id <= 1000; id++ {
		words = append(words, fmt.Sprintf("order%d", id))
	}
	orders := slices.Clone(words)
	for id := 1; id <= 500; id++ {
		words = append(words, fmt.Sprintf("user%d", id))
	}
	cases := []struct {
		name, delimiters string
		keys             []string
		want             string
	}{
		{"tenants", "#", tenants, "t00#user100 sorts before t00#user9"},
		{"words", "", orders, "order1000 sorts before order99"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := findingOf(t, Diagnose(keysSnapshot(tc.keys, tc.delimiters)), KindUnpaddedNumber)
			if !strings.HasSuffix(f.Summary, ": "+tc.want) {
				t.Errorf("summary %q, want it to end with the example %q", f.Summary, tc.want)
			}
		})
	}
	// order<n> and user<n> are two datasets: each has its own finding,
	// its example from its own keys.
	var examples []string
	for _, f := range Diagnose(keysSnapshot(words, "")) {
		if f.Kind == KindUnpaddedNumber {
			examples = append(examples, f.Summary[strings.LastIndex(f.Summary, ": ")+2:])
		}
	}
	slices.Sort(examples)
	if want := []string{"order1000 sorts before order99", "user100 sorts before user9"}; !slices.Equal(examples, want) {
		t.Errorf("examples of the two datasets %q, want %q", examples, want)
	}
}

// TestSequentialSummaryAgreesWithTheNewestRowsSpan: greeting1 …
// greeting1001 (and … 10001) follow write time overall, but their newest
// tenth spans the whole key order (greeting1000 sorts beside greeting100):
// the summary must not say those rows all go to the end. Timestamp-first
// keys, whose newest tenth sits in the last tenth, still say so.
func TestSequentialSummaryAgreesWithTheNewestRowsSpan(t *testing.T) {
	for _, rows := range []int{1_001, 10_001} {
		sc := demo.UnpaddedSequentialTable(rows)
		snap, err := sc.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		f := findingOf(t, Diagnose(snap), KindSequentialKeys)
		if span := f.Evidence["newest_rows_key_span"]; span <= oneEndSpan {
			t.Fatalf("%d rows: the newest rows span %v of the key order; this test needs a wide span", rows, span)
		}
		if strings.Contains(f.Summary, "all go to the") || !strings.Contains(f.Summary, "rather than one end of it") {
			t.Errorf("%d rows: summary %q says the newest rows, which span the key order, go to one end", rows, f.Summary)
		}
	}
	f := findingOf(t, Diagnose(scenarioSnapshot(t, "timeseries-timestamp-first")), KindSequentialKeys)
	if !strings.Contains(f.Summary, "sit in 10% of the key order, so new rows all go to the end of the table") {
		t.Errorf("timestamp-first keys: summary %q", f.Summary)
	}
}
