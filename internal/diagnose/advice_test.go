package diagnose

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
)

// adviceCase is one snapshot whose findings' advice is proofread.
type adviceCase struct {
	name     string
	snap     *keyspace.Snapshot
	findings []Finding // when already diagnosed
}

// adviceCases returns every demo scenario and test table, the newcomer's
// table joined with its app's traffic, the celebrity's table joined with
// reads of the celebrity (a hot range that two findings advise salting),
// recordings that raise each traffic kind, and a band of hot keys.
func adviceCases(t *testing.T) []adviceCase {
	var cases []adviceCase
	for _, sc := range slices.Concat(demo.Scenarios(), demo.TestTables()) {
		cases = append(cases, adviceCase{name: sc.Name, findings: scenarioFindings(t, sc.Name)})
	}
	newcomer, err := keyspace.Join(scenarioSnapshot(t, "newcomer-app"), newcomerRecording(t, 3000))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, adviceCase{name: "newcomer-app joined", snap: newcomer})
	celebrity := scenarioSnapshot(t, "social-celebrity")
	reads := record(t, func(add func(keyspace.Op)) {
		for i := range 4000 {
			user := "mila_rosewood"
			if i%4 == 0 {
				user = fmt.Sprintf("someone%03d", i%300)
			}
			add(read(i*10, fmt.Sprintf("user#%s#p%06d#%013d", user, i%400, 1_793_000_000_000+int64(i))))
		}
	})
	reads.Table = celebrity.Table
	joined, err := keyspace.Join(celebrity, reads)
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, adviceCase{name: "social-celebrity joined", snap: joined})
	cases = append(cases, adviceCase{name: "writes and scans", snap: record(t, func(add func(keyspace.Op)) {
		for i := range 3000 {
			user := fmt.Sprintf("u%03d", i%100)
			if i%2 == 0 {
				user = "hot"
			}
			add(write(i*10, keyspace.MethodMutateRow, fmt.Sprintf("user#%s#p%03d", user, i%300)))
			if i%500 == 0 {
				add(keyspace.Op{Time: at(i * 10), Method: keyspace.MethodReadRows, Ranges: []keyspace.KeyRange{{}},
					RowsRead: []keyspace.RowIO{{Key: "user#u000#p000", Bytes: 10}}})
			}
		}
	})})
	cases = append(cases, adviceCase{name: "hot band", snap: bandSnapshot(t)})
	return cases
}

// bandSnapshot is the hot-band design of package demo alone: YCSB's
// first fifth of records taking four fifths of the updates.
func bandSnapshot(t *testing.T) *keyspace.Snapshot {
	t.Helper()
	d, ok := demo.DesignNamed("hot-band")
	if !ok {
		t.Fatal("no hot-band design")
	}
	var rows []keyspace.Row
	err := d.Generate(rand.New(rand.NewPCG(5, 5)), "", 5_000, demo.DemoNow().AddDate(0, -1, 0), demo.DemoNow(), func(key string, cells ...keyspace.Cell) error {
		rows = append(rows, keyspace.Row{Key: key, Weight: 1, Cells: slices.Clone(cells)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	return demo.Scenario{Name: "hot-band", Families: d.Families}.SnapshotOf(rows)
}

// Patterns the proofreader looks for.
var (
	saltNumbers   = regexp.MustCompile(`mod (\d+)|salt\((\d+)|becomes (\d+) scans|each of the (\d+) pieces`)
	brokenFormats = regexp.MustCompile(`%!|<nil>|NaN|\+Inf|\{\}|\[\]`)
)

// proofread returns what is wrong with an advice text: it is written in
// sentences, each starting with a capital and the whole ending with a
// full stop; no word is doubled, no clause after a colon repeats the
// words before it ("spread the range: Spread this range"), no space
// comes before a comma or full stop and no two spaces in a row, the
// parentheses pair up, no formatting slipped, and every bucket count of
// a salting (mod N, salt(N), N scans, N pieces) is one number.
func proofread(advice string) []string {
	var problems []string
	if advice == "" {
		return []string{"empty"}
	}
	if r := []rune(advice)[0]; !unicode.IsUpper(r) {
		problems = append(problems, "does not start with a capital")
	}
	if !strings.HasSuffix(advice, ".") {
		problems = append(problems, "does not end with a full stop")
	}
	for _, sentence := range strings.Split(advice, ". ")[1:] {
		if r := []rune(sentence)[0]; !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			problems = append(problems, fmt.Sprintf("a sentence starts in lower case: %q", cutText(sentence, 40)))
		}
	}
	words := strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) {
			return r
		}
		return ' '
	}, advice))
	for i := 1; i < len(words); i++ {
		if strings.EqualFold(words[i], words[i-1]) && !unicode.IsDigit([]rune(words[i])[0]) {
			problems = append(problems, fmt.Sprintf("doubled word %q", words[i]))
		}
	}
	for _, clause := range strings.Split(advice, ": ")[1:] {
		before := strings.Fields(advice[:strings.Index(advice, clause)-2])
		after := strings.Fields(clause)
		if len(after) == 0 || len(before) == 0 {
			continue
		}
		first := strings.Trim(after[0], ",.;()")
		for _, w := range before[max(0, len(before)-3):] {
			if len(first) > 3 && strings.EqualFold(strings.Trim(w, ",.;()"), first) {
				problems = append(problems, fmt.Sprintf("the clause after a colon repeats %q", first))
			}
		}
	}
	// An ellipsis ends a list of examples ("chunk-000, chunk-001, ...").
	plain := strings.ReplaceAll(advice, ", ...", "")
	for _, bad := range []string{"  ", " .", " ,", " ;", "..", ",.", "( ", " )"} {
		if strings.Contains(plain, bad) {
			problems = append(problems, fmt.Sprintf("holds %q", bad))
		}
	}
	if strings.Count(advice, "(") != strings.Count(advice, ")") {
		problems = append(problems, "unbalanced parentheses")
	}
	if m := brokenFormats.FindString(advice); m != "" {
		problems = append(problems, fmt.Sprintf("holds %q", m))
	}
	var counts []string
	for _, m := range saltNumbers.FindAllStringSubmatch(advice, -1) {
		for _, n := range m[1:] {
			if n != "" && !slices.Contains(counts, n) {
				counts = append(counts, n)
			}
		}
	}
	if len(counts) > 1 {
		problems = append(problems, fmt.Sprintf("salts with several bucket counts: %v", counts))
	}
	return problems
}

// cutText cuts s to n bytes for a message.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// TestAdviceReadsWell proofreads every advice text of every demo scenario
// and test table, and of recordings that raise the traffic kinds, and
// requires every finding that advises salting one key range to advise the
// same number of buckets.
func TestAdviceReadsWell(t *testing.T) {
	seen := map[Kind]bool{}
	for _, c := range adviceCases(t) {
		salts := map[string]map[string]Kind{} // range → bucket count → a kind that advised it
		findings := c.findings
		if findings == nil {
			findings = Diagnose(c.snap)
		}
		for _, f := range findings {
			seen[f.Kind] = true
			for _, problem := range proofread(f.Advice) {
				t.Errorf("%s: %s advice %s:\n%s", c.name, f.Kind, problem, f.Advice)
			}
			at := string(f.Start) + "|" + string(f.End)
			for _, m := range saltNumbers.FindAllStringSubmatch(f.Advice, 1) {
				n := slices.DeleteFunc(slices.Clone(m[1:]), func(s string) bool { return s == "" })[0]
				if salts[at] == nil {
					salts[at] = map[string]Kind{}
				}
				salts[at][n] = f.Kind
			}
		}
		for at, counts := range salts {
			if len(counts) > 1 {
				t.Errorf("%s: the findings about [%s) advise different salts: %v", c.name, strings.Replace(at, "|", ", ", 1), counts)
			}
		}
	}
	for _, kind := range []Kind{KindHotKeyRange, KindReadHotspot, KindWriteHotspot, KindHotRow, KindSequentialWrites, KindHeavyScan,
		KindKeyStartsWithTimestamp, KindSequentialKeys, KindSequentialNumericID, KindUnpaddedNumber, KindHashedKey, KindBinaryKey,
		KindPIIInKey, KindDomainNotReversed, KindLargeRow, KindLargeCell, KindWideRow, KindFrequentlyUpdatedRow, KindLongRowKey,
		KindTooManyColumnFamilies, KindTabletSkew} {
		if !seen[kind] {
			t.Errorf("no case raised %s: its advice went unread", kind)
		}
	}
}

// TestProofreadFindsTheIssuesSlips: the proofreader catches the slips
// the issue found in the advice texts.
func TestProofreadFindsTheIssuesSlips(t *testing.T) {
	for _, bad := range []string{
		"If the reads are many distinct rows, spread the range: Spread this range over the key space by salting.",
		"Put hash(key) mod 16 in front. Compare with the what-if salt(8).",
		"put the time after it.",
		"Salt the the key.",
		"Salt the key (hash mod N in front.",
	} {
		if len(proofread(bad)) == 0 {
			t.Errorf("proofread passes %q", bad)
		}
	}
}
