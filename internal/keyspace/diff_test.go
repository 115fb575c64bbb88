package keyspace

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// feedSnapshot builds a full-scan snapshot of table with rows per user
// under "user#", one cell per row, written one second apart.
func feedSnapshot(table string, users map[string]int, opts Options) *Snapshot {
	b := NewBuilder(&Snapshot{Source: SourceEmulator, Table: table, Families: []string{"cf"},
		Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true, ValuesRead: true}}, opts)
	for user, n := range users {
		for i := range n {
			b.Add(row(fmt.Sprintf("user#%s#%04d", user, i), 1, cell("cf", "q", base+int64(i)*1e6, 10)))
		}
	}
	return b.Snapshot()
}

func near(got, want float64) bool { return math.Abs(got-want) < 1e-9 }

func TestDiffComparesPrefixesOfOneTable(t *testing.T) {
	before := feedSnapshot("feed", map[string]int{"alice": 3, "bob": 5, "celeb": 40}, Options{Delimiters: "#"})
	after := feedSnapshot("feed", map[string]int{"alice": 3, "bob": 5, "celeb": 10, "carol": 7}, Options{Delimiters: "#"})
	d, err := Diff(before, after, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 0 {
		t.Errorf("notes for two full scans of one table: %q", d.Notes)
	}
	if d.Before.Totals.Rows != 48 || d.After.Totals.Rows != 25 {
		t.Errorf("totals %v → %v, want 48 → 25", d.Before.Totals.Rows, d.After.Totals.Rows)
	}
	want := map[string]struct {
		status        PrefixStatus
		before, after float64 // row shares
	}{
		"user#":        {PrefixChanged, 1, 1},
		"user#alice#":  {PrefixUnchanged, 3.0 / 48, 3.0 / 25},
		"user#bob#":    {PrefixUnchanged, 5.0 / 48, 5.0 / 25},
		"user#celeb#":  {PrefixChanged, 40.0 / 48, 10.0 / 25},
		"user#carol#":  {PrefixAdded, 0, 7.0 / 25},
		"user#nobody#": {},
	}
	for prefix, w := range want {
		c, ok := d.Lookup(prefix)
		if w.status == "" {
			if ok {
				t.Errorf("%s compared, but neither snapshot has it", prefix)
			}
			continue
		}
		if !ok {
			t.Errorf("%s not compared", prefix)
			continue
		}
		if c.Status != w.status || !near(c.Before.RowShare, w.before) || !near(c.After.RowShare, w.after) {
			t.Errorf("%s: %s, row share %.4f → %.4f; want %s, %.4f → %.4f", prefix, c.Status, c.Before.RowShare, c.After.RowShare, w.status, w.before, w.after)
		}
		if !c.Before.Exact || !c.After.Exact || c.Depth != strings.Count(prefix, "#") {
			t.Errorf("%s: exact %v/%v depth %d", prefix, c.Before.Exact, c.After.Exact, c.Depth)
		}
	}
	largest := d.Largest(2)
	if len(largest) != 2 || largest[0].Prefix != "user#celeb#" || largest[1].Prefix != "user#carol#" {
		t.Fatalf("largest share changes %v, want user#celeb# then user#carol#", prefixesOf(largest))
	}
	if got := largest[0].ShareChange(); !near(got, 10.0/25-40.0/48) {
		t.Errorf("celeb share change %v", got)
	}
	if d.Before.TopPrefix.Prefix != "user#celeb#" || d.After.TopPrefix.Prefix != "user#celeb#" || !near(d.After.TopPrefix.RowShare, 0.4) {
		t.Errorf("top prefix %+v → %+v", d.Before.TopPrefix, d.After.TopPrefix)
	}
}

func prefixesOf(changes []PrefixChange) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Prefix.String())
	}
	return out
}

func TestDiffUnchangedAndRemoved(t *testing.T) {
	before := feedSnapshot("feed", map[string]int{"alice": 3, "bob": 5}, Options{Delimiters: "#"})
	after := feedSnapshot("feed", map[string]int{"alice": 3}, Options{Delimiters: "#"})
	d, err := Diff(before, after, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := d.Lookup("user#alice#")
	bob, _ := d.Lookup("user#bob#")
	if alice.Status != PrefixUnchanged || bob.Status != PrefixRemoved || bob.After.Rows != 0 {
		t.Fatalf("alice %s, bob %s (%v rows after)", alice.Status, bob.Status, bob.After.Rows)
	}
	if d.Count(PrefixRemoved) != 1 || d.Count(PrefixUnchanged) != 1 {
		t.Errorf("counts: removed %d unchanged %d", d.Count(PrefixRemoved), d.Count(PrefixUnchanged))
	}
	for _, c := range d.Largest(10) {
		if c.Status == PrefixUnchanged {
			t.Errorf("Largest lists unchanged %v", c.Prefix)
		}
	}
}

func TestDiffRefusesDifferentTablesUnlessAllowed(t *testing.T) {
	before := feedSnapshot("feed", map[string]int{"a": 1}, Options{Delimiters: "#"})
	after := feedSnapshot("feed\x1b[31m-v2", map[string]int{"a": 1}, Options{Delimiters: "#"})
	_, err := Diff(before, after, DiffOptions{})
	if !errors.Is(err, ErrDifferentTables) {
		t.Fatalf("error %v, want ErrDifferentTables", err)
	}
	if strings.Contains(err.Error(), "\x1b") || !strings.Contains(err.Error(), `feed\x1b[31m-v2`) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("error does not name the tables printably or say what to do: %q", err)
	}
	d, err := Diff(before, after, DiffOptions{AllowDifferentTables: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "different tables") || strings.Contains(d.Notes[0], "\x1b") {
		t.Errorf("notes %q", d.Notes)
	}
}

func TestDiffNotesScanDifferences(t *testing.T) {
	before := feedSnapshot("feed", map[string]int{"a": 4}, Options{Delimiters: "#"})
	after := feedSnapshot("feed", map[string]int{"a": 4}, Options{Delimiters: "#:"})
	after.Scan = ScanInfo{Mode: ModeSample, Fraction: 0.05, Prefix: "user#", Start: "user#", End: "user$", Incomplete: "cancelled\x07"}
	after.Source = SourceBigtable
	d, err := Diff(before, after, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(d.Notes, "\n")
	for _, want := range []string{
		"different sources: before was scanned on emulator, after on bigtable",
		"before is a full scan, after a sampled scan (5% of rows)",
		`different key ranges (before: all keys; after: prefix "user#")`,
		`the after scan is incomplete (cancelled\x07)`,
		`different delimiters ("#" before, "#:" after)`,
		"values were read in only one scan",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
}

// TestDiffNotesWriteNamesAsEveryOutputDoes: names in the notes follow
// the text rule every other output follows (escape.Text): a name in any
// script and the U+FFFD that invalid UTF-8 in a file decodes to read as
// they do in the reports, a bidi override is \xNN; the notes wrote them
// by the key rule (zo\xc3\xab, \xef\xbf\xbd).
func TestDiffNotesWriteNamesAsEveryOutputDoes(t *testing.T) {
	before := feedSnapshot("zoë\uFFFD", map[string]int{"a": 4}, Options{Delimiters: "#"})
	after := feedSnapshot("feed\u202e", map[string]int{"a": 4}, Options{Delimiters: "#"})
	after.Project, after.Source = "prøject", Source("emulatör")
	d, err := Diff(before, after, DiffOptions{AllowDifferentTables: true})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(d.Notes, "\n")
	for _, want := range []string{"\"zoë\uFFFD\" before", `"feed\xe2\x80\xae" after`, "after on emulatör"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, `\xef\xbf\xbd`) || strings.Contains(all, `\xc3`) || strings.Contains(all, "\u202e") {
		t.Errorf("notes write text by the key rule, or a bidi override raw:\n%s", all)
	}
	_, err = Diff(before, after, DiffOptions{})
	if err == nil || !strings.Contains(err.Error(), "\"zoë\uFFFD\" (before) and \"feed\\xe2\\x80\\xae\" (after)") {
		t.Errorf("err = %v", err)
	}
}

func TestDiffMissingSnapshot(t *testing.T) {
	snap := feedSnapshot("feed", map[string]int{"a": 1}, Options{Delimiters: "#"})
	for _, pair := range [][2]*Snapshot{{nil, snap}, {snap, nil}, {snap, {Table: "feed"}}} {
		if _, err := Diff(pair[0], pair[1], DiffOptions{}); err == nil {
			t.Errorf("Diff(%p, %p) succeeded", pair[0], pair[1])
		}
	}
}

// TestDiffMatchesMergedRangesByKeyRange compares a tree whose small
// siblings were merged into ranges with one that kept them apart.
func TestDiffMatchesMergedRangesByKeyRange(t *testing.T) {
	users := map[string]int{"hot": 50}
	for i := range 40 {
		users[fmt.Sprintf("u%02d", i)] = 1 + i%3
	}
	fine := feedSnapshot("feed", users, Options{Delimiters: "#"})
	coarse := feedSnapshot("feed", users, Options{Delimiters: "#", MaxChildren: 8})
	ranges := 0
	coarse.Root.Walk(func(n *Node) bool {
		if n.Kind == KindRange {
			ranges++
		}
		return true
	})
	if ranges == 0 {
		t.Fatal("the coarse tree merged nothing; the test needs merged ranges")
	}
	d, err := Diff(fine, coarse, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hot, _ := d.Lookup("user#hot#")
	if hot.Status != PrefixUnchanged || !hot.After.Exact {
		t.Errorf("user#hot#: %s exact %v", hot.Status, hot.After.Exact)
	}
	var inexact, removed int
	for _, c := range d.Prefixes {
		if !c.After.Exact {
			inexact++
			if c.After.Rows > c.Before.Rows {
				t.Errorf("%v: an inexact measure %v exceeds the exact %v; it must be a lower bound", c.Prefix, c.After.Rows, c.Before.Rows)
			}
		}
		if c.Status == PrefixRemoved && c.After.Exact {
			removed++
		}
	}
	if inexact == 0 {
		t.Error("no prefix straddles a merged range; every measure claims to be exact")
	}
	if removed != 0 {
		t.Errorf("%d prefixes show as removed although their rows are in merged ranges", removed)
	}
}

func TestRangeStats(t *testing.T) {
	snap := feedSnapshot("feed", map[string]int{"alice": 3, "bob": 5, "carol": 2}, Options{Delimiters: "#"})
	for _, tc := range []struct {
		start, end string
		rows       float64
	}{
		{"", "", 10},
		{"user#", "user$", 10},
		{"user#b", "user#c", 5},
		{"user#bob#0001", "user#bob#0003", 2},
		{"user#alice#", "user#carol#", 8},
		{"zzz", "", 0},
		{"a", "b", 0},
	} {
		stats, exact := RangeStats(snap.Root, tc.start, tc.end)
		if stats.Rows != tc.rows || !exact {
			t.Errorf("[%q, %q): %v rows, exact %v; want %v, exact", tc.start, tc.end, stats.Rows, exact, tc.rows)
		}
	}
	if stats, exact := RangeStats(nil, "", ""); stats.Rows != 0 || !exact {
		t.Errorf("nil tree: %v rows", stats.Rows)
	}
}

// saltedFeedSnapshot is feedSnapshot with every key behind "S#", S the
// row's number mod salts: the same rows, salted.
func saltedFeedSnapshot(table string, users map[string]int, salts int, opts Options) *Snapshot {
	b := NewBuilder(&Snapshot{Source: SourceEmulator, Table: table, Families: []string{"cf"},
		Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true, ValuesRead: true}}, opts)
	var keys []string
	for user, n := range users {
		for i := range n {
			keys = append(keys, fmt.Sprintf("%d#user#%s#%04d", i%salts, user, i))
		}
	}
	slices.Sort(keys)
	for i, key := range keys {
		b.Add(row(key, 1, cell("cf", "q", base+int64(i)*1e6, 10)))
	}
	return b.Snapshot()
}

func TestDiffFindsPrefixesMovedBehindASalt(t *testing.T) {
	users := map[string]int{"alice": 8, "bob": 12, "celeb": 80}
	before := feedSnapshot("feed", users, Options{Delimiters: "#"})
	after := saltedFeedSnapshot("feed", users, 4, Options{Delimiters: "#"})
	d, err := Diff(before, after, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	moves := map[string]PrefixMove{}
	for _, m := range d.Moves {
		moves[m.Prefix.String()] = m
	}
	for prefix, want := range map[string]struct{ rows, share float64 }{
		"user#":        {100, 1},
		"user#celeb#":  {80, 0.8},
		"user#bob#":    {12, 0.12},
		"user#alice#":  {8, 0.08},
		"user#nobody#": {},
	} {
		m, ok := moves[prefix]
		if want.rows == 0 {
			if ok {
				t.Errorf("%s moved, but neither snapshot has it", prefix)
			}
			continue
		}
		if !ok {
			t.Errorf("%s not found moved; moves %+v", prefix, d.Moves)
			continue
		}
		if m.Direction != MovedBehind || len(m.Pieces) != 4 {
			t.Errorf("%s: %s in %d pieces, want behind a new leading segment in 4", prefix, m.Direction, len(m.Pieces))
		}
		// Every row is still there, a quarter behind each salt.
		if !near(m.Whole.Rows, want.rows) || !near(m.Sum.Rows, want.rows) || !near(m.Whole.RowShare, want.share) || !near(m.Sum.RowShare, want.share) {
			t.Errorf("%s: %v rows (share %v) before, %v (share %v) in the pieces; want %v (%v) on both",
				prefix, m.Whole.Rows, m.Whole.RowShare, m.Sum.Rows, m.Sum.RowShare, want.rows, want.share)
		}
		if largest := m.Largest(); !near(largest.Measure.Rows, want.rows/4) || !strings.HasSuffix(string(largest.Prefix), "#"+prefix) {
			t.Errorf("%s: largest piece %s with %v rows, want a salt in front and %v rows", prefix, largest.Prefix, largest.Measure.Rows, want.rows/4)
		}
	}
	if d.Moves[0].Prefix != "user#" || d.Moves[1].Prefix != "user#celeb#" {
		t.Errorf("moves not largest first: %s, %s", d.Moves[0].Prefix, d.Moves[1].Prefix)
	}

	// The other way round, the salt taken out, the same prefixes move to
	// the front.
	back, err := Diff(after, before, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Moves) != len(d.Moves) || back.Moves[1].Prefix != "user#celeb#" || back.Moves[1].Direction != MovedToFront ||
		!near(back.Moves[1].Whole.Rows, 80) || len(back.Moves[1].Pieces) != 4 {
		t.Errorf("unsalting: moves %+v", back.Moves)
	}

	// One table over time with no move has none.
	same, err := Diff(before, feedSnapshot("feed", map[string]int{"alice": 9, "bob": 12}, Options{Delimiters: "#"}), DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Moves) != 0 {
		t.Errorf("moves without a salt: %+v", same.Moves)
	}
}
