package tui

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/tui/tuitest"
	"github.com/btviz/btviz/internal/view"
)

// bucketIndex returns the index of the first bucket whose label is label.
func bucketIndex(t testing.TB, m *Model, label string) int {
	t.Helper()
	for i, b := range m.matrix.Buckets {
		if b.ShortLabel == label || b.Label == label {
			return i
		}
	}
	t.Fatalf("no bucket labelled %q", label)
	return -1
}

func TestSnapshotModelShowsTheTable(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.NoTTY)
	s := screen(m)
	for _, want := range []string{"social-celebrity", "Heatmap · cells written by key and write time", "mila_rosewood#",
		"hot-key-range", "emulator: boundaries are samples, not tablets", "only versions kept by GC are visible", "Findings", "Bucket 1 of"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	tuitest.RequireFrame(t, m.View().Content, 200, 60)
	v := m.View()
	if !v.AltScreen || v.MouseMode != tea.MouseModeAllMotion {
		t.Errorf("view: alt screen %v, mouse %v; want the alternate screen with all-motion mouse (hover)", v.AltScreen, v.MouseMode)
	}
}

func TestArrowsAndVimKeysMoveTheSelection(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 120, 40, colorprofile.NoTTY)
	sel := func() int { return m.current().state.Selected }
	press(m, "j", "j", "down")
	if sel() != 3 {
		t.Fatalf("after j j ↓ the selection is %d, want 3", sel())
	}
	press(m, "k", "up")
	if sel() != 1 {
		t.Fatalf("after k ↑ the selection is %d, want 1", sel())
	}
	press(m, "G")
	if sel() != len(m.matrix.Buckets)-1 {
		t.Fatalf("G selects %d, want the last bucket %d", sel(), len(m.matrix.Buckets)-1)
	}
	press(m, "g", "k")
	if sel() != 0 {
		t.Fatalf("g k selects %d, want 0", sel())
	}
	if !strings.Contains(screen(m), "Bucket 1 of") {
		t.Fatal("details pane does not follow the selection")
	}
	press(m, "left")
	if c := (m.current().state.TimeColumn - 1); c != m.matrix.Columns()-1 {
		t.Fatalf("← selects time column %d, want the latest %d", c, m.matrix.Columns()-1)
	}
	press(m, "h")
	if c := (m.current().state.TimeColumn - 1); c != m.matrix.Columns()-2 {
		t.Fatalf("h selects time column %d, want %d", c, m.matrix.Columns()-2)
	}
	if !strings.Contains(screen(m), "column ") {
		t.Fatal("details pane does not describe the selected time column")
	}
}

func TestDrillIntoThePrefixAndBack(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.NoTTY)
	m.current().state.Selected = bucketIndex(t, m, "…mila_rosewood#")
	press(m, "enter")
	if len(m.levels) != 2 || m.current().state.Prefix != "user#mila_rosewood#" {
		t.Fatalf("enter on mila_rosewood#: %d levels at prefix %q, want 2 at user#mila_rosewood#", len(m.levels), m.current().state.Prefix)
	}
	header := strings.Split(screen(m), "\n")[1]
	if !strings.Contains(header, "⌂ social-celebrity › user# › mila_rosewood#") {
		t.Fatalf("breadcrumb: %q", header)
	}
	press(m, "esc")
	if len(m.levels) != 1 {
		t.Fatalf("esc leaves %d levels, want 1", len(m.levels))
	}
	if got := m.matrix.Buckets[m.current().state.Selected].ShortLabel; got != "…mila_rosewood#" {
		t.Fatalf("back at the top, %q is selected, want mila_rosewood#", got)
	}
	press(m, "enter", "backspace")
	if len(m.levels) != 1 {
		t.Fatalf("backspace leaves %d levels, want 1", len(m.levels))
	}
	press(m, "esc")
	if !strings.Contains(screen(m), "at the top of the table") {
		t.Fatal("esc at the top does not say so")
	}
}

func TestDrillIntoARowOfASnapshotShowsItsColumns(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "large-row-and-cell"), 200, 60, colorprofile.NoTTY)
	m.jump("media#studio_ingest#raw-cam04-20261030", false)
	press(m, "L")
	rows, _ := view.TopRows(m.snapOf(len(m.levels) - 1))
	if m.current().state.Shown() != view.PaneRows || len(rows) == 0 {
		t.Fatalf("L: pane %q with %d rows", m.current().state.Shown(), len(rows))
	}
	press(m, "enter")
	s := screen(m)
	if !strings.Contains(s, "Columns of media#studio_ingest#raw-cam04-20261030") || !strings.Contains(s, "blob:chunk-000") {
		t.Fatalf("enter on the largest row does not show its columns:\n%s", s)
	}
	press(m, "esc")
	if m.current().state.RowColumns || m.current().state.Shown() != view.PaneRows {
		t.Fatal("esc does not go back from the columns to the row list")
	}
	press(m, "esc")
	if m.current().state.Shown() != view.PaneHeatmap {
		t.Fatal("esc does not leave the row list")
	}
}

func TestSearchJumpsToAPrefix(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 120, 40, colorprofile.NoTTY)
	press(m, "/")
	if !m.searching || !strings.Contains(screen(m), strings.TrimSpace(searchPrompt)) {
		t.Fatal("/ does not open the search prompt")
	}
	typeText(m, "user#mila_rosewood#")
	press(m, "enter")
	if m.searching || m.current().state.Prefix != "user#mila_rosewood#" {
		t.Fatalf("search: prefix %q, searching %v", m.current().state.Prefix, m.searching)
	}
	// A prefix that is no node: the view above it, its bucket selected.
	press(m, "esc", "/")
	typeText(m, "user#mila")
	press(m, "enter")
	if m.current().state.Prefix != "user#" {
		t.Fatalf("search for user#mila shows %q, want user#", m.current().state.Prefix)
	}
	if got := m.matrix.Buckets[m.current().state.Selected].ShortLabel; got != "…mila_rosewood#" {
		t.Fatalf("search for user#mila selects %q, want the bucket of the keys that start with it, mila_rosewood#", got)
	}
	if m.message.Text != "" {
		t.Fatalf("search for user#mila says %q", m.message.Text)
	}
	press(m, "esc", "/")
	typeText(m, "user#zzz")
	press(m, "enter")
	if !strings.Contains(m.message.Text, "no rows start with user#zzz") {
		t.Fatalf("search for a prefix without rows says %q", m.message.Text)
	}
	// esc closes the prompt without moving.
	levels := len(m.levels)
	press(m, "/")
	typeText(m, "zzz")
	press(m, "esc")
	if m.searching || len(m.levels) != levels {
		t.Fatal("esc in the prompt did not just close it")
	}
}

// TestSearchFindsRecordedKeys: on a traffic recording alone, a prefix
// the traffic touched is found, also inside a run of keys the recording
// merged into one range; only a prefix it never touched is said to hold
// nothing.
func TestSearchFindsRecordedKeys(t *testing.T) {
	start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start, Delimiters: "#"}, keyspace.Options{MaxChildren: 8})
	for i := range 400 {
		key := keyspace.Key(fmt.Sprintf("user#mila#p%03d#%d", i%40, i%3))
		r.Add(&keyspace.Op{Time: start.Add(time.Duration(i) * 10 * time.Millisecond), Table: "t", Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 100}}})
	}
	snap := r.Snapshot("t", start.Add(5*time.Second))
	merged := ""
	if path := snap.Root.Lookup("user#mila#"); path != nil {
		for _, c := range path[len(path)-1].Children {
			if c.Kind == keyspace.KindRange && c.Start != c.Prefix {
				merged = string(c.Start) // a post inside a merged range
				break
			}
		}
	}
	if merged == "" {
		t.Fatal("the recording merged no posts into a range")
	}
	m := newSnapshotModel(t, snap, 120, 40, colorprofile.NoTTY)
	press(m, "/")
	typeText(m, merged)
	press(m, "enter")
	b := m.matrix.Buckets[m.current().state.Selected]
	if m.message.Text != "" || string(b.Start) > merged || (b.End != "" && string(b.End) <= merged) || b.Traffic.Ops == 0 {
		t.Fatalf("search for %s, inside a merged range: says %q, selects [%v, %v) with %v ops", merged, m.message.Text, b.Start, b.End, b.Traffic.Ops)
	}
	press(m, "esc", "/")
	typeText(m, "user#zzz")
	press(m, "enter")
	if !strings.Contains(m.message.Text, "no rows stored or keys recorded start with user#zzz") {
		t.Fatalf("search for a prefix the traffic never touched says %q", m.message.Text)
	}
}

func TestSearchAcceptsEscapesAndRejectsBadOnes(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "binary-sensor-keys"), 120, 40, colorprofile.NoTTY)
	press(m, "/")
	typeText(m, `\x00`)
	press(m, "enter")
	if m.message.IsErr {
		t.Fatalf("search for \\x00 failed: %s", m.message.Text)
	}
	b := m.matrix.Buckets[m.current().state.Selected]
	if !keyspace.InRange("\x00", string(b.Start), string(b.End)) && !strings.HasPrefix(string(b.Start), "\x00") {
		t.Fatalf("selected bucket [%v, %v) does not hold \\x00", b.Start, b.End)
	}
	press(m, "/")
	typeText(m, `\xZZ`)
	press(m, "enter")
	if !m.message.IsErr || !strings.Contains(screen(m), "bad escape") {
		t.Fatalf("a bad escape is not reported: %q", m.message.Text)
	}
	tuitest.RequireFrame(t, m.View().Content, 120, 40)
}

func TestFindingJumpsToItsRange(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.NoTTY)
	press(m, "f")
	if m.current().state.Shown() != view.PaneFindings {
		t.Fatal("f does not focus the findings")
	}
	s := screen(m)
	if !strings.Contains(s, "Finding 1 of") || !strings.Contains(s, "Advice") {
		t.Fatalf("the details pane does not show the selected finding:\n%s", s)
	}
	press(m, "enter")
	cur := m.current()
	if cur.state.Shown() != view.PaneHeatmap || cur.state.Prefix != "user#" {
		t.Fatalf("enter on the hot-key-range finding: pane %q, prefix %q; want the heatmap of user#", cur.state.Shown(), cur.state.Prefix)
	}
	if got := m.matrix.Buckets[cur.state.Selected].ShortLabel; got != "…mila_rosewood#" {
		t.Fatalf("selected %q, want mila_rosewood#", got)
	}
	press(m, "esc")
	if len(m.levels) != 1 {
		t.Fatal("esc does not return from a finding's range")
	}
}

func TestViewKeysChangeMetricBucketingAndScale(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 120, 40, colorprofile.NoTTY)
	press(m, "m")
	if m.current().state.Metric != heatmap.MetricRows || !strings.Contains(screen(m), "Heatmap · rows by key") {
		t.Fatalf("m: metric %q", m.current().state.Metric)
	}
	press(m, "b")
	if m.current().state.Bucketing != heatmap.BucketEven || !strings.Contains(screen(m), "even buckets") {
		t.Fatalf("b: bucketing %q", m.current().state.Bucketing)
	}
	press(m, "b", "b")
	if m.current().state.Bucketing != heatmap.BucketPrefix {
		t.Fatalf("b b: bucketing %q; tablets should be skipped without a tablet map", m.current().state.Bucketing)
	}
	press(m, "l")
	if m.current().state.Scale.Kind != heatmap.ScaleLog || !strings.Contains(screen(m), "log") {
		t.Fatal("l does not switch to the log scale")
	}
	press(m, "+", "+")
	if m.current().state.Scale.Brightness <= 1 {
		t.Fatal("+ does not brighten")
	}
	press(m, "-", "-", "-")
	if m.current().state.Scale.Brightness >= 1 {
		t.Fatal("- does not dim")
	}
}

func TestTabMovesFocusBetweenPanes(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 120, 40, colorprofile.NoTTY)
	var panes []view.Pane
	for range 3 {
		press(m, "tab")
		panes = append(panes, m.current().state.Shown())
	}
	want := []view.Pane{view.PanePrefixes, view.PaneFindings, view.PaneHeatmap}
	for i := range want {
		if panes[i] != want[i] {
			t.Fatalf("tab visits %v, want %v", panes, want)
		}
	}
	press(m, "tab")
	if !strings.Contains(screen(m), "Prefixes · cells written") || !strings.Contains(screen(m), "key bucket") {
		t.Fatalf("prefix table not shown:\n%s", screen(m))
	}
	press(m, "j")
	if m.current().state.Selected != 1 {
		t.Fatal("j does not move the selection in the prefix table")
	}
	press(m, "shift+tab")
	if m.current().state.Shown() != view.PaneHeatmap {
		t.Fatalf("shift+tab goes to %q", m.current().state.Shown())
	}
}

func TestMouseSelectsBucketsFindingsAndBreadcrumbs(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.TrueColor)
	target := bucketIndex(t, m, "…mila_rosewood#")
	// Find the screen line of the bucket through the same hit test.
	f := m.frame()
	r := heatRect(f)
	clicked := false
	for y := r.Y; y < r.Y+r.H; y++ {
		if hit, ok := f.HitHeat(r.X+r.W-2, y); ok && hit.Bucket == target {
			update(m, tea.MouseClickMsg{X: r.X + r.W - 2, Y: y, Button: tea.MouseLeft})
			clicked = true
			break
		}
	}
	if !clicked || m.current().state.Selected != target {
		t.Fatalf("clicking mila_rosewood#'s line selects %d, want %d", m.current().state.Selected, target)
	}
	if (m.current().state.TimeColumn - 1) < 0 {
		t.Fatal("a click in the heat area selects no time column")
	}
	update(m, tea.MouseWheelMsg{X: r.X + 5, Y: r.Y + 5, Button: tea.MouseWheelDown})
	if m.current().state.Selected != target+1 {
		t.Fatal("the wheel does not move the selection")
	}
	// A finding.
	fr := m.sh.Layout.Findings
	update(m, tea.MouseClickMsg{X: fr.X + 3, Y: fr.Y + 2, Button: tea.MouseLeft})
	if m.current().state.Shown() != view.PaneFindings || m.current().state.Line(view.PaneFindings) != 1 {
		t.Fatalf("clicking the second finding: pane %q finding %d", m.current().state.Shown(), m.current().state.Line(view.PaneFindings))
	}
	// Breadcrumbs: drill in twice, click the first segment.
	m.focus(view.PaneHeatmap)
	m.current().state.Selected = target
	press(m, "enter")
	home, user := crumbAt(t, m, "⌂"), crumbAt(t, m, "user#")
	crumbAt(t, m, "mila_rosewood#")
	update(m, tea.MouseClickMsg{X: home, Y: m.sh.Layout.Header.Y + 1, Button: tea.MouseLeft})
	if len(m.levels) != 1 {
		t.Fatalf("clicking ⌂ leaves %d levels", len(m.levels))
	}
	press(m, "enter")
	update(m, tea.MouseClickMsg{X: user + 1, Y: m.sh.Layout.Header.Y + 1, Button: tea.MouseLeft})
	if m.current().state.Prefix != "user#" {
		t.Fatalf("clicking user# shows %q", m.current().state.Prefix)
	}
}

func TestLayoutReflowsAndRefusesATinyTerminal(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 80, 24, colorprofile.NoTTY)
	tuitest.RequireFrame(t, m.View().Content, 80, 24)
	if m.sh.Layout.Wide {
		t.Fatal("80 columns should stack the panes")
	}
	update(m, tea.WindowSizeMsg{Width: 200, Height: 60})
	tuitest.RequireFrame(t, m.View().Content, 200, 60)
	if !m.sh.Layout.Wide {
		t.Fatal("200 columns should put details and findings in a side column")
	}
	update(m, tea.WindowSizeMsg{Width: 79, Height: 30})
	s := screen(m)
	if !strings.Contains(s, "terminal too small: need 80×24, have 79×30") {
		t.Fatalf("tiny terminal:\n%s", s)
	}
	tuitest.RequireFrame(t, m.View().Content, 79, 30)
	press(m, "j", "enter")
	if len(m.levels) != 1 {
		t.Fatal("keys act on a terminal too small to show them")
	}
	if cmd := press(m, "q"); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q does not quit from a tiny terminal")
	}
	update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	tuitest.RequireFrame(t, m.View().Content, 80, 24)
}

// TestHelpKeyShowsEveryKey: ? shows every key where the details and
// findings are, and leaves the heatmap as it was: the same buckets, the
// same selection (it used to take lines from the heatmap: 39 buckets
// became 34 at 200x60).
func TestHelpKeyShowsEveryKey(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {200, 60}, {100, 40}, {80, 24}} {
		m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), size[0], size[1], colorprofile.NoTTY)
		buckets := len(m.matrix.Buckets)
		heat := heatRect(m.frame())
		press(m, "?")
		s := screen(m)
		for _, want := range []string{"brighter", "dimmer", "next pane", "tables", "stop scan", "largest rows", "? closes"} {
			if !strings.Contains(s, want) && size[0] >= 100 {
				t.Errorf("%dx%d: the full help lacks %q:\n%s", size[0], size[1], want, s)
			}
		}
		if got := len(m.matrix.Buckets); got != buckets || heatRect(m.frame()) != heat {
			t.Errorf("%dx%d: ? changed the heatmap from %d buckets in %+v to %d in %+v", size[0], size[1], buckets, heat, got, heatRect(m.frame()))
		}
		tuitest.RequireFrame(t, m.View().Content, size[0], size[1])
		press(m, "?")
		if strings.Contains(screen(m), "? closes") {
			t.Fatalf("%dx%d: ? does not close the full help", size[0], size[1])
		}
	}
}

func TestThemeFollowsTheBackground(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	m := New(t.Context(), Config{Snapshot: snap, Profile: colorprofile.TrueColor})
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if cmd := m.Init(); cmd == nil {
		t.Fatal("Init asks for nothing")
	}
	dark := m.View().Content
	update(m, tea.BackgroundColorMsg{Color: lipglossWhite})
	if m.sh.IsDark || m.sh.Styles.Dark {
		t.Fatal("a white background keeps the dark theme")
	}
	if m.View().Content == dark {
		t.Fatal("the light theme draws the same frame")
	}
	fixed := New(t.Context(), Config{Snapshot: snap, Profile: colorprofile.TrueColor, Theme: view.ThemeDark})
	update(fixed, tea.BackgroundColorMsg{Color: lipglossWhite})
	if !fixed.sh.IsDark {
		t.Fatal("--theme dark does not hold")
	}
}

func TestColourProfiles(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII, colorprofile.ANSI, colorprofile.ANSI256, colorprofile.TrueColor} {
		m := newSnapshotModel(t, snap, 100, 30, p)
		frame := m.View().Content
		tuitest.RequireFrame(t, frame, 100, 30)
		switch {
		case p == colorprofile.NoTTY && strings.Contains(frame, "\x1b"):
			t.Errorf("%v: the frame holds escape sequences", p)
		case p == colorprofile.TrueColor && !strings.Contains(frame, "38;2;"):
			t.Errorf("%v: no true colour in the frame", p)
		case p == colorprofile.ANSI256 && (strings.Contains(frame, "38;2;") || !strings.Contains(frame, "38;5;")):
			t.Errorf("%v: colours not converted to 256", p)
		case p == colorprofile.ASCII && strings.Contains(frame, "38;"):
			t.Errorf("%v: colours under NO_COLOR", p)
		}
	}
}

func TestViewIsTheHeadlessFrame(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.TrueColor} {
		m := newSnapshotModel(t, snap, 200, 60, p)
		steps := [][]string{{}, {"j", "j"}, {"f"}, {"tab"}, {"m", "l", "+"}, {"L", "j"}, {"?"}}
		for _, keys := range steps {
			press(m, keys...)
			want := view.RenderFrame(m.snapOf(len(m.levels)-1), m.findings, m.ViewState(), 200, 60, true, p)
			if got := m.View().Content; got != want {
				t.Fatalf("after %v (profile %v) the view differs from RenderFrame", keys, p)
			}
		}
	}
}

func TestScreenshotKeyWritesPNGAndSVG(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 100, 30, colorprofile.TrueColor)
	cmd := press(m, "s")
	if cmd == nil {
		t.Fatal("s returns no command")
	}
	update(m, cmd())
	if m.message.IsErr {
		t.Fatal(m.message.Text)
	}
	base := filepath.Join(m.cfg.ScreenshotDir, "btviz-social-celebrity-20261101-120000")
	f, err := os.Open(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// 100×30 cells of 9×18 pixels, and the title bar's row.
	if b := img.Bounds(); b.Dx() != 100*9 || b.Dy() != 31*18 {
		t.Fatalf("PNG is %v, want 900×558", b)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "btviz — social-celebrity — heatmap/writes") {
		t.Fatalf("SVG without its title bar: %v", err)
	}
	if !strings.Contains(m.message.Text, "screenshot saved: "+base+".png") || !strings.Contains(screen(m), "screenshot saved: ") {
		t.Fatalf("status line: %q", m.message.Text)
	}
}

// TestScreenshotThatFailsSaysWhatToDoOnScreen: a screenshot that cannot
// be written says why and names --screenshot-dir on the status line of a
// 200-column screen, however long the directory's path (the advice came
// last and was cut off).
func TestScreenshotThatFailsSaysWhatToDoOnScreen(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 200, 60, colorprofile.NoTTY)
	m.cfg.ScreenshotDir = filepath.Join(t.TempDir(), strings.Repeat("a-directory-with-a-long-name/", 6), "gone")
	update(m, press(m, "s")())
	if !m.message.IsErr {
		t.Fatalf("status line: %q", m.message.Text)
	}
	var status string
	for _, line := range strings.Split(screen(m), "\n") {
		if strings.Contains(line, "screenshot") && !strings.Contains(line, "s screenshot") {
			status = line
		}
	}
	for _, want := range []string{"screenshot not saved (no such file or directory)", "start btviz with --screenshot-dir DIR"} {
		if !strings.Contains(status, want) {
			t.Errorf("the status line lacks %q: %q", want, status)
		}
	}
}

func TestKeysAreAlwaysEscaped(t *testing.T) {
	snap := scenarioSnapshot(t, "binary-sensor-keys")
	m := newSnapshotModel(t, snap, 200, 60, colorprofile.TrueColor)
	for _, keys := range [][]string{{}, {"j", "enter"}, {"esc", "f"}, {"L"}, {"enter"}, {"esc", "tab"}} {
		press(m, keys...)
		frame := m.View().Content
		tuitest.RequireFrame(t, frame, 200, 60)
		if strings.Contains(ansi.Strip(frame), "\x00") {
			t.Fatalf("a raw NUL reached the screen after %v", keys)
		}
	}
}

func TestQuitKeys(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 100, 30, colorprofile.NoTTY)
	for _, k := range []string{"q", "ctrl+c"} {
		if cmd := press(m, k); cmd == nil || cmd() != tea.Quit() {
			t.Fatalf("%s does not quit", k)
		}
	}
	press(m, "/")
	typeText(m, "q")
	if m.search.Value() != "q" {
		t.Fatal("q in the search prompt is not text")
	}
	if cmd := press(m, "ctrl+c"); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("ctrl+c does not quit from the search prompt")
	}
}

func TestSavedSnapshotCannotRescan(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 100, 30, colorprofile.NoTTY)
	if cmd := press(m, "r"); cmd != nil {
		t.Fatal("r on a saved snapshot starts something")
	}
	if !strings.Contains(screen(m), "cannot be re-read") {
		t.Fatal("r on a saved snapshot does not explain")
	}
}

func TestFindingsShowWhereTheyPoint(t *testing.T) {
	// A row that keeps versions: its columns and versions.
	m := newSnapshotModel(t, scenarioSnapshot(t, "memusage-single-row"), 200, 60, colorprofile.NoTTY)
	press(m, "f", "enter")
	cur := m.current()
	if cur.state.Shown() != view.PaneRows || !cur.state.RowColumns {
		t.Fatalf("the frequently-updated-row finding shows pane %q (columns %v), want the row's columns", cur.state.Shown(), cur.state.RowColumns)
	}
	if s := screen(m); !strings.Contains(s, "Columns of 4c410523#memusage") || !strings.Contains(s, "5000") {
		t.Fatalf("the row's columns do not show its versions:\n%s", s)
	}
	// A prefix holding the whole table: shown from inside.
	m = newSnapshotModel(t, scenarioSnapshot(t, "unpadded-user-ids"), 200, 60, colorprofile.NoTTY)
	press(m, "f", "enter")
	if p := m.current().state.Prefix; p != "user#" {
		t.Fatalf("the unpadded-number finding at user# shows prefix %q", p)
	}
	// A table-wide finding: the table, and a word about it.
	m = newSnapshotModel(t, scenarioSnapshot(t, "timeseries-timestamp-first"), 200, 60, colorprofile.NoTTY)
	press(m, "f", "enter")
	if m.current().state.Shown() != view.PaneHeatmap || !strings.Contains(screen(m), "table-wide finding") {
		t.Fatal("a table-wide finding does not say so")
	}
}

func TestTransientPartsStayPlainWithoutColour(t *testing.T) {
	m := newSnapshotModel(t, scenarioSnapshot(t, "social-celebrity"), 120, 40, colorprofile.NoTTY)
	m.scan = &view.ScanStatus{Table: "social-celebrity", What: "scanning social-celebrity", Running: true,
		Progress: source.Progress{RangesDone: 3, RangesTotal: 12, RowsRead: 4200, Done: 0.25, RowsPerSecond: 2100, ETA: 6 * time.Second, Mode: keyspace.ModeSample, Fraction: 0.05}}
	frame := m.View().Content
	tuitest.RequireFrame(t, frame, 120, 40)
	if strings.Contains(frame, "\x1b") {
		t.Fatal("the progress line holds escape sequences without colour")
	}
	status := strings.Split(frame, "\n")[m.sh.Layout.Status.Y]
	for _, want := range []string{"scanning social-celebrity (sample 5%)", "25%", "3/12 ranges", "4.2K rows", "2.1K rows/s", "6s left", "x stops"} {
		if !strings.Contains(status, want) {
			t.Errorf("progress line %q lacks %q", status, want)
		}
	}
	if !strings.Contains(strings.Split(frame, "\n")[0], "scanning 25%") {
		t.Error("the header does not say the scan is running")
	}
	m.scan = nil
	press(m, "/")
	typeText(m, "user#")
	frame = m.View().Content
	tuitest.RequireFrame(t, frame, 120, 40)
	if strings.Contains(frame, "\x1b") {
		t.Fatal("the search prompt holds escape sequences without colour")
	}
}

func TestNoFrameBeforeTheFirstSize(t *testing.T) {
	m := New(t.Context(), Config{Snapshot: scenarioSnapshot(t, "social-celebrity"), Profile: colorprofile.NoTTY})
	if got := m.View().Content; got != "" {
		t.Fatalf("before any tea.WindowSizeMsg the view is %q, want nothing", got)
	}
}

// TestPickerFilter narrows the table list by part of a name, keeps the
// selection where it can, and clears the filter with esc.
func TestPickerFilter(t *testing.T) {
	var snaps []*keyspace.Snapshot
	for _, name := range []string{"binary-sensor-keys", "large-row-and-cell", "social-celebrity", "social-celebrity-salted"} {
		snaps = append(snaps, scenarioSnapshot(t, name))
	}
	m := New(t.Context(), Config{Source: session.NewSnapshotSource("demo.btviz", snaps...), Profile: colorprofile.NoTTY, Theme: view.ThemeDark})
	rt := newRuntime(t, m)
	rt.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	rt.run(m.Init())
	rt.until(timeoutShort, "the table list", func() bool { return len(m.picker.Tables) == len(snaps) })
	if s := screen(m); !strings.Contains(s, "4 tables · / filters") || !strings.Contains(s, "/ filter") {
		t.Fatalf("the picker does not offer its filter:\n%s", s)
	}

	rt.press("/")
	for _, r := range "CELEB" {
		rt.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	s := screen(m)
	if !strings.Contains(s, "filter tables: CELEB") || strings.Contains(s, "binary-sensor-keys") || strings.Contains(s, "large-row-and-cell") ||
		!strings.Contains(s, "social-celebrity-salted") {
		t.Fatalf("filtering by CELEB, any case:\n%s", s)
	}
	rt.press("enter", "j")
	if got, _ := m.picker.SelectedTable(); got.Name != "social-celebrity-salted" {
		t.Fatalf("j in the filtered list selects %q", got.Name)
	}
	if s := screen(m); !strings.Contains(s, `2 of 4 tables hold "CELEB"`) {
		t.Fatalf("status line with a filter:\n%s", s)
	}
	// A second / starts a new filter: what is typed next replaces the
	// old one ("celebtimestamp-first" matched nothing).
	rt.press("/")
	if m.picker.Filter != "" || len(m.picker.Shown()) != 4 {
		t.Fatalf("/ again keeps the filter %q", m.picker.Filter)
	}
	for _, r := range "binary" {
		rt.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if s := screen(m); m.picker.Filter != "binary" || !strings.Contains(s, "filter tables: binary") || len(m.picker.Shown()) != 1 {
		t.Fatalf("the second filter is %q, showing %d tables:\n%s", m.picker.Filter, len(m.picker.Shown()), s)
	}
	rt.press("esc", "/")
	for _, r := range "CELEB" {
		rt.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	rt.press("enter", "j")
	// esc clears the filter and keeps the selected table.
	rt.press("esc")
	if got, _ := m.picker.SelectedTable(); got.Name != "social-celebrity-salted" || m.picker.Filter != "" || len(m.picker.Shown()) != 4 {
		t.Fatalf("after esc: %q selected, filter %q, %d shown", got.Name, m.picker.Filter, len(m.picker.Shown()))
	}

	// A filter nothing matches says so; esc in the prompt drops it.
	rt.press("/")
	for _, r := range "zzz" {
		rt.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if _, ok := m.picker.SelectedTable(); ok {
		t.Fatal("a table is selected with none shown")
	}
	rt.press("enter")
	if s := screen(m); !strings.Contains(s, `no table name holds "zzz"`) {
		t.Fatalf("empty filter result:\n%s", s)
	}
	rt.press("enter") // opens nothing
	if !m.pickerOpen {
		t.Fatal("enter on an empty list left the picker")
	}
	rt.press("/", "esc")
	if m.picker.Filter != "" || m.searching {
		t.Fatalf("esc in the prompt: filter %q, prompt open %v", m.picker.Filter, m.searching)
	}

	// The filter then opens the table it selects.
	rt.press("/")
	for _, r := range "large" {
		rt.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	rt.press("enter", "enter")
	rt.until(timeoutShort, "the filtered table open", func() bool { return !m.pickerOpen && m.table == "large-row-and-cell" })
}
