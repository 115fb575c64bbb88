package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
)

// compositionScore counts what the diagnosis of one or more compositions
// found against their ground truth.
type compositionScore struct {
	planted, missed int
	// info and infoFound count the info findings the designs expect.
	info, infoFound int
	falseAlarms     int
	datasets        int
	log             []string
}

func (s *compositionScore) add(other compositionScore) {
	s.planted += other.planted
	s.missed += other.missed
	s.info += other.info
	s.infoFound += other.infoFound
	s.falseAlarms += other.falseAlarms
	s.datasets += other.datasets
}

// compositionTruth is which dataset every key of a composition belongs
// to: each dataset's keys, sorted.
type compositionTruth struct {
	c    demo.Composition
	keys [][]string
}

// in counts dataset i's keys in [start, end).
func (t *compositionTruth) in(i int, start, end string) int {
	keys := t.keys[i]
	lo := sort.SearchStrings(keys, start)
	hi := len(keys)
	if end != "" {
		hi = sort.SearchStrings(keys, end)
	}
	return max(hi-lo, 0)
}

// span returns dataset i's first and last key.
func (t *compositionTruth) span(i int) (first, last string) {
	return t.keys[i][0], t.keys[i][len(t.keys[i])-1]
}

// at reports whether finding f points at dataset i: its range holds keys
// of the dataset, and whatever keys of other datasets it holds lie
// within the dataset's own span (keys of a bare dataset that sort among
// another's cannot be fenced off by one range), never beyond it.
func (t *compositionTruth) at(f Finding, i int) bool {
	start, end := string(f.Start), string(f.End)
	if t.in(i, start, end) == 0 {
		return false
	}
	first, last := t.span(i)
	for j := range t.keys {
		if j == i || t.in(j, start, end) == 0 {
			continue
		}
		// Other keys in the range are allowed only inside i's span.
		if t.in(j, start, first) > 0 || t.in(j, last+"\x00", end) > 0 {
			return false
		}
	}
	return true
}

// buildComposition generates c's rows, builds the snapshot a complete
// full scan would give, and returns it with the ground truth.
func buildComposition(t testing.TB, c demo.Composition) (*keyspace.Snapshot, *compositionTruth) {
	t.Helper()
	var rows []keyspace.Row
	truth := &compositionTruth{c: c, keys: make([][]string, len(c.Datasets))}
	current := 0
	err := c.Generate(func(i int) { current = i }, func(key string, cells ...keyspace.Cell) error {
		rows = append(rows, keyspace.Row{Key: key, Weight: 1, Cells: slices.Clone(cells)})
		truth.keys[current] = append(truth.keys[current], key)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	for _, row := range rows {
		slices.SortFunc(row.Cells, func(a, b keyspace.Cell) int {
			return cmp.Or(strings.Compare(a.Family, b.Family), strings.Compare(a.Qualifier, b.Qualifier), cmp.Compare(b.Timestamp, a.Timestamp))
		})
	}
	for i := range truth.keys {
		slices.Sort(truth.keys[i])
	}
	return c.Scenario().SnapshotOf(rows), truth
}

// scoreComposition diagnoses composition c and scores its findings: each
// planted problem must be raised (at warning or worse, of its kind, at
// its dataset, at its row for a row's problem), each expected info
// finding raised at least at info, and no other warning or error raised.
func scoreComposition(t testing.TB, c demo.Composition) compositionScore {
	snap, truth := buildComposition(t, c)
	return scoreFindings(c, truth, Diagnose(snap))
}

// compositionKeys returns the ground truth of c: every key of every
// dataset, without building a snapshot.
func compositionKeys(t testing.TB, c demo.Composition) *compositionTruth {
	t.Helper()
	truth := &compositionTruth{c: c, keys: make([][]string, len(c.Datasets))}
	current := 0
	err := c.Generate(func(i int) { current = i }, func(key string, _ ...keyspace.Cell) error {
		truth.keys[current] = append(truth.keys[current], key)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range truth.keys {
		slices.Sort(truth.keys[i])
	}
	return truth
}

// scoreFindings scores the findings of composition c against its truth.
func scoreFindings(c demo.Composition, truth *compositionTruth, findings []Finding) compositionScore {
	var score compositionScore
	score.datasets = len(c.Datasets)
	explained := make([]bool, len(findings))
	matches := func(f Finding, i int, loc demo.Location) bool {
		if string(f.Kind) != loc.Kind {
			return false
		}
		if loc.Row {
			return string(f.Start) == loc.Key
		}
		return truth.at(f, i)
	}
	for i, d := range c.Datasets {
		for _, loc := range d.Planted() {
			score.planted++
			found := false
			for k, f := range findings {
				if f.Severity >= SeverityWarning && matches(f, i, loc) {
					found, explained[k] = true, true
				}
			}
			if !found {
				score.missed++
				score.log = append(score.log, fmt.Sprintf("missed %s at %s (%s)", loc.Kind, d.Name(), keyspace.Printable(loc.Key)))
			}
		}
		for _, loc := range d.Expected() {
			score.info++
			found := false
			for k, f := range findings {
				if matches(f, i, loc) {
					found, explained[k] = true, true
					break
				}
			}
			if found {
				score.infoFound++
			} else {
				score.log = append(score.log, fmt.Sprintf("missed the expected info %s at %s (%s)", loc.Kind, d.Name(), keyspace.Printable(loc.Key)))
			}
		}
	}
	for k, f := range findings {
		if f.Severity >= SeverityWarning && !explained[k] {
			score.falseAlarms++
			score.log = append(score.log, fmt.Sprintf("false alarm %s %s [%s, %s): %s", f.Severity, f.Kind,
				keyspace.Printable(string(f.Start)), keyspace.Printable(string(f.End)), f.Summary))
		}
	}
	if score.missed > 0 || score.falseAlarms > 0 {
		for _, f := range findings {
			score.log = append(score.log, fmt.Sprintf("finding: %s %s [%s, %s) prefix %s: %s", f.Severity, f.Kind,
				keyspace.Printable(string(f.Start)), keyspace.Printable(string(f.End)), keyspace.Printable(string(f.Prefix)), f.Summary))
		}
	}
	return score
}
