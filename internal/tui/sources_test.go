package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/view"
)

// demoSource starts the embedded emulator loading a few scenarios, its
// tables scanned with opts.
func demoSource(t *testing.T, spec string, opts sampler.Options) *session.DemoSource {
	t.Helper()
	scenarios, err := demo.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := session.NewDemoSource(context.Background(), scenarios, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the demo source: %v", err)
		}
	})
	return b
}

// TestDemoEndToEnd drives the model over the real embedded emulator: the
// picker appears before the scenarios are loaded and fills in, a table
// opens and its heatmap fills in from the scan, a drill-down re-reads a
// range, and q quits.
func TestDemoEndToEnd(t *testing.T) {
	b := demoSource(t, "social-celebrity,phone-device-day,binary-sensor-keys", sampler.Options{})
	m := New(t.Context(), Config{Source: b, Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	rt := newRuntime(t, m)
	rt.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	rt.run(m.Init())

	// The picker comes at once: while the tables are still loading, not
	// once they are (a condition, not a time, so that a busy machine
	// cannot fail it).
	rt.until(time.Minute, "the picker", func() bool {
		s := screen(m)
		return strings.Contains(s, "Tables") && strings.Contains(s, "social-celebrity") && strings.Contains(s, "binary-sensor-keys")
	})
	if loadingTables(m) == 0 {
		t.Fatal("the picker came only once every table was loaded")
	}
	rt.until(2*time.Minute, "every table loaded and sized", func() bool {
		return !m.picker.Listing && loadingTables(m) == 0 && len(m.picker.Sizes) == 3
	})
	celebrity, _ := demo.Lookup("social-celebrity")
	if s := screen(m); !strings.Contains(s, "ready") || !strings.Contains(s, celebrity[0].Description[:40]) {
		t.Fatalf("picker:\n%s", s)
	}

	for m.picker.Tables[m.picker.Selected].Name != "social-celebrity" {
		rt.press("j")
	}
	rt.press("enter")
	if m.pickerOpen || m.scan == nil || !m.scan.Running {
		t.Fatal("enter in the picker does not start a scan")
	}
	rt.until(time.Minute, "the scan and its findings", func() bool {
		return !m.scan.Running && len(m.findings) > 0 && !m.diagnosing
	})
	if m.scan.Err != nil {
		t.Fatal(m.scan.Err)
	}
	s := screen(m)
	for _, want := range []string{"social-celebrity", "full scan · complete", "mila_rosewood#", "hot-key-range", "emulator: boundaries are samples, not tablets"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the scan the screen lacks %q:\n%s", want, s)
		}
	}

	// Drill into a bucket the snapshot holds nothing finer for: a re-read.
	target := -1
	for i, bucket := range m.matrix.Buckets {
		if bucket.NeedsRescan() {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("no bucket needs a re-read")
	}
	bucket := m.matrix.Buckets[target]
	m.current().state.Selected = target
	rt.press("enter")
	rt.until(time.Minute, "the range re-read", func() bool { return m.scan != nil && !m.scan.Running })
	lv := m.current()
	if len(m.levels) != 2 || lv.rescan == nil || lv.snap == nil {
		t.Fatalf("drill: %d levels, rescan %v", len(m.levels), lv.rescan)
	}
	if lv.snap.Scan.Start != bucket.Start || lv.snap.Scan.End != bucket.End || lv.snap.Scan.Mode != keyspace.ModeFull {
		t.Fatalf("re-read [%v, %v) %s, want [%v, %v) full", lv.snap.Scan.Start, lv.snap.Scan.End, lv.snap.Scan.Mode, bucket.Start, bucket.End)
	}
	rt.press("esc")
	if len(m.levels) != 1 {
		t.Fatal("esc does not come back from the re-read range")
	}

	// r scans the table again.
	scans := m.scanID
	rt.press("r")
	if m.scanID != scans+1 || !m.scan.Running {
		t.Fatal("r does not start a new scan")
	}
	rt.until(time.Minute, "the new scan", func() bool { return !m.scan.Running && !m.diagnosing })
	if m.scan.Err != nil || !strings.Contains(screen(m), "full scan · complete") {
		t.Fatalf("rescan: %v\n%s", m.scan.Err, screen(m))
	}

	// T returns to the picker, esc back to the table.
	rt.press("T")
	if !m.pickerOpen {
		t.Fatal("T does not open the picker")
	}
	rt.press("esc")
	if m.pickerOpen || m.table != "social-celebrity" {
		t.Fatal("esc does not return from the picker to the table")
	}
	rt.press("q")
	rt.until(time.Second, "quit", func() bool { return rt.quit })
}

// heldSource is a source whose scans, once they have reported rows read,
// wait in their progress callback until they are cancelled: a test that
// stops a scan finds it running however fast the machine reads.
type heldSource struct{ source.Source }

func (h heldSource) Scan(ctx context.Context, table string, within *source.Range, watch source.Watch) (*keyspace.Snapshot, error) {
	progress := watch.Progress
	watch.Progress = func(p source.Progress) {
		if progress != nil {
			progress(p)
		}
		if p.RowsRead > 0 {
			<-ctx.Done()
		}
	}
	return h.Source.Scan(ctx, table, within, watch)
}

// TestStopKeepsThePartialScan stops a scan that has read rows and checks
// the partial snapshot is shown as incomplete.
func TestStopKeepsThePartialScan(t *testing.T) {
	b := demoSource(t, "social-celebrity", sampler.Options{Concurrency: 1})
	for load := range b.Loads() {
		if load.Err != nil {
			t.Fatal(load.Err)
		}
	}
	m := New(t.Context(), Config{Source: heldSource{b}, Table: "social-celebrity", Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	rt := newRuntime(t, m)
	rt.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	rt.run(m.Init())
	rt.until(30*time.Second, "rows read", func() bool { return m.scan != nil && m.scan.Progress.RowsRead > 0 })
	if !m.scan.Running {
		t.Fatal("the scan finished while its source held it")
	}
	rt.press("x")
	rt.until(30*time.Second, "the stopped scan", func() bool { return !m.scan.Running })
	snap := m.snapOf(0)
	if snap == nil || snap.Scan.Complete {
		t.Fatalf("a stopped scan left snapshot %+v", snap)
	}
	if s := screen(m); !strings.Contains(s, "incomplete (cancelled") {
		t.Fatalf("header does not say the scan is incomplete:\n%s", s)
	}
}

// openDemoTable starts the model on table of a demo source loading the
// scenarios of spec, in a terminal of width × height, calls started (when
// not nil) once the model has started, and waits for the table's scan,
// which must succeed.
func openDemoTable(t *testing.T, spec, table string, width, height int, started func(*Model)) (*Model, *runtime) {
	t.Helper()
	m := New(t.Context(), Config{Source: demoSource(t, spec, sampler.Options{}), Table: table, Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	rt := newRuntime(t, m)
	rt.send(tea.WindowSizeMsg{Width: width, Height: height})
	rt.run(m.Init())
	if started != nil {
		started(m)
	}
	rt.until(time.Minute, "the table's scan", func() bool {
		return m.snapOf(0) != nil && m.scan != nil && !m.scan.Running && m.scan.Table == table
	})
	if m.scan.Err != nil {
		t.Fatal(m.scan.Err)
	}
	return m, rt
}

// TestDemoOpensATableOnceLoaded starts on a table the demo is still
// loading: the screen says so and the scan starts when it is in.
func TestDemoOpensATableOnceLoaded(t *testing.T) {
	m, _ := openDemoTable(t, "phone-device-day,social-celebrity", "social-celebrity", 120, 40, func(m *Model) {
		if m.pickerOpen {
			t.Fatal("a table was named, yet the picker opened")
		}
	})
	if s := screen(m); !strings.Contains(s, "social-celebrity") || !strings.Contains(s, "full scan · complete") {
		t.Fatalf("screen:\n%s", s)
	}
}

// TestDrillFillsTheScreensRows: on two-datasets, a merged bucket of the
// first view holds a few runs of siblings the tree merged (event
// devices); drilled into, the snapshot draws it in a handful of buckets
// stretched over the screen, so the drill re-reads the range in full and
// shows it in at least half the heatmap's rows.
func TestDrillFillsTheScreensRows(t *testing.T) {
	m, rt := openDemoTable(t, "two-datasets", "two-datasets", 160, 40, nil)
	snap, first := m.snapOf(0), m.matrix.View
	target, coarse := -1, 0
	for i, bucket := range m.matrix.Buckets {
		if bucket.Node != nil || bucket.Units < 2 {
			continue
		}
		drilled, err := heatmap.Build(snap, heatmap.View{Start: bucket.Start, End: bucket.End, Bucketing: first.Bucketing, Metric: first.Metric, Rows: first.Rows, Columns: first.Columns})
		if err != nil {
			t.Fatal(err)
		}
		if len(drilled.Buckets) < first.Rows/2 {
			target, coarse = i, len(drilled.Buckets)
			break
		}
	}
	if target < 0 {
		t.Fatalf("no merged bucket of the first view (%d rows) drills into fewer than half of them from the snapshot", first.Rows)
	}
	bucket := m.matrix.Buckets[target]
	m.current().state.Selected = target
	rt.press("enter")
	rt.until(time.Minute, "the range re-read", func() bool { return m.scan != nil && !m.scan.Running })
	lv := m.current()
	if len(m.levels) != 2 || lv.rescan == nil || lv.snap == nil || m.scan.Err != nil {
		t.Fatalf("drilling into %s (%d buckets from the snapshot): %d levels, rescan %v, error %v", view.RangeText(bucket.Start, bucket.End), coarse, len(m.levels), lv.rescan, m.scan.Err)
	}
	if got := len(m.matrix.Buckets); got < m.matrix.View.Rows/2 {
		t.Fatalf("after re-reading %s the view shows %d buckets of %d rows (the snapshot gave %d)", view.RangeText(bucket.Start, bucket.End), got, m.matrix.View.Rows, coarse)
	}
}
