package export

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/tui"
	"github.com/btviz/btviz/internal/view"
)

// exportTo writes the celebrity fixture's view as the interactive frame
// (--frame) in the format of name's extension into a temporary directory
// and returns the file's bytes.
func exportTo(t *testing.T, name string, o Options) ([]byte, *keyspace.Snapshot, []diagnose.Finding) {
	t.Helper()
	o.Frame = true
	snap, findings := loadFixture(t, "social-celebrity")
	path := filepath.Join(t.TempDir(), name)
	if err := Write(path, snap, findings, o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, snap, findings
}

// TestSVGTextMatchesTheFrame: the SVG is well-formed XML whose text, row
// by row, is the frame's text, under the title bar.
func TestSVGTextMatchesTheFrame(t *testing.T) {
	for _, o := range []Options{
		{View: view.PaneHeatmap, Width: 120, Height: 40},
		{View: view.PaneFindings, Width: 90, Height: 30, Light: true},
		{View: view.PaneRows, Width: 200, Height: 60},
	} {
		data, snap, findings := exportTo(t, "frame.svg", o)
		doc, err := render.ReadFrameSVG(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", o.View, err)
		}
		o.Format = artifact.FormatSVG
		want := strings.Split(render.FrameText(Frame(snap, findings, o)), "\n")
		if len(want) != o.Height {
			t.Fatalf("%s: the frame has %d lines, want %d", o.View, len(want), o.Height)
		}
		for y, line := range want {
			if got := render.SVGLine(doc.Rows[y]); got != line {
				t.Errorf("%s row %d: SVG text %q, want %q", o.View, y, got, line)
			}
		}
		if got, want := strings.TrimSpace(render.SVGLine(doc.Title)), o.withDefaults().frame(snap, findings).Title; got != want {
			t.Errorf("%s: title %q, want %q", o.View, got, want)
		}
		if doc.Width != o.Width*render.DefaultCellWidth || doc.Height != (o.Height+1)*render.DefaultCellHeight {
			t.Errorf("%s: SVG is %d×%d", o.View, doc.Width, doc.Height)
		}
	}
}

// TestPNGSizeAndCellColours: the PNG decodes, is columns × cell width
// wide (plus the title row in height), and the heat cells (half blocks)
// show the frame's colours: the upper half in the foreground colour, the
// lower half in the background colour.
func TestPNGSizeAndCellColours(t *testing.T) {
	o := Options{View: view.PaneHeatmap, Width: 120, Height: 40}
	data, snap, findings := exportTo(t, "frame.png", o)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	cw, ch := render.DefaultCellWidth, render.DefaultCellHeight
	if b := img.Bounds(); b.Dx() != o.Width*cw || b.Dy() != (o.Height+1)*ch {
		t.Fatalf("PNG is %v, want %d×%d", b, o.Width*cw, (o.Height+1)*ch)
	}
	o.Format = artifact.FormatPNG
	grid, err := render.ParseFrame(Frame(snap, findings, o), o.Width, o.Height)
	if err != nil {
		t.Fatal(err)
	}
	checked, colours := 0, map[color.RGBA]bool{}
	for y := range grid.Rows {
		for x := range grid.Columns {
			cell := grid.Cell(x, y)
			if cell.Glyph != "▀" || cell.Fg == nil || cell.Bg == nil {
				continue
			}
			top, bottom := rgba(img.At(x*cw+cw/2, (y+1)*ch+ch/4)), rgba(img.At(x*cw+cw/2, (y+1)*ch+3*ch/4))
			if top != rgba(cell.Fg) || bottom != rgba(cell.Bg) {
				t.Fatalf("cell (%d, %d): pixels %v / %v, want %v / %v", x, y, top, bottom, rgba(cell.Fg), rgba(cell.Bg))
			}
			colours[top] = true
			checked++
		}
	}
	if checked < 1000 || len(colours) < 4 {
		t.Fatalf("checked %d heat cells in %d colours; the heatmap is missing or blank", checked, len(colours))
	}
}

func rgba(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// TestTextExportIsTheFrameWithoutEscapes: .txt is the frame the TUI
// draws for a terminal without colour, escapes stripped, and holds no
// control byte but newlines.
func TestTextExportIsTheFrameWithoutEscapes(t *testing.T) {
	o := Options{View: view.PanePrefixes, Width: 100, Height: 30}
	data, snap, findings := exportTo(t, "frame.txt", o)
	frame := view.RenderFrame(snap, findings, view.ViewState{Main: view.PanePrefixes}, 100, 30, true, colorprofile.NoTTY)
	if got, want := string(data), render.FrameText(frame)+"\n"; got != want {
		t.Fatalf("txt export differs from the frame:\n%s\nwant:\n%s", got, want)
	}
	if i := strings.IndexFunc(string(data), func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }); i >= 0 {
		t.Fatalf("txt export holds a control byte at %d", i)
	}
}

// sgrOnly matches text with no escape sequence other than SGR.
var nonSGR = regexp.MustCompile(`\x1b(?:[^\[]|\[[0-9;:]*[^0-9;:m])`)

// TestANSIExportIsTheColouredFrame: .ansi is the frame in true colour,
// reduced to SGR sequences, ending with a reset.
func TestANSIExportIsTheColouredFrame(t *testing.T) {
	o := Options{View: view.PaneHeatmap, Width: 100, Height: 30, Light: true}
	data, snap, findings := exportTo(t, "frame.ansi", o)
	frame := view.RenderFrame(snap, findings, view.ViewState{}, 100, 30, false, colorprofile.TrueColor)
	if got, want := string(data), render.FrameANSI(frame)+"\n"; got != want {
		t.Fatal("ansi export differs from the frame")
	}
	if loc := nonSGR.FindIndex(data); loc != nil {
		t.Fatalf("ansi export holds a non-SGR escape: %q", data[loc[0]:min(loc[1]+8, len(data))])
	}
	if !bytes.HasSuffix(data, []byte("\x1b[m\n")) {
		t.Errorf("ansi export does not end with a reset: %q", data[max(0, len(data)-12):])
	}
}

// TestExportDrawsWhatTheTUIShows: for every view, metric and bucketing
// choice, the exported frame is the TUI's frame for the same view state
// and size.
func TestExportDrawsWhatTheTUIShows(t *testing.T) {
	snap, findings := loadFixture(t, "timeseries-timestamp-first")
	for _, tc := range []struct {
		flags Flags
		state view.ViewState
	}{
		{Flags{Out: "a.png"}, view.ViewState{}},
		{Flags{Out: "a.svg", View: "prefixes", Metric: "rows", Bucketing: "even", Size: "150x45"}, view.ViewState{Main: view.PanePrefixes, Metric: "rows", Bucketing: "even"}},
		{Flags{Out: "a.ansi", View: "findings", Theme: "light", Size: "80x24"}, view.ViewState{Focus: view.PaneFindings}},
		{Flags{Out: "a.png", View: "rows", Size: "300x100"}, view.ViewState{Main: view.PaneRows}},
		{Flags{Out: "a.png", View: "heatmap", Prefix: "17934", Metric: "write-share", Bucketing: "heat"}, view.ViewState{Prefix: "17934", Metric: "write-share", Bucketing: "heat"}},
	} {
		tc.flags.Frame = true
		o, err := ParseOptions(tc.flags)
		if err != nil {
			t.Fatal(err)
		}
		want := view.RenderFrame(snap, findings, tc.state, o.Width, o.Height, tc.flags.Theme != "light", colorprofile.TrueColor)
		if got := Frame(snap, findings, o); got != want {
			t.Errorf("%+v: the exported frame differs from the TUI's", tc.flags)
		}
	}
}

// TestWriteIsAtomic: a failed export leaves the existing file as it was
// and no temporary file behind; a good one replaces it whole.
func TestWriteIsAtomic(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	dir := t.TempDir()
	path := filepath.Join(dir, "shot.svg")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(path, snap, findings, Options{Prefix: "nobody#"})
	if err == nil || !strings.Contains(err.Error(), `no rows start with prefix "nobody#"`) || !strings.Contains(err.Error(), `"user#"`) {
		t.Fatalf("error %v, want one naming the empty prefix and the prefixes nearby", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Fatalf("a failed export changed the file to %q", data)
	}
	if err := Write(path, snap, findings, Options{Width: 100, Height: 30}); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, snap, findings, Options{Metric: heatmap.MetricOps}); !errors.Is(err, ErrCannotDraw) {
		t.Fatalf("exporting a traffic metric of a scan: %v, want ErrCannotDraw", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "shot.svg" {
		t.Fatalf("directory holds %v, want only shot.svg", entries)
	}
	if data, _ := os.ReadFile(path); !bytes.HasPrefix(data, []byte("<?xml")) {
		t.Fatalf("the file is not the new SVG: %.20q", data)
	}
	if err := Write(filepath.Join(dir, "missing", "shot.png"), snap, findings, Options{}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("writing into a missing directory: %v", err)
	}
	if err := Write(path, nil, nil, Options{}); err == nil {
		t.Error("exporting no snapshot succeeded")
	}
}

// TestTitleIsPrintable: the title bar names table, view and metric, and
// escapes what a snapshot file's names hold.
func TestTitleIsPrintable(t *testing.T) {
	snap := &keyspace.Snapshot{Table: "evil\x1b]0;x\x07"}
	for o, want := range map[*Options]string{
		{}:                                     `btviz — evil\x1b]0;x\x07 — heatmap/writes`,
		{View: view.PaneRows, Prefix: "a\x00"}: `btviz — evil\x1b]0;x\x07 — rows — a\x00`,
		{View: view.PanePrefixes, Metric: "bytes"}: `btviz — evil\x1b]0;x\x07 — prefixes/bytes`,
	} {
		if got := o.withDefaults().frame(snap, nil).Title; got != want {
			t.Errorf("Title = %q, want %q", got, want)
		}
	}
}

// TestHostileKeysStayEscaped: keys and names with control bytes, escape
// sequences and invalid UTF-8 reach no export raw.
func TestHostileKeysStayEscaped(t *testing.T) {
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Table: "evil\x1b[2J", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, Complete: true, ValuesRead: true}}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#"})
	for i, key := range []string{"user#\x1b[31mred#1", "user#\x9b31m\x07#2", "user#\xff\xfe#3", "user#\x00nul#4", "user#ok#5"} {
		for j := range 20 * (i + 1) {
			b.Add(&keyspace.Row{Key: key + string(rune('a'+j%26)), Weight: 1,
				Cells: []keyspace.Cell{{Family: "f", Qualifier: "q\x1b]0;x\x07", Timestamp: int64(j) * 1e6, ValueBytes: 10}}})
		}
	}
	snap := b.Snapshot()
	findings := diagnose.Diagnose(snap)
	dir := t.TempDir()
	for _, pane := range view.Panes() {
		for _, format := range artifact.Formats() {
			for _, frame := range []bool{false, true} {
				path := filepath.Join(dir, fmt.Sprintf("%s-%v.%s", pane, frame, format))
				err := Write(path, snap, findings, Options{View: pane, Width: 120, Height: 30, Prefix: "user#\x1b", Frame: frame})
				if pane == view.PaneHot && !frame {
					if !errors.Is(err, ErrCannotDraw) {
						t.Errorf("a chart of the hot rows of a scan: %v, want ErrCannotDraw (it needs a recording)", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				checkNoControls(t, path, format)
			}
		}
	}
}

// checkNoControls fails when the export at path holds a control byte
// (past its SGR colours), or is malformed SVG.
func checkNoControls(t *testing.T, path string, format artifact.Format) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if format == artifact.FormatPNG {
		return
	}
	text := string(data)
	if format == artifact.FormatANSI {
		text = regexp.MustCompile(`\x1b\[[0-9;:]*m`).ReplaceAllString(text, "")
	}
	if format == artifact.FormatSVG {
		for d := xml.NewDecoder(strings.NewReader(text)); ; {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("%s: malformed SVG: %v", path, err)
				break
			}
		}
	}
	for i, r := range text {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
			t.Fatalf("%s: control %U at byte %d: %q", path, r, i, text[max(0, i-20):min(len(text), i+20)])
		}
	}
}

// TestScreenshotKeyWritesWhatExportWrites: the TUI's s key and btviz
// export write the same bytes for the same view, size and theme.
func TestScreenshotKeyWritesWhatExportWrites(t *testing.T) {
	snap, findings := loadFixture(t, "social-celebrity")
	const width, height = 120, 40
	for _, pane := range view.Panes() {
		dir := t.TempDir()
		at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		m := tui.New(context.Background(), tui.Config{
			Snapshot: snap, Findings: findings, View: view.ViewState{Prefix: "user#"}.Showing(pane),
			Theme: view.ThemeDark, Profile: colorprofile.TrueColor, ScreenshotDir: dir, Now: func() time.Time { return at },
		})
		m.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
		m.Update(tea.WindowSizeMsg{Width: width, Height: height})
		_, cmd := m.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
		if cmd == nil {
			t.Fatalf("%s: s gave no command", pane)
		}
		cmd()
		for _, format := range []artifact.Format{artifact.FormatPNG, artifact.FormatSVG} {
			shot, err := os.ReadFile(filepath.Join(dir, "btviz-social-celebrity-20261101-120000."+string(format)))
			if err != nil {
				t.Fatalf("%s: the s key wrote no %s: %v", pane, format, err)
			}
			exported := filepath.Join(dir, "export."+string(format))
			o := Options{View: pane, Prefix: "user#", Width: width, Height: height, Frame: true}
			if err := Write(exported, snap, findings, o); err != nil {
				t.Fatal(err)
			}
			want, _ := os.ReadFile(exported)
			if !bytes.Equal(shot, want) {
				t.Errorf("%s %s: the screenshot (%d bytes) differs from the export (%d bytes)", pane, format, len(shot), len(want))
			}
		}
	}
}
