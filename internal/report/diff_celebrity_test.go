package report_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/report"
)

// loadSnapshotFixture reads the committed snapshot of a demo table
// (testdata/snapshots at the module root: full scans of the emulator's demo
// tables, which a slow test checks against a fresh scan).
func loadSnapshotFixture(t *testing.T, table string) *keyspace.Snapshot {
	t.Helper()
	snap, err := keyspace.Load(filepath.Join("..", "..", "testdata", "snapshots", table+".btviz"))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestDiffCelebrityBeforeAndAfterSalting is the diff's acceptance test:
// the celebrity feed scanned from the emulator before and after salting.
// The hot prefix's share must fall and the hot-key-range finding
// disappear.
func TestDiffCelebrityBeforeAndAfterSalting(t *testing.T) {
	const hot = "user#mila_rosewood#"
	before, after := loadSnapshotFixture(t, "social-celebrity"), loadSnapshotFixture(t, "social-celebrity-salted")
	in := report.DiffInput{A: before, B: after, FindingsA: diagnose.Diagnose(before), FindingsB: diagnose.Diagnose(after),
		LabelA: "social-celebrity.btviz", LabelB: "social-celebrity-salted.btviz"}

	if _, err := report.BuildDiff(in); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("two tables compared without being allowed (error %v)", err)
	}
	in.AllowDifferentTables = true

	d, err := keyspace.Diff(before, after, keyspace.DiffOptions{AllowDifferentTables: true})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := d.Lookup(hot)
	if !ok {
		t.Fatalf("%s was not compared", hot)
	}
	if math.Abs(c.Before.RowShare-0.38) > 0.005 || c.After.Rows != 0 || c.Status != keyspace.PrefixRemoved {
		t.Errorf("%s: %s, row share %.4f → %.4f; want 38%% → 0, removed", hot, c.Status, c.Before.RowShare, c.After.RowShare)
	}
	if top := d.Before.TopPrefix; top.Prefix != hot {
		t.Errorf("top prefix before is %v (%.2f), want %s", top.Prefix, top.RowShare, hot)
	}
	if top := d.After.TopPrefix; top.RowShare > 0.15 {
		t.Errorf("top prefix after salting %v holds %.2f of rows, want at most an eighth and a bit", top.Prefix, top.RowShare)
	}
	// The hot prefix moved behind the 8 salts: the same rows, a piece
	// of about 4.75 % of the table behind each.
	var move *keyspace.PrefixMove
	for i := range d.Moves {
		if d.Moves[i].Prefix == hot {
			move = &d.Moves[i]
		}
	}
	switch {
	case move == nil:
		t.Errorf("%s not found moved behind the salt; moves %+v", hot, d.Moves)
	case move.Direction != keyspace.MovedBehind || len(move.Pieces) != 8 || !move.Sum.Exact:
		t.Errorf("%s moved %s into %d pieces (exact %v), want behind a new leading segment in 8", hot, move.Direction, len(move.Pieces), move.Sum.Exact)
	case move.Sum.Rows != c.Before.Rows:
		t.Errorf("%s: %v rows before, %v in the salted pieces", hot, c.Before.Rows, move.Sum.Rows)
	default:
		for _, p := range move.Pieces {
			if !strings.HasSuffix(string(p.Prefix), "#"+hot) || p.Measure.RowShare < 0.03 || p.Measure.RowShare > 0.06 {
				t.Errorf("salted piece %v holds %.3f of rows, want about 0.0475", p.Prefix, p.Measure.RowShare)
			}
		}
	}

	doc, err := report.BuildDiff(in)
	if err != nil {
		t.Fatal(err)
	}
	gone := false
	for _, f := range doc.Findings.Disappeared {
		if f.Kind == string(diagnose.KindHotKeyRange) && f.Prefix == hot {
			gone = true
		}
	}
	if !gone {
		t.Errorf("hot-key-range at %s did not disappear: %+v", hot, doc.Findings)
	}
	for _, f := range doc.Findings.Appeared {
		if f.Severity != "info" {
			t.Errorf("salting raised %s %s at %v", f.Severity, f.Kind, f.Prefix)
		}
	}
	if len(doc.Moves) == 0 || doc.Moves[0].Prefix != "user#" || doc.Moves[1].Prefix != hot ||
		doc.Moves[1].Pieces != 8 || doc.Moves[1].LargestPiece.RowShare > 0.06 || doc.Moves[1].RowShareBefore < 0.37 {
		t.Errorf("moves in the diff document, want user# and then %s spread 8 ways: %+v", hot, doc.Moves[:min(2, len(doc.Moves))])
	}
	md, err := report.Diff(report.FormatMarkdown, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Resolved (1): only before", "`" + hot + "`", "| Findings | 0 error, 1 warning",
		"## Moved prefixes", "| `" + hot + "` | behind a new leading segment | 8 | 7,600 → 7,600 | 38% of rows"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("Markdown diff lacks %q", want)
		}
	}
}
