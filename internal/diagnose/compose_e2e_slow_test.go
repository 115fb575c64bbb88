//go:build slow

package diagnose

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
)

// Bounds of the end-to-end compositions: loading a table into the
// emulator and reading it back takes far longer than building its
// snapshot in-process, so the subset is drawn among tables of at most
// e2eMaxRows rows without the 114 MB row of the oversized-row design.
// (Larger tables of large rows can also be read as tablets from the
// official emulator's SampleRowKeys spans, which raises tablet-skew on
// spans that are not tablets: the sampler's judgement, not the
// datasets'.)
const (
	defaultE2ECompositions = 3
	e2eMaxRows             = 40_000
)

// TestCompositionsEndToEnd takes a few fresh compositions through the
// official emulator and the real sampler, as `btviz seed` and `btviz
// scan` would (delimiters detected from the table's first rows in key
// order, the default scan mode), and scores them as TestCompositions
// does: every planted problem found at its dataset, no other warning.
// Seeds are fresh and logged, drawn as TestCompositions draws them;
// BTVIZ_E2E_COMPOSITIONS sets how many are taken (default 3).
func TestCompositionsEndToEnd(t *testing.T) {
	n := defaultE2ECompositions
	if v := os.Getenv("BTVIZ_E2E_COMPOSITIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("BTVIZ_E2E_COMPOSITIONS=%q is not a positive count", v)
		}
	}
	var picked []demo.Composition
	for _, seed := range compositionSeeds(t) {
		c := demo.Compose(seed)
		if c.Rows() > e2eMaxRows || slices.ContainsFunc(c.Datasets, func(d demo.ComposedDataset) bool {
			return d.Design.Name == "oversized-row"
		}) {
			continue
		}
		if picked = append(picked, c); len(picked) == n {
			break
		}
	}
	addr := cbtemulator.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var total compositionScore
	for _, c := range picked {
		sc := c.Scenario()
		if err := emulator.Seed(ctx, admin, client, []demo.Scenario{sc}, nil); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		snap, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{})
		if err != nil {
			t.Fatalf("%s: scan: %v", c, err)
		}
		score := scoreFindings(c, compositionKeys(t, c), Diagnose(snap))
		total.add(score)
		t.Logf("%s: %s, delimiters %q", c, snap.Scan.ModeText(), snap.Delimiters)
		if score.missed > 0 || score.falseAlarms > 0 {
			t.Errorf("%s: %d of %d planted problems missed, %d false alarms (replay with BTVIZ_SEED=%d BTVIZ_COMPOSITIONS=1)",
				c, score.missed, score.planted, score.falseAlarms, c.Seed)
			for _, line := range score.log {
				t.Log("  " + line)
			}
		}
	}
	t.Logf("%d compositions end to end: recall %d of %d, %d false alarms", len(picked), total.planted-total.missed, total.planted, total.falseAlarms)
}
