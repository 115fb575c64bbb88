package diagnose

import (
	"os"
	"strconv"
	"testing"

	"github.com/btviz/btviz/demo"
)

func TestDebugComposition(t *testing.T) {
	v := os.Getenv("DEBUG_SEED")
	if v == "" {
		t.Skip()
	}
	seed, _ := strconv.ParseUint(v, 10, 64)
	snap, _ := buildComposition(t, demo.Compose(seed))
	for _, ds := range Datasets(snap) {
		t.Logf("dataset %q prefix %q [%q, %q) rows %.0f sampled %d share %.4f form %s", ds.Name, ds.Prefix, ds.Start, ds.End, ds.Rows, ds.SampledRows, ds.RowShare, ds.form)
	}
	d := &diagnosis{snap: snap, root: snap.Root, profile: newKeyProfile(snap), salts: &[]saltPlan{}}
	d.recentFrom = recentFrom(&d.root.Writes)
	d.datasets = findDatasets(snap)
	t.Logf("recentFrom %d root hist first %d len %d", d.recentFrom, d.root.Writes.First, len(d.root.Writes.Counts))
	for i := range d.datasets.list {
		sub := d.forDataset(i)
		t.Logf("dataset %d root %q kind %v children %d rows %.0f recent %.0f delims %q", i, sub.root.Prefix, sub.root.Kind, len(sub.root.Children), sub.root.Rows, sub.recentOf(sub.root), sub.profile.splitter.Delimiters())
		for _, c := range sub.root.Children {
			if r := recentWrites(&c.Writes, d.recentFrom); r > 50 {
				t.Logf("   child %q kind %v rows %.0f recent %.0f", c.Prefix, c.Kind, c.Rows, r)
			}
		}
	}
}

func TestDebugProfile(t *testing.T) {
	v := os.Getenv("DEBUG_SEED")
	if v == "" {
		t.Skip()
	}
	seed, _ := strconv.ParseUint(v, 10, 64)
	snap, _ := buildComposition(t, demo.Compose(seed))
	d := &diagnosis{snap: snap, root: snap.Root, profile: newKeyProfile(snap), salts: &[]saltPlan{}}
	d.recentFrom = recentFrom(&d.root.Writes)
	d.datasets = findDatasets(snap)
	for i := range d.datasets.list {
		sub := d.forDataset(i)
		if os.Getenv("DEBUG_DS") != "" && d.datasets.list[i].Name != os.Getenv("DEBUG_DS") {
			continue
		}
		for _, p := range sub.profile.positions {
			t.Logf("ds %s pos %d seg %d part %d class %v distinct %d widths %d-%d values %d leading %d", d.datasets.list[i].Name, p.index, p.segment, p.part, p.class, p.distinct, p.minWidth, p.maxWidth, len(p.values), sub.profile.leading)
		}
		for _, f := range checkUnpaddedNumbers(sub) {
			t.Logf("  %s", f.Summary)
		}
	}
}
