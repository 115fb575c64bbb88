package report_test

import (
	"math"
	"strings"
	"testing"

	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/internal/scantest"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/report"
	"github.com/btviz/btviz/sampler"
)

// TestDiffCelebrityBeforeAndAfterSalting is the diff's acceptance test:
// the celebrity feed scanned from the emulator before and after salting.
// The hot prefix's share must fall and the hot-key-range finding
// disappear.
func TestDiffCelebrityBeforeAndAfterSalting(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds and scans 40,000 rows")
	}
	const hot = "user#mila_rosewood#"
	snaps := scantest.Snapshots(t, "social-celebrity,social-celebrity-salted", sampler.Options{Full: true})
	before, after := snaps["social-celebrity"], snaps["social-celebrity-salted"]
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
	// The salted pieces the tree kept apart each hold about 4.75 %. (Rows
	// from parallel range readers arrive interleaved, so the builder may
	// fold a piece into a merged range; those are not prefixes to list.)
	var pieces int
	for _, p := range d.Prefixes {
		if strings.HasSuffix(string(p.Prefix), "#"+hot) {
			pieces++
			if p.After.RowShare > 0.06 {
				t.Errorf("salted piece %v holds %.3f of rows, want about 0.0475", p.Prefix, p.After.RowShare)
			}
		}
	}
	if pieces == 0 {
		t.Errorf("no salted piece of %s was compared", hot)
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
	md, err := report.Diff(report.FormatMarkdown, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Resolved (1): only before", "`" + hot + "`", "| Findings | 0 error, 1 warning"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("Markdown diff lacks %q", want)
		}
	}
}
