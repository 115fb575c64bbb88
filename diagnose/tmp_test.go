package diagnose

import (
	"os"
	"testing"

	"github.com/btviz/btviz/demo"
)

func TestTmpPrint(t *testing.T) {
	name := os.Getenv("TMP_SCENARIO")
	if name == "" {
		t.Skip()
	}
	sc, _ := demo.Named(name)
	snap, _ := sc.Snapshot()
	for _, ds := range Datasets(snap) {
		t.Logf("dataset %s [%q,%q) rows %.0f share %.3f", ds.Name, ds.Start, ds.End, ds.Rows, ds.RowShare)
	}
	for _, f := range Diagnose(snap) {
		t.Logf("%s %s [%q, %q) %q ds=%q: %s\n   advice: %s", f.Severity, f.Kind, f.Start, f.End, f.Prefix, f.Dataset, f.Summary, f.Advice)
	}
}
