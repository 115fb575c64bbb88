package report_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/emulator"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/report"
	"github.com/btviz/btviz/sampler"
)

// scanScenarios seeds the named demo scenarios into an embedded emulator
// and scans each with the real sampler, as `btviz scan` would.
func scanScenarios(t *testing.T, names string) map[string]*keyspace.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, admin, err := emulator.Dial(ctx, srv.Addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	scenarios, err := emulator.Lookup(names)
	if err != nil {
		t.Fatal(err)
	}
	if err := emulator.Seed(ctx, admin, client, scenarios, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: srv.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	snaps := map[string]*keyspace.Snapshot{}
	for _, sc := range scenarios {
		snap, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Full: true})
		if err != nil {
			t.Fatalf("scanning %s: %v", sc.Name, err)
		}
		snaps[sc.Name] = snap
	}
	return snaps
}

// TestDiffCelebrityBeforeAndAfterSalting is the diff's acceptance test:
// the celebrity feed scanned from the emulator before and after salting.
// The hot prefix's share must fall and the hot-key-range finding
// disappear.
func TestDiffCelebrityBeforeAndAfterSalting(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds and scans 40,000 rows")
	}
	const hot = "user#mila_rosewood#"
	snaps := scanScenarios(t, "social-celebrity,social-celebrity-salted")
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
