package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/export"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/testkit/tier"
	"github.com/btviz/btviz/internal/view"
)

// hostile holds every kind of text that must never reach an output raw:
// an OSC that sets the window title and one that writes the clipboard, a
// CSI colour, BEL, NUL, C1 CSI (U+009B), a right-to-left override and an
// isolate, a line separator, a byte that is not UTF-8 and a truncated
// sequence.
const hostile = "\x1b]0;TITLE\x07\x1b]52;c;aGk=\x07\x1b[31m\x00\u009b31m\u202eRLO\u2066\u2028\xff\xc3"

// hostileSnapshot is a snapshot whose every string field holds [hostile]:
// names, families, the scan's fields (enumerations too, as a defence in
// depth: files with unknown ones are refused), keys, qualifiers and
// delimiters.
func hostileSnapshot(table string) *keyspace.Snapshot {
	meta := &keyspace.Snapshot{
		Source: keyspace.Source("emulator" + hostile), Project: "p" + hostile, Instance: "i" + hostile, Table: table + hostile,
		AppProfile: "ap" + hostile, Families: []string{"cf" + hostile, "f2" + hostile},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeSample, Method: keyspace.SampleMethod("spans" + hostile), Fraction: 0.5,
			Complete: false, Incomplete: "cancelled: " + hostile, ValuesRead: true,
			Start: keyspace.Key("a" + hostile), Prefix: keyspace.Key(hostile),
			Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Duration: time.Second},
		Ranges: []keyspace.Range{{Start: "", End: keyspace.Key("m" + hostile), SampledBytes: 1000}, {Start: keyspace.Key("m" + hostile), SampledBytes: 2000}},
	}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#\x1b"})
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 400 {
		key := fmt.Sprintf("user%d#%s#%04d", i%5, hostile, i)
		if i%3 == 0 {
			key = "user0#celebrity" + hostile + "#" + fmt.Sprint(i)
		}
		cells := []keyspace.Cell{{Family: "cf" + hostile, Qualifier: "q" + hostile, Timestamp: at.Add(time.Duration(i) * time.Minute).UnixMicro(), ValueBytes: int64(100 + i)}}
		if i == 7 {
			for v := range 40 {
				cells = append(cells, keyspace.Cell{Family: "f2" + hostile, Qualifier: hostile, Timestamp: at.Add(time.Duration(v) * time.Second).UnixMicro(), ValueBytes: 20 << 20})
			}
		}
		b.Add(&keyspace.Row{Key: key, Weight: 2, Cells: cells})
	}
	snap := b.Snapshot()
	snap.Delimiters = "#\x1b"
	return snap
}

// sgr matches the colour sequences the .ansi export and TUI frames may
// hold.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// svgCharRef matches numeric character references, which an SVG viewer
// would turn back into the characters they name.
var svgCharRef = regexp.MustCompile(`&#[xX]?[0-9a-fA-F]+;`)

// checkClean fails the test if out holds anything from [hostile] raw: a
// byte that is not UTF-8, a C0 or C1 control other than newline (and, in
// coloured output, SGR colours), or a bidirectional or invisible
// formatting character; in SVG, also one written as a character
// reference.
func checkClean(t *testing.T, what string, out []byte, colours bool) {
	t.Helper()
	text := string(out)
	if colours {
		text = sgr.ReplaceAllString(text, "")
	}
	if !utf8.ValidString(text) {
		i := 0
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		t.Errorf("%s is not UTF-8 at byte %d: %q", what, i, text[max(0, i-30):min(len(text), i+30)])
		return
	}
	for i, r := range text {
		if r != '\n' && escape.Unsafe(r) {
			t.Errorf("%s holds raw %U at byte %d: %q", what, r, i, text[max(0, i-30):min(len(text), i+30)])
			return
		}
	}
	for _, ref := range svgCharRef.FindAllString(text, -1) {
		var r rune
		if _, err := fmt.Sscanf(strings.TrimPrefix(strings.Trim(ref, "&#;"), "x"), "%x", &r); err == nil && strings.ContainsAny(ref, "xX") && escape.Unsafe(r) {
			t.Errorf("%s writes %U as the character reference %s", what, r, ref)
			return
		}
	}
	for _, word := range []string{"TITLE\x07", "]52;"} {
		if strings.Contains(text, word) && !strings.Contains(text, `\x1b]`) {
			t.Errorf("%s holds %q outside an escape", what, word)
		}
	}
}

// checkJSONStrings fails the test if any string in a JSON document,
// decoded as a consumer would, is not clean: `jq -r` must print nothing
// a terminal acts on either.
func checkJSONStrings(t *testing.T, what string, out []byte) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			if !escape.Clean(v) {
				t.Errorf("%s: %s decodes to %q", what, path, v)
			}
		case []any:
			for i, item := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), item)
			}
		case map[string]any:
			for name, item := range v {
				if !escape.Clean(name) {
					t.Errorf("%s: member name %q under %s", what, name, path)
				}
				walk(path+"."+name, item)
			}
		}
	}
	walk("$", doc)
}

// TestHostileTextReachesNoOutputRaw runs every output path over
// snapshots whose every string field is hostile: the text, JSON and
// Markdown reports (with a what-if and linked images), the text, JSON and
// Markdown diffs and the side-by-side diff image, the txt, ansi, svg and
// png exports of every view, the TUI frame in colour and without, and
// the same commands on the snapshot saved to a file. None writes any of
// it raw.
func TestHostileTextReachesNoOutputRaw(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	a, b := hostileSnapshot("before"), hostileSnapshot("after")
	findingsA, findingsB := diagnose.Diagnose(a), diagnose.Diagnose(b)

	in := report.Input{Snapshot: a, Findings: findingsA, Images: map[report.Section][]report.Image{
		report.SectionFindings: {{Alt: "alt" + hostile, Path: "dir/x" + hostile + ".png"}}}}
	transform, err := diagnose.ParseTransform("salt(4)")
	if err != nil {
		t.Fatal(err)
	}
	whatIf, err := diagnose.RunWhatIf(a, transform)
	if err != nil {
		t.Fatal(err)
	}
	in.WhatIfs = []*diagnose.WhatIf{whatIf}
	diffIn := report.DiffInput{A: a, B: b, FindingsA: findingsA, FindingsB: findingsB,
		LabelA: "a" + hostile + ".btviz", LabelB: "b" + hostile + ".btviz", AllowDifferentTables: true,
		Images: []report.Image{{Alt: hostile, Path: hostile + ".png"}}}
	for _, format := range report.Formats() {
		out, err := report.Render(format, in)
		if err != nil {
			t.Fatal(err)
		}
		checkClean(t, "the "+string(format)+" report", out, false)
		diff, err := report.Diff(format, diffIn)
		if err != nil {
			t.Fatal(err)
		}
		checkClean(t, "the "+string(format)+" diff", diff, false)
		if format == report.FormatJSON {
			checkJSONStrings(t, "the JSON report", out)
			checkJSONStrings(t, "the JSON diff", diff)
		}
	}

	// Every pane in the slow tier; three in the fast one (the escaping is
	// one code path, exercised by every pane's labels), and a PNG of the
	// first only: a raster holds no text to leak, it must only be drawn,
	// and each PNG costs a second under -race.
	for i, pane := range tier.Sample(view.Panes(), 3) {
		for _, format := range artifact.Formats() {
			if format == artifact.FormatPNG && i > 0 && !tier.Slow {
				continue
			}
			for _, frame := range []bool{false, true} {
				var out bytes.Buffer
				o := export.Options{Format: format, View: pane, Width: 160, Height: 48, Frame: frame}
				err := export.Render(&out, a, findingsA, o)
				if pane == view.PaneHot && !frame {
					if !errors.Is(err, export.ErrCannotDraw) {
						t.Errorf("a chart of a scan's hot rows: %v, want ErrCannotDraw", err)
					}
					checkClean(t, "the error of a hot chart", []byte(escape.Text(fmt.Sprint(err))), false)
					continue
				}
				if err != nil {
					t.Fatalf("%s %s (frame %v): %v", pane, format, frame, err)
				}
				checkExport(t, fmt.Sprintf("the %s export of the %s pane (frame %v)", format, pane, frame), format, out.Bytes())
			}
		}
	}
	for _, format := range []artifact.Format{artifact.FormatSVG, artifact.FormatPNG} {
		var out bytes.Buffer
		if err := export.DiffImage(&out, format, a, b, export.DiffImageOptions{FindingsA: findingsA, FindingsB: findingsB}); err != nil {
			t.Fatal(err)
		}
		checkExport(t, "the "+string(format)+" diff image", format, out.Bytes())
	}
	for _, profile := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.TrueColor, colorprofile.ANSI} {
		states := []view.ViewState{{Main: view.PaneRows, RowColumns: true}, {Prefix: "user0#"}, {Bucketing: heatmap.BucketTablets, TimeColumn: 3}, {FullHelp: true}}
		for _, pane := range view.Panes() {
			states = append(states, view.ViewState{}.Showing(pane))
		}
		for _, state := range states {
			frame := view.RenderFrame(a, findingsA, state, 160, 48, true, profile)
			checkClean(t, fmt.Sprintf("the TUI frame %+v in %v", state, profile), []byte(frame), true)
		}
	}

	checkClean(t, "the scan command's summary", []byte(describeScan(a)), false)

	// The same through the commands, from files.
	dir := t.TempDir()
	pathA, pathB := filepath.Join(dir, "a.btviz"), filepath.Join(dir, "b.btviz")
	for path, snap := range map[string]*keyspace.Snapshot{pathA: a, pathB: b} {
		snap.Source, snap.Scan.Method = keyspace.SourceEmulator, keyspace.MethodSpans // files with unknown ones are refused
		if err := keyspace.Save(path, snap); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"report", "--snapshot", pathA},
		{"report", "--snapshot", pathA, "--format", "json"},
		{"report", "--snapshot", pathA, "--format", "markdown", "--what-if", "salt(4)", "--images", filepath.Join(dir, "img"), "--out", filepath.Join(dir, "r.md")},
		{"diff", pathA, pathB, "--force"},
		{"diff", pathA, pathB, "--force", "--format", "json"},
		{"diff", pathA, pathB, "--force", "--format", "markdown", "--out", filepath.Join(dir, "d.svg")},
		{"export", "--snapshot", pathA, "--out", filepath.Join(dir, "x.txt"), "--prefix", `user0#`},
		{"export", "--snapshot", pathA, "--out", filepath.Join(dir, "x.ansi"), "--view", "findings"},
		{"export", "--snapshot", pathA, "--out", filepath.Join(dir, "x.svg"), "--view", "rows"},
		{"export", "--snapshot", pathA, "--out", filepath.Join(dir, "x.png"), "--view", "prefixes"},
	} {
		r := runBtviz(t, nil, args...)
		if r.code != exitOK {
			t.Fatalf("btviz %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
		}
		checkClean(t, "btviz "+args[0]+" stdout", []byte(r.stdout), false)
		checkClean(t, "btviz "+args[0]+" stderr", []byte(r.stderr), false)
	}
	for _, name := range []string{"r.md", "d.svg", "x.txt", "x.ansi", "x.svg", "x.png"} {
		out, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		format, _ := artifact.FormatOf(name)
		checkExport(t, name, format, out)
	}
}

// checkExport checks one export: images decode, text is clean.
func checkExport(t *testing.T, what string, format artifact.Format, out []byte) {
	t.Helper()
	if format == artifact.FormatPNG {
		if _, err := png.Decode(bytes.NewReader(out)); err != nil {
			t.Errorf("%s does not decode: %v", what, err)
		}
		return
	}
	checkClean(t, what, out, format == artifact.FormatANSI)
}

// hostileRecording is a traffic recording whose method names, upstream,
// table name and keys are all [hostile].
func hostileRecording() *keyspace.Recording {
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Project: "p" + hostile,
		Instance: "i" + hostile, Upstream: "emulator at " + hostile, Started: started, Delimiters: "#"}, keyspace.Options{})
	for i := range 300 {
		key := keyspace.Key(fmt.Sprintf("user%d#%s#%d", i%4, hostile, i%9))
		op := keyspace.Op{Time: started.Add(time.Duration(i) * time.Second), Table: "t" + hostile, Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 100}}}
		switch i % 4 {
		case 1:
			op.Method, op.RowsRead, op.RowsWritten = "Custom"+hostile, nil, []keyspace.RowIO{{Key: key, Bytes: 10}}
		case 2:
			op.Keys, op.Ranges = nil, []keyspace.KeyRange{{Start: "user1#", End: keyspace.Key("user1#" + hostile)}}
		}
		r.Add(&op)
	}
	return r.Recording(started.Add(10*time.Minute), true)
}

// TestHostileTrafficReachesNoOutputRaw: the same for a traffic
// recording's text — method names, the upstream, keys of hot rows and
// scans — in reports, exports of the traffic metrics and TUI frames, and
// through the commands from a recording file.
func TestHostileTrafficReachesNoOutputRaw(t *testing.T) {
	rec := hostileRecording()
	if len(rec.Tables) != 1 {
		t.Fatalf("recorded %d tables", len(rec.Tables))
	}
	snap := rec.Tables[0]
	findings := diagnose.Diagnose(snap)
	for _, format := range report.Formats() {
		out, err := report.Render(format, report.Input{Snapshot: snap, Findings: findings})
		if err != nil {
			t.Fatal(err)
		}
		checkClean(t, "the "+string(format)+" report of a recording", out, false)
		if format == report.FormatJSON {
			checkJSONStrings(t, "the JSON report of a recording", out)
		}
	}
	for _, metric := range heatmap.MetricsFor(snap) {
		for _, format := range []artifact.Format{artifact.FormatText, artifact.FormatANSI, artifact.FormatSVG} {
			var out bytes.Buffer
			if err := export.Render(&out, snap, findings, export.Options{Format: format, Metric: metric, Width: 160, Height: 48}); err != nil {
				t.Fatalf("%s %s: %v", metric, format, err)
			}
			checkExport(t, fmt.Sprintf("the %s export of %s", format, metric), format, out.Bytes())
		}
		frame := view.RenderFrame(snap, findings, view.ViewState{Metric: metric}, 160, 48, true, colorprofile.TrueColor)
		checkClean(t, "the TUI frame of "+string(metric), []byte(frame), true)
	}
	for _, pane := range view.Panes() {
		frame := view.RenderFrame(snap, findings, view.ViewState{}.Showing(pane), 160, 48, true, colorprofile.TrueColor)
		checkClean(t, "the TUI's "+string(pane)+" pane of a recording", []byte(frame), true)
	}
	path := filepath.Join(t.TempDir(), "rec.btviz")
	if err := keyspace.SaveRecording(path, rec); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"report", "--snapshot", path},
		{"report", "--snapshot", path, "--format", "json"},
		{"export", "--snapshot", path, "--metric", "ops", "--out", filepath.Join(t.TempDir(), "x.txt")},
	} {
		r := runBtviz(t, nil, args...)
		if r.code != exitOK {
			t.Fatalf("btviz %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
		}
		checkClean(t, "btviz "+args[0]+" of a recording, stdout", []byte(r.stdout), false)
		checkClean(t, "btviz "+args[0]+" of a recording, stderr", []byte(r.stderr), false)
	}
}

// TestHostileEnumerationsInAFileAreRefusedCleanly: a file whose scan
// mode, method, source or node kind is an escape sequence is refused,
// and the refusal quotes it escaped.
func TestHostileEnumerationsInAFileAreRefusedCleanly(t *testing.T) {
	good := smallSnapshot(t, 50)
	for field, change := range map[string]func(map[string]any){
		"snapshot.scan.mode":   func(f map[string]any) { jsonNode(f, "snapshot", "scan")["mode"] = hostile },
		"snapshot.scan.method": func(f map[string]any) { jsonNode(f, "snapshot", "scan")["method"] = hostile },
		"snapshot.source":      func(f map[string]any) { jsonNode(f, "snapshot")["source"] = hostile },
		"snapshot.root.children[0].kind": func(f map[string]any) {
			jsonNode(f, "snapshot", "root", "children", 0)["kind"] = hostile
		},
	} {
		r := runBtviz(t, nil, "report", "--snapshot", damage(t, good, change))
		r.requireExit(t, exitUsage, field)
		checkClean(t, field+" refused", []byte(r.stderr), false)
	}
}
