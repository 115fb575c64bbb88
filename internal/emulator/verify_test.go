package emulator

import (
	"context"
	"slices"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/demo"
)

// scenarioCheck asserts the defining feature of one scenario on its table,
// read back through the official client.
type scenarioCheck func(t *testing.T, ctx context.Context, client *bigtable.Client, sc demo.Scenario, scan *tableScan)

// verifyScenario checks what every scenario promises (the table and its
// families, the exact row count, the cell-timestamp window) and then the
// scenario's own feature. It returns the scan.
func verifyScenario(t *testing.T, ctx context.Context, client *bigtable.Client, admin *bigtable.AdminClient, sc demo.Scenario) *tableScan {
	t.Helper()
	info, err := admin.TableInfo(ctx, sc.Name)
	if err != nil {
		t.Fatalf("table %q: %v", sc.Name, err)
	}
	var families []string
	for _, family := range info.FamilyInfos {
		families = append(families, family.Name)
	}
	slices.Sort(families)
	if !slices.Equal(families, sc.Families) {
		t.Errorf("families = %v, want %v", families, sc.Families)
	}

	scan := scanTable(t, ctx, client, sc.Name)
	if len(scan.rows) != sc.Rows {
		t.Errorf("rows = %d, want exactly %d", len(scan.rows), sc.Rows)
	}
	if len(scan.rows) == 0 {
		t.FailNow()
	}
	oldest, newest := scan.rows[0].oldest, scan.rows[0].newest
	for _, row := range scan.rows {
		if row.cells == 0 {
			t.Errorf("row %q has no cells", row.key)
		}
		if row.oldest.Before(sc.TimeStart) || !row.newest.Before(sc.TimeEnd) {
			t.Errorf("row %q has cells from %s to %s, outside [%s, %s)", row.key, row.oldest, row.newest, sc.TimeStart, sc.TimeEnd)
		}
		if row.oldest.Nanosecond()%int(time.Millisecond) != 0 || row.newest.Nanosecond()%int(time.Millisecond) != 0 {
			t.Errorf("row %q has a timestamp that is not millisecond-granular", row.key)
		}
		oldest, newest = minTime(oldest, row.oldest), maxTime(newest, row.newest)
	}
	window := sc.TimeEnd.Sub(sc.TimeStart)
	if spread := newest.Sub(oldest); spread < window*3/4 {
		t.Errorf("cell timestamps span %s (%s to %s), want most of the %s window", spread, oldest, newest, window)
	}
	if !sc.TimeEnd.Equal(demo.DemoNow()) {
		t.Errorf("TimeEnd = %s, want DemoNow() %s", sc.TimeEnd, demo.DemoNow())
	}

	if scan.digest != generatedDigest(t, sc) {
		t.Error("the table's keys, columns and timestamps differ from what the scenario generates")
	}

	check, ok := scenarioChecks[sc.Name]
	if !ok {
		t.Fatalf("scenario %q has no check in scenarioChecks; add one for its defining feature", sc.Name)
	}
	check(t, ctx, client, sc, scan)
	return scan
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
