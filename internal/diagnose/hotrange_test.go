package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// twoPrefixSnapshot builds a table of one dataset, k#, split in two at
// its first byte: k#a… with 80% of the rows and k#b… with 20%, each row of
// k#b… rewritten versionsB times. With prefix "", a# and b# are two
// datasets of their own instead.
func twoPrefixSnapshot(versionsB int, prefix string) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceBigtable, Table: "t", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
		keyspace.Options{Delimiters: "#", Seed: 1})
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	add := func(key string, versions, i int) {
		cells := make([]keyspace.Cell, versions)
		for v := range cells {
			at := start.Add(time.Duration((i*7919)%10_000*versions+v) * time.Minute)
			cells[v] = keyspace.Cell{Family: "f", Qualifier: "q", Timestamp: at.UnixMicro(), ValueBytes: 20}
		}
		b.Add(&keyspace.Row{Key: key, Weight: 1, Cells: cells})
	}
	dataset := func(name string) string {
		if prefix == "" {
			return name + "#"
		}
		return prefix + name
	}
	for i := range 8000 {
		add(fmt.Sprintf("%s%05d", dataset("a"), i*7), 1, i)
	}
	for i := range 2000 {
		add(fmt.Sprintf("%s%05d", dataset("b"), i*7), versionsB, i)
	}
	return b.Snapshot()
}

// TestHotRangeAtAnyFanOut: a range of a dataset split in two at its first
// byte (far below the sibling rule's 16) that takes writes far above its
// share of the rows is hot, and the large one written in proportion is
// not.
func TestHotRangeAtAnyFanOut(t *testing.T) {
	hot := findingOf(t, Diagnose(twoPrefixSnapshot(20, "k#")), KindHotKeyRange)
	if hot.Prefix != "k#b" || hot.Start != "k#b" || hot.End != "k#c" || hot.Evidence["ranges"] != 2 {
		t.Errorf("hot range %q [%s, %s) with %v, want prefix k#b among 2 ranges", hot.Prefix, hot.Start, hot.End, hot.Evidence)
	}
	if share := hot.Evidence["write_share"]; !near(share, 400.0/480, 1e-3) || !near(hot.Evidence["row_share"], 0.2, 1e-3) {
		t.Errorf("write share %v and row share %v, want 0.833 and 0.2", share, hot.Evidence["row_share"])
	}
	for _, f := range Diagnose(twoPrefixSnapshot(1, "k#")) {
		if f.Kind == KindHotKeyRange {
			t.Errorf("writes in proportion to rows raised %s at %q: %s", f.Kind, f.Prefix, f.Summary)
		}
	}
}

// TestDatasetsAreNotSiblings: the same rows as two datasets, a# and b#,
// raise nothing: that one dataset takes more writes than its size says
// nothing about load (Bigtable splits a busy dataset's range as it does
// any other), and each is written evenly.
func TestDatasetsAreNotSiblings(t *testing.T) {
	snap := twoPrefixSnapshot(20, "")
	if got := len(Datasets(snap)); got != 2 {
		t.Fatalf("%d datasets, want a# and b#: %v", got, Datasets(snap))
	}
	for _, f := range Diagnose(snap) {
		if f.Severity > SeverityInfo {
			t.Errorf("two datasets raised %s %s at %q: %s", f.Severity, f.Kind, f.Prefix, f.Summary)
		}
	}
}

// accountsSnapshot builds 20,000 accounts acct#<8 digits> spread evenly
// over the number space; an account whose first digit is in hot keeps 20
// versions of its balance, any other one.
func accountsSnapshot(hot ...int) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceBigtable, Table: "t", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
		keyspace.Options{Delimiters: "#", Seed: 1})
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for i := range 20_000 {
		account := i * 5_000
		versions := 1
		if slices.Contains(hot, account/10_000_000) {
			versions = 20
		}
		cells := make([]keyspace.Cell, versions)
		for v := range cells {
			cells[v] = keyspace.Cell{Family: "f", Qualifier: "cents", Timestamp: start.Add(time.Duration((i*7919)%43_200+v*1_000) * time.Minute).UnixMicro(), ValueBytes: 8}
		}
		b.Add(&keyspace.Row{Key: fmt.Sprintf("acct#%08d", account), Weight: 1, Cells: cells})
	}
	return b.Snapshot()
}

// TestAdjacentHotRangesAreOne: two hot tenths side by side (acct#3… and
// acct#4…, each 42% of the writes in 10% of the rows) are one hot range
// [acct#3, acct#5), not two findings; a hot tenth alone stays as it was.
func TestAdjacentHotRangesAreOne(t *testing.T) {
	var hot []Finding
	for _, f := range Diagnose(accountsSnapshot(3, 4)) {
		if f.Kind == KindHotKeyRange {
			hot = append(hot, f)
		}
	}
	if len(hot) != 1 {
		t.Fatalf("%d hot-key-range findings, want one over both tenths: %v", len(hot), hot)
	}
	f := hot[0]
	if f.Start != "acct#3" || f.End != "acct#5" || f.Evidence["adjacent_ranges"] != 2 || f.Evidence["ranges"] != 10 {
		t.Errorf("hot range [%s, %s) with %v, want [acct#3, acct#5) joining 2 of 10 ranges", f.Start, f.End, f.Evidence)
	}
	if !near(f.Evidence["row_share"], 0.2, 1e-3) || !near(f.Evidence["write_share"], 80_000.0/96_000, 1e-3) {
		t.Errorf("row share %v and write share %v, want 0.2 and 0.833", f.Evidence["row_share"], f.Evidence["write_share"])
	}
	if !strings.Contains(f.Summary, "keys acct#3 to acct#5 (excluded)") || !strings.Contains(f.Summary, "2 adjacent ranges, each hot, of the 10") {
		t.Errorf("summary %q does not name the joined range", f.Summary)
	}

	one := findingOf(t, Diagnose(accountsSnapshot(3)), KindHotKeyRange)
	if one.Start != "acct#3" || one.End != "acct#4" || one.Prefix != "acct#3" {
		t.Errorf("one hot tenth: [%s, %s) prefix %q, want [acct#3, acct#4) prefix acct#3", one.Start, one.End, one.Prefix)
	}
	if _, ok := one.Evidence["adjacent_ranges"]; ok {
		t.Errorf("one hot tenth has adjacent_ranges in its evidence: %v", one.Evidence)
	}
}

// TestBandIsOneInfoFinding: YCSB's hotspot distribution over
// user%08d — the first fifth of the records taking four fifths of the
// updates — is a band of adjacent ranges none of which is hot alone: one
// info finding over the band, and no warning.
func TestBandIsOneInfoFinding(t *testing.T) {
	var bands []Finding
	for _, f := range Diagnose(bandSnapshot(t)) {
		if f.Severity > SeverityInfo {
			t.Errorf("the band raised %s %s: %s", f.Severity, f.Kind, f.Summary)
		}
		if f.Kind == KindHotKeyRange {
			bands = append(bands, f)
		}
	}
	if len(bands) != 1 {
		t.Fatalf("%d hot-key-range findings, want one info finding over the band: %v", len(bands), bands)
	}
	b := bands[0]
	// The hot fifth is user00000000 to user00000999 of 5,000 records.
	if b.Start > "user00000000" || b.End < "user00000999" || b.End > "user00002" || b.Evidence["band_min_factor"] != bandMinFactor {
		t.Errorf("band [%s, %s) with %v, want it to cover the first thousand records and no more than the next", b.Start, b.End, b.Evidence)
	}
	if !(strings.Contains(b.Summary, "none hot alone") || strings.Contains(b.Summary, "short of hot")) || !strings.Contains(b.Advice, "needs no salt") {
		t.Errorf("the band's summary or advice does not say what it is:\n%s\n%s", b.Summary, b.Advice)
	}
}
