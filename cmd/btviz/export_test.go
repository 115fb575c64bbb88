package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/render"
)

// snapshotFixture is the path of the committed snapshot of a demo table
// (testdata/snapshots, which export's TestSnapshotFixtures writes and a
// slow test checks against a fresh scan).
func snapshotFixture(table string) string {
	return filepath.Join("..", "..", "testdata", "snapshots", table+".btviz")
}

// TestExportWritesEveryFormatWithoutATerminal: btviz export writes each
// format and view through the command line (what each draws is export's
// to test, on the demo tables), on a small snapshot.
func TestExportWritesEveryFormatWithoutATerminal(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	snap := smallSnapshot(t, 2000)
	dir := t.TempDir()
	for _, name := range []string{"heat.png", "heat.svg", "heat.txt", "heat.ansi", "findings.png", "rows.txt"} {
		out := filepath.Join(dir, name)
		args := []string{"export", "--snapshot", snap, "--out", out, "--size", "120x40"}
		view := "heatmap" // the default
		switch {
		case strings.HasPrefix(name, "findings"):
			view = "findings"
			args = append(args, "--view", view)
		case strings.HasPrefix(name, "rows"):
			view = "rows"
			args = append(args, "--view", view)
		}
		runBtviz(t, nil, args...).requireExit(t, exitOK, "wrote "+out+" (chart of the "+view+" view of table \"events\")")
	}
	frame := filepath.Join(dir, "frame.txt")
	runBtviz(t, nil, "export", "--snapshot", snap, "--out", frame, "--frame").requireExit(t, exitOK, "wrote "+frame+" (frame of the heatmap view")
	if data, _ := os.ReadFile(frame); !strings.Contains(string(data), "esc back") {
		t.Errorf("--frame wrote no interactive frame:\n%s", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "heat.txt")); strings.Contains(string(data), "esc back") {
		t.Errorf("the chart holds the interactive frame's key help:\n%s", data)
	}
	// A view the snapshot cannot draw: exit 2, the reason, and no file.
	for _, args := range [][]string{{"--metric", "ops"}, {"--view", "hot"}, {"--metric", "reads", "--frame"}} {
		out := filepath.Join(dir, "cannot.png")
		r := runBtviz(t, nil, append([]string{"export", "--snapshot", snap, "--out", out}, args...)...)
		r.requireExit(t, exitUsage, "cannot draw this view", "needs a traffic recording")
		if _, err := os.Stat(out); err == nil {
			t.Errorf("export %v wrote %s though it could not draw the view", args, out)
		}
	}
	f, err := os.Open(filepath.Join(dir, "heat.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if w := img.Bounds().Dx(); w != 120*render.DefaultCellWidth {
		t.Errorf("PNG is %d px wide, want 120 columns × %d px", w, render.DefaultCellWidth)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "heat.txt"))
	if strings.ContainsAny(string(text), "\x1b\x00\x07") {
		t.Error("the .txt export holds escape or control bytes")
	}
	if !strings.Contains(string(text), "events") || !strings.Contains(string(text), "user0#") {
		t.Errorf("the .txt export lacks the table or its first prefix:\n%s", text)
	}
	ansi, _ := os.ReadFile(filepath.Join(dir, "heat.ansi"))
	if stripped := regexp.MustCompile("\x1b\\[[0-9;:]*m").ReplaceAllString(string(ansi), ""); strings.Contains(stripped, "\x1b") {
		t.Error("the .ansi export holds escapes other than colours")
	}
	r := runBtviz(t, nil, "export", "--snapshot", snap, "--out", filepath.Join(dir, "x.gif"))
	r.requireExit(t, exitUsage, ".png")
}

func TestDiffShowsSaltingRemoveTheHotspot(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	// Two tables need --force (shown on two small files: each of the
	// fixtures takes seconds to read under -race).
	events := smallSnapshot(t, 50)
	other := damage(t, events, func(file map[string]any) { jsonNode(file, "snapshot")["table"] = "other" })
	runBtviz(t, nil, "diff", events, other).requireExit(t, exitUsage, "--force")
	before, after := snapshotFixture("social-celebrity"), snapshotFixture("social-celebrity-salted")
	image := filepath.Join(t.TempDir(), "salting.png")
	r := runBtviz(t, nil, "diff", before, after, "--force", "--format", "json", "--out", image)
	r.requireExit(t, exitOK)
	var doc struct {
		Prefixes []struct {
			Prefix         string  `json:"prefix"`
			Status         string  `json:"status"`
			RowShareBefore float64 `json:"row_share_before"`
			RowShareAfter  float64 `json:"row_share_after"`
		} `json:"prefixes"`
		Findings struct {
			Disappeared []struct{ Kind, Prefix string } `json:"disappeared"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("diff is not JSON: %v", err)
	}
	hotBefore, pieces := 0.0, 0
	for _, p := range doc.Prefixes {
		switch {
		case p.Prefix == "user#mila_rosewood#":
			hotBefore = p.RowShareBefore
		case regexp.MustCompile(`^[0-7]#user#mila_rosewood#$`).MatchString(p.Prefix):
			pieces++
			if p.RowShareAfter >= 0.06 {
				t.Errorf("salted piece %s still holds %.1f%% of rows", p.Prefix, 100*p.RowShareAfter)
			}
		}
	}
	if hotBefore < 0.35 || pieces != 8 {
		t.Errorf("celebrity held %.1f%% before; %d salted pieces after, want 8", 100*hotBefore, pieces)
	}
	gone := false
	for _, f := range doc.Findings.Disappeared {
		gone = gone || (f.Kind == "hot-key-range" && f.Prefix == "user#mila_rosewood#")
	}
	if !gone {
		t.Errorf("hot-key-range did not disappear: %+v", doc.Findings.Disappeared)
	}
	if info, err := os.Stat(image); err != nil || info.Size() == 0 {
		t.Errorf("side-by-side image not written: %v", err)
	}
}

func TestMarkdownReportLinksTheImagesItWrites(t *testing.T) {
	t.Parallel() // heavy under -race; runs beside the package's other heavy tests
	snap := snapshotFixture("social-celebrity")
	dir := t.TempDir()
	out := filepath.Join(dir, "review.md")
	runBtviz(t, nil, "report", "--snapshot", snap, "--format", "markdown", "--images", filepath.Join(dir, "img"), "--out", out).requireExit(t, exitOK)
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`!\[[^\]]*\]\(<?([^)>]+)>?\)`).FindAllStringSubmatch(string(body), -1)
	if len(links) < 2 {
		t.Fatalf("report links %d images:\n%s", len(links), body)
	}
	for _, link := range links {
		f, err := os.Open(filepath.Join(dir, link[1]))
		if err != nil {
			t.Errorf("linked image %s missing: %v", link[1], err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("linked image %s is not a PNG: %v", link[1], err)
		}
		f.Close()
	}
	// --images without Markdown is refused before anything is read: a
	// file that is not there is never opened.
	runBtviz(t, nil, "report", "--snapshot", filepath.Join(dir, "not-there.btviz"), "--images", dir).requireExit(t, exitUsage, "--format markdown")
}
