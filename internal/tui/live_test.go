package tui

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/view"
)

// builderRecording is a [source.Recording] over a real keyspace.RecordingBuilder,
// fed by the test as the recording proxy feeds it.
type builderRecording struct {
	mu    sync.Mutex
	b     *keyspace.RecordingBuilder
	start time.Time
	now   time.Time
	calls int64
}

func newBuilderRecording(start time.Time) *builderRecording {
	return &builderRecording{b: keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start}, keyspace.Options{}), start: start, now: start}
}

func (r *builderRecording) add(op keyspace.Op) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.b.Add(&op)
	r.calls++
	r.now = op.Time
}

func (r *builderRecording) Tables() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.Tables()
}

func (r *builderRecording) Snapshot(table string) *keyspace.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.Snapshot(table, r.now)
}

func (r *builderRecording) Status() source.RecordingStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return source.RecordingStatus{Listen: "127.0.0.1:8087", Upstream: "emulator", Elapsed: r.now.Sub(r.start), Calls: r.calls}
}

// readTheCelebrity records seconds [from, to) of reads: most of them of
// the celebrity's posts.
func readTheCelebrity(rec *builderRecording, table string, from, to int) {
	for s := from; s < to; s++ {
		for i := range 20 {
			user := "mila_rosewood"
			if i%5 == 0 {
				user = fmt.Sprintf("someone%d", i)
			}
			key := keyspace.Key(fmt.Sprintf("user#%s#p%06d", user, i))
			rec.add(keyspace.Op{Time: rec.start.Add(time.Duration(s)*time.Second + time.Duration(i)*time.Millisecond), Table: table,
				Method: keyspace.MethodReadRows, Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 120}}})
		}
	}
}

func TestLiveViewFollowsTheRecording(t *testing.T) {
	storage := scenarioSnapshot(t, "social-celebrity")
	rec := newBuilderRecording(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	readTheCelebrity(rec, storage.Table, 0, 5)
	m := New(t.Context(), Config{
		Snapshot: storage, Source: session.NewRecordingSource(rec, session.NewSnapshotSource("test.btviz", storage)), Recording: rec,
		Theme: view.ThemeDark, Profile: colorprofile.NoTTY, ScreenshotDir: t.TempDir(),
	})
	update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	look := func() {
		t.Helper()
		update(m, liveMsg{table: storage.Table, traffic: rec.Snapshot(storage.Table), status: rec.Status()})
	}
	look()
	s := screen(m)
	for _, want := range []string{"Heatmap · operations by key and time", "● recording 4s · 100 calls", "BIGTABLE_EMULATOR_HOST=127.0.0.1:8087", "traffic: only calls made through btviz record"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the live view lacks %q:\n%s", want, s)
		}
	}
	columns := m.matrix.Time.Columns
	m.jump("user#mila_rosewood#", false)
	before := m.matrix.Buckets[m.current().state.Selected].Traffic.Ops
	readTheCelebrity(rec, storage.Table, 5, 12)
	look()
	after := m.matrix.Buckets[m.current().state.Selected].Traffic.Ops
	if after <= before || after != 12*16 {
		t.Fatalf("the celebrity's bucket went from %v to %v ops, want 192", before, after)
	}
	m.focus(view.PaneHeatmap)
	if !strings.Contains(screen(m), "192") {
		t.Fatalf("the details pane does not show the new count:\n%s", screen(m))
	}
	press(m, "esc")
	if got := m.matrix.Time.Columns; got <= columns {
		t.Fatalf("the time axis has %d columns after more seconds, %d before: new columns must arrive", got, columns)
	}
	// The metric key cycles through traffic and storage metrics alike.
	press(m, "m")
	if m.current().state.Metric == "" || m.frame().State.Metric == "ops" {
		t.Fatalf("m did not move on from ops: %q", m.frame().State.Metric)
	}
}

// TestARecordingAloneSaysWhatItRecorded: opened from its file, a
// recording with no scan joined says how many operations it recorded, not
// that a scan read no rows.
func TestARecordingAloneSaysWhatItRecorded(t *testing.T) {
	rec := newBuilderRecording(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	readTheCelebrity(rec, "feed", 0, 5)
	snap := rec.Snapshot("feed")
	m := New(t.Context(), Config{Snapshot: snap, Source: session.NewSnapshotSource("traffic.btviz", snap), Theme: view.ThemeDark, Profile: colorprofile.NoTTY})
	update(m, tea.WindowSizeMsg{Width: 120, Height: 32})
	s := screen(m)
	if !strings.Contains(s, "recorded 100 ops in 4s") || strings.Contains(s, "read 0 rows") {
		t.Fatalf("the status line should say what was recorded:\n%s", s)
	}
}

// TestAnEstimatedHotCountReadsAsARange: a count the bounded hot-row
// counter had to estimate reads as the range it lies in ("26–31", as the
// report writes it) in the hot-rows view, its details and the heatmap's
// details.
func TestAnEstimatedHotCountReadsAsARange(t *testing.T) {
	rec := newBuilderRecording(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	readTheCelebrity(rec, "feed", 0, 5)
	snap := rec.Snapshot("feed")
	hot := &snap.Traffic.TopReads[0]
	hot.Count, hot.Error = 31, 5
	for _, state := range []view.ViewState{{Main: view.PaneHot}, {Prefix: keyspace.Key(hot.Key)}} {
		frame := view.RenderFrame(snap, nil, state, 160, 48, true, colorprofile.NoTTY)
		if !strings.Contains(frame, "26–31") {
			t.Errorf("%s view: the estimated count is not the range 26–31:\n%s", state.Shown(), frame)
		}
	}
}

// TestPickerSaysHowATableIsRead: the picker's line under its title says
// how a picked table is read — scanned, read from a file, or recorded
// live — and never that a recording is read with scans.
func TestPickerSaysHowATableIsRead(t *testing.T) {
	start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	rec := newBuilderRecording(start)
	readTheCelebrity(rec, "feed", 0, 2)
	readTheCelebrity(rec, "likes", 0, 2)
	storage := scenarioSnapshot(t, "social-celebrity")
	for _, c := range []struct {
		name    string
		backend source.Source
		want    string
	}{
		{"a recording's file", session.NewSnapshotSource("traffic.btviz", rec.Snapshot("feed"), rec.Snapshot("likes")), "btviz shows the traffic recorded on it"},
		{"a scan's file", session.NewSnapshotSource("scan.btviz", storage), "btviz shows the scan saved in the file"},
		{"a live recording", session.NewRecordingSource(rec, session.NewSnapshotSource("x", storage)), "btviz shows the traffic the proxy records on it, live"},
	} {
		m := New(t.Context(), Config{Source: c.backend, Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
		update(m, tea.WindowSizeMsg{Width: 200, Height: 40})
		s := screen(m)
		if !strings.Contains(s, "Pick a table to see its key space; "+c.want) || strings.Contains(s, "SampleRowKeys") {
			t.Errorf("%s: the picker says\n%s", c.name, s)
		}
	}
	if got := session.NewRecordingSource(rec, session.NewConnSource(nil, sampler.Options{})).Reads(); !strings.Contains(got, "read directly, not through the proxy") {
		t.Errorf("a live recording of an instance: %q", got)
	}
}

// TestPickerSaysWhatItsSizesMeasure: the picker's size column says
// whether it shows what SampleRowKeys reports (stored: on the emulator,
// values only) or what a saved scan counted (logical bytes, as the
// table's header), and a note under the list says which; the two differ
// for the same table (1.47 MB and 2.66 MB for social-celebrity).
func TestPickerSaysWhatItsSizesMeasure(t *testing.T) {
	storage := scenarioSnapshot(t, "social-celebrity")
	for _, c := range []struct {
		name       string
		backend    source.Source
		head, note string
	}{
		{"a live emulator", demoSource(t, "social-celebrity", sampler.Options{}), "stored", "stored: the bytes SampleRowKeys reports (an emulator counts only values"},
		{"a scan's file", session.NewSnapshotSource("scan.btviz", storage), "size", "size: the logical bytes each saved scan counted"},
		{"a live recording on a scan's file", session.NewRecordingSource(newBuilderRecording(time.Now()), session.NewSnapshotSource("x", storage)), "size", "size: the logical bytes"},
	} {
		m := New(t.Context(), Config{Source: c.backend, Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
		rt := newRuntime(t, m)
		rt.send(tea.WindowSizeMsg{Width: 200, Height: 40})
		rt.run(m.Init())
		rt.until(timeoutShort, "the table list and its note", func() bool { return strings.Contains(screen(m), c.note) })
		s := screen(m)
		if !regexp.MustCompile(`families +`+c.head+` +status`).MatchString(s) || !strings.Contains(s, c.note) {
			t.Errorf("%s: the picker's size column is not headed %q with the note %q:\n%s", c.name, c.head, c.note, s)
		}
	}
}
