package diagnose

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// findingOf returns the one finding of kind, failing the test otherwise.
func findingOf(t *testing.T, findings []Finding, kind Kind) Finding {
	t.Helper()
	var found []Finding
	for _, f := range findings {
		if f.Kind == kind {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s findings, want 1: %v", len(found), kind, found)
	}
	return found[0]
}

func near(got, want, tolerance float64) bool { return math.Abs(got-want) <= tolerance }

// TestHotRangeEvidence counts the celebrity's rows and recent writes from
// the rows themselves (a full scan of 20,000 rows keeps them all in the
// sample) and checks the finding's numbers against them.
func TestHotRangeEvidence(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	f := findingOf(t, Diagnose(snap), KindHotKeyRange)
	prefix := "user#mila_rosewood#"

	var rows, celebrity int
	var first, last int64 = math.MaxInt64, math.MinInt64
	for _, r := range snap.Sample {
		rows++
		if strings.HasPrefix(string(r.Key), prefix) {
			celebrity++
		}
		first, last = min(first, r.FirstWrite), max(last, r.LastWrite)
	}
	if rows != 20_000 {
		t.Fatalf("sample holds %d rows, want all 20,000", rows)
	}
	// The recent window: the last tenth of the time buckets the data
	// spans, on the snapshot's grid.
	width := snap.TimeBucketMicros
	firstBucket, lastBucket := floorDivide(first, width), floorDivide(last, width)
	buckets := lastBucket - firstBucket + 1
	recentStart := (lastBucket + 1 - int64(math.Ceil(float64(buckets)/10))) * width
	var recent, recentCelebrity int
	for _, r := range snap.Sample {
		if r.FirstWrite >= recentStart {
			recent++
			if strings.HasPrefix(string(r.Key), prefix) {
				recentCelebrity++
			}
		}
	}

	checks := []struct {
		name      string
		got, want float64
	}{
		{"rows", f.Evidence["rows"], float64(celebrity)},
		{"row_share", f.Evidence["row_share"], float64(celebrity) / float64(rows)},
		{"recent_write_share", f.Evidence["recent_write_share"], float64(recentCelebrity) / float64(recent)},
		{"suggested_salt_buckets", f.Evidence["suggested_salt_buckets"], 8},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-4) {
			t.Errorf("evidence %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if celebrity != 7600 {
		t.Errorf("the scenario's celebrity has %d rows, want 38%% of 20,000", celebrity)
	}
	if !strings.Contains(f.Summary, "38% of the table's rows") || !strings.Contains(f.Summary, prefix) {
		t.Errorf("summary %q does not name the prefix and its share", f.Summary)
	}
	if f.Start != keyspace.Key(prefix) || f.End != keyspace.Key(keyspace.PrefixEnd(prefix)) {
		t.Errorf("range [%s, %s), want the prefix's range", f.Start, f.End)
	}
}

func floorDivide(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func TestRowFindingEvidence(t *testing.T) {
	large := Diagnose(scenarioSnapshot(t, "large-row-and-cell"))
	row := findingOf(t, large, KindLargeRow)
	// The row's logical size, from the generated row: its key, and per
	// cell family, qualifier, an 8-byte timestamp and the value.
	wantBytes := 0
	sc, _ := demo.Named("large-row-and-cell")
	err := sc.Generate(func(key string, cells ...keyspace.Cell) error {
		if key == string(row.Start) {
			wantBytes = len(key)
			for _, c := range cells {
				wantBytes += len(c.Family) + len(c.Qualifier) + 8 + int(c.ValueBytes)
			}
		}
		return nil
	})
	if err != nil || wantBytes < 120<<20 {
		t.Fatalf("the large row %q holds %d bytes (%v), want over 120 MiB", row.Start, wantBytes, err)
	}
	if row.Evidence["row_bytes"] != float64(wantBytes) || row.Severity != SeverityWarning {
		t.Errorf("large-row %s with row_bytes %v, want warning with %d", row.Severity, row.Evidence["row_bytes"], wantBytes)
	}
	cell := findingOf(t, large, KindLargeCell)
	if cell.Evidence["max_cell_bytes"] != 12<<20 || !strings.Contains(cell.Summary, "blob:data") {
		t.Errorf("large-cell evidence %v, summary %q", cell.Evidence, cell.Summary)
	}

	mem := findingOf(t, Diagnose(scenarioSnapshot(t, "memusage-single-row")), KindFrequentlyUpdatedRow)
	if mem.Evidence["versions"] != 5000 || !near(mem.Evidence["seconds_between_versions"], 15, 0.01) {
		t.Errorf("frequently-updated-row evidence %v, want 5000 versions every 15 s", mem.Evidence)
	}
	if !strings.Contains(mem.Summary, "stats:memusage") {
		t.Errorf("summary %q does not name the column", mem.Summary)
	}

	wide := findingOf(t, Diagnose(scenarioSnapshot(t, "wide-row")), KindWideRow)
	if wide.Evidence["columns"] != 100_000 {
		t.Errorf("wide-row columns %v, want 100000", wide.Evidence["columns"])
	}

	long := findingOf(t, Diagnose(scenarioSnapshot(t, "long-row-keys")), KindLongRowKey)
	if long.Severity != SeverityError || long.Evidence["max_key_bytes"] != float64(len("doc#")+4990+5) {
		t.Errorf("long-row-key %s with %v, want error with the 4,999-byte key", long.Severity, long.Evidence)
	}
	if long.Prefix != "doc#" {
		t.Errorf("long-row-key at %q, want the prefix doc#", long.Prefix)
	}
}

func TestKeyPatternEvidence(t *testing.T) {
	seq := Diagnose(scenarioSnapshot(t, "timeseries-timestamp-first"))
	if f := findingOf(t, seq, KindSequentialKeys); f.Evidence["rank_correlation"] < 0.99 || !near(f.Evidence["newest_rows_key_span"], 0.1, 0.01) {
		t.Errorf("sequential-keys evidence %v: want correlation near 1 and the newest tenth in a tenth of the keys", f.Evidence)
	}

	snap := scenarioSnapshot(t, "pii-login-keys")
	var emails, phones int
	for _, r := range snap.Sample {
		key := string(r.Key)
		switch {
		case strings.Contains(key, "@"):
			emails++
		case strings.HasPrefix(key, "+"):
			phones++
		}
	}
	pii := findingOf(t, Diagnose(snap), KindPIIInKey)
	if pii.Evidence["keys_with_email"] != float64(emails) || pii.Evidence["keys_with_phone"] != float64(phones) {
		t.Errorf("pii evidence %v, want %d e-mail and %d phone keys", pii.Evidence, emails, phones)
	}
	if strings.Contains(pii.Summary, "@example") && !strings.Contains(pii.Summary, "*") {
		t.Errorf("pii summary %q shows an unmasked address", pii.Summary)
	}

	unpadded := findingOf(t, Diagnose(scenarioSnapshot(t, "unpadded-user-ids")), KindUnpaddedNumber)
	if unpadded.Evidence["min_width"] != 1 || unpadded.Evidence["max_width"] != 7 || unpadded.Evidence["segment"] != 1 {
		t.Errorf("unpadded evidence %v, want widths 1 to 7 in segment 1", unpadded.Evidence)
	}
}

// TestSummariesArePrintable: hostile keys (ESC, CSI, NUL) never reach a
// summary raw.
func TestSummariesArePrintable(t *testing.T) {
	// Every demo table in the slow tier, six in the fast one (TestScenarios
	// diagnoses every one in both).
	for _, sc := range tier.Sample(slices.Concat(demo.Scenarios(), demo.TestTables()), 6) {
		for _, f := range Diagnose(scenarioSnapshot(t, sc.Name)) {
			for _, text := range []string{f.Summary, f.Advice} {
				for i := 0; i < len(text); i++ {
					if text[i] < 0x20 || text[i] >= 0x7f {
						t.Fatalf("%s: %s summary holds byte %#x: %q", sc.Name, f.Kind, text[i], text)
					}
				}
			}
		}
	}
}

func TestScanNotes(t *testing.T) {
	build := func(meta keyspace.Snapshot) []Finding {
		b := keyspace.NewBuilder(&meta, keyspace.Options{Delimiters: "#"})
		b.Add(&keyspace.Row{Key: "a#1", Weight: 4, Cells: []keyspace.Cell{{Family: "f", Qualifier: "q", Timestamp: time.Now().UnixMicro(), ValueBytes: 3}}})
		return Diagnose(b.Snapshot())
	}
	notes := func(findings []Finding) string {
		var s []string
		for _, f := range findings {
			if f.Kind == KindScanNote {
				s = append(s, f.Summary)
			}
		}
		return strings.Join(s, "\n")
	}
	cases := []struct {
		name  string
		meta  keyspace.Snapshot
		want  []string
		avoid []string
	}{
		{"emulator sampled incomplete", keyspace.Snapshot{Source: keyspace.SourceEmulator,
			Scan: keyspace.ScanInfo{Mode: keyspace.ModeSample, Fraction: 0.25, ValuesRead: true, Incomplete: "cancelled"}},
			[]string{"emulator: boundaries are samples, not tablets", "sampled scan", "incomplete scan (cancelled)", "garbage collection"}, nil},
		{"bigtable full", keyspace.Snapshot{Source: keyspace.SourceBigtable, RangesAreTablets: true,
			Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}},
			[]string{"garbage collection"}, []string{"tablets", "sampled", "incomplete", "values were not read"}},
		{"values stripped", keyspace.Snapshot{Source: keyspace.SourceBigtable, RangesAreTablets: true,
			Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Complete: true}},
			[]string{"values were not read"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := notes(build(c.meta))
			for _, want := range c.want {
				if !strings.Contains(got, want) {
					t.Errorf("notes lack %q:\n%s", want, got)
				}
			}
			for _, avoid := range c.avoid {
				if strings.Contains(got, avoid) {
					t.Errorf("notes hold %q:\n%s", avoid, got)
				}
			}
		})
	}
}

func TestFindingsAreSortedWorstFirst(t *testing.T) {
	findings := Diagnose(scenarioSnapshot(t, "long-row-keys"))
	for i := 1; i < len(findings); i++ {
		if findings[i].Severity > findings[i-1].Severity {
			t.Fatalf("finding %d (%s) after a milder one (%s)", i, findings[i].Severity, findings[i-1].Severity)
		}
	}
	if findings[0].Kind != KindLongRowKey {
		t.Fatalf("first finding %s, want the long-row-key error", findings[0].Kind)
	}
}
