package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/testkit/emutest"
	"github.com/btviz/btviz/internal/tui/tuitest"
	"github.com/btviz/btviz/internal/units"
	"github.com/btviz/btviz/internal/view"
)

// TestScanShowsWhatItWillReadAndWhatItRead opens a table of an instance
// whose tablet map is tablets and samples it: before the rows come, the
// view says what the scan will read (rows, bytes, tablets, time, how),
// keeps saying it while the scan runs, and once it ends sets it against
// what the scan read, in the details and on the status line.
func TestScanShowsWhatItWillReadAndWhatItRead(t *testing.T) {
	target := emutest.Seed(t, "social-celebrity", cloudlike.ServerOptions(cloudlike.Layout{Tablets: 20}, &cloudlike.Counter{})...)
	conn, err := connect.Open(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	m := New(t.Context(), Config{Source: session.NewConnSource(conn, sampler.Options{Fraction: 0.05}), Table: "social-celebrity", Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	rt := newRuntime(t, m)
	rt.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	rt.run(m.Init())
	rt.until(time.Minute, "the preview", func() bool { return m.scan != nil && m.scan.Preview != nil })
	p := *m.scan.Preview
	if !p.Tablets || p.Ranges != 20 || p.ReadRows <= 0 || p.ReadRows >= p.TotalRows {
		t.Fatalf("preview %+v, want a sample of 20 tablets", p)
	}
	planned := "about " + regexp.QuoteMeta(strings.Split(p.Amount(), " ")[1]) + " rows"
	rt.until(time.Minute, "the scan and its findings", func() bool { return !m.scan.Running && !m.diagnosing })
	if m.scan.Err != nil {
		t.Fatal(m.scan.Err)
	}
	s := screen(m)
	tuitest.RequireFrame(t, m.View().Content, 160, 50)
	read := m.scan.Progress
	if !read.Final || read.RowsRead == 0 {
		t.Fatalf("the final progress is not kept: %+v", read)
	}
	for _, want := range []string{
		`This scan`,
		`planned +` + planned + ` \(.+\) of about [0-9,]+`,
		`\bin 20 tablets\b`, // the details wrap the line where the numbers' widths put it
		`read +[0-9,]+ rows \(.+\) in `,
		`how +a 5% sample at positions inside tablets`,
		`· planned ` + planned + `, read ` + regexp.QuoteMeta(units.Thousands(read.RowsRead)) + `\b`, // the status line
	} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	off := float64(read.RowsRead-p.ReadRows) / float64(read.RowsRead)
	t.Logf("planned %d rows, read %d (%+.0f%%)", p.ReadRows, read.RowsRead, 100*off)
}

// TestRunningScanShowsItsPlan drives the model with a scan's messages:
// the preview shows in the heatmap's place before any range is read, in
// the details, and the progress line counts the rows read of the rows
// planned; the note (a sample too small) is there too.
func TestRunningScanShowsItsPlan(t *testing.T) {
	m := New(t.Context(), Config{Table: "events", Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m.levels = []level{{id: m.newID(), state: m.cfg.View.Normalized(nil)}}
	m.scanID++
	m.scanLevel = m.levels[0].id
	m.scan = &view.ScanStatus{Table: "events", What: "scanning events", Running: true}
	events := make(chan tea.Msg)
	update(m, scanPreviewMsg{id: m.scanID, events: events, preview: source.Preview{
		Tablets: true, Ranges: 50, TotalBytes: 27_000_000, TotalRows: 200_000, ReadBytes: 190_000, ReadRows: 1404,
		RowsPerSecond: 2000, Concurrency: 8,
		Reason: "a 0.22% sample at positions inside tablets: a 0.1% sample of about 91.7K rows would read about 92",
		Note:   "--sample 0.001 would read about 92 of the range's about 91.7K rows; reading about 200 instead, the smallest sample btviz reads",
	}})
	s := screen(m)
	if strings.Contains(s, "read     0 rows") {
		t.Errorf("before the first progress the details say nothing was read:\n%s", s)
	}
	for _, want := range []string{
		"the heatmap fills in as ranges finish; this scan will read about 1,404",
		"planned  about 1,404 rows (190 kB) of",
		"time     about 1s at the first read's 2K",
		"how      a 0.22% sample at positions",
		"note     --sample 0.001 would read about",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("before the first range the screen lacks %q:\n%s", want, s)
		}
	}
	update(m, scanProgressMsg{id: m.scanID, events: events, progress: source.Progress{RangesDone: 3, RangesTotal: 50, RowsRead: 300, BytesRead: 40_000, Done: 0.2, Elapsed: time.Second}})
	s = screen(m)
	for _, want := range []string{"300 of ~1.4K rows", "read     300 rows (40 kB) in 1s so far"} {
		if !strings.Contains(s, want) {
			t.Errorf("while the scan runs the screen lacks %q:\n%s", want, s)
		}
	}
	tuitest.RequireFrame(t, m.View().Content, 120, 40)
}
