package view

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/testkit/tier"
)

// maxLabelDrill is how many levels below the first screen the label test
// follows drill-downs.
const maxLabelDrill = 6

// TestLabelsIncreaseAtEveryDrillLevel checks, for every demo table (in the
// slow tier; a sample of them in the fast one) at both golden sizes and in
// every bucketing, the first screen and every
// level reached from it by drilling (every bucket of the first screen,
// then the first, last and fullest bucket of each deeper level): labels
// read top to bottom in key order, and each is a prefix of its bucket's
// key or that prefix with the view's shared prefix written as "…". Key
// order is the order of the bytes a label stands for: escaped text
// cannot keep it for binary keys (\x1f sorts after a space).
func TestLabelsIncreaseAtEveryDrillLevel(t *testing.T) {
	// Every demo table in the slow tier; six of them in the fast one.
	for _, sc := range tier.Sample(demo.Scenarios(), 6) {
		snap := scenarioSnapshot(t, sc.Name)
		for _, size := range labelSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.Name, size.width, size.height), func(t *testing.T) {
				shared := newShared(panes(), true, colorprofile.NoTTY, size.width, size.height, false)
				views := 0
				var visit func(state ViewState, depth int, path string)
				visit = func(state ViewState, depth int, path string) {
					f := &Frame{Shared: shared, Snap: snap, State: state.Normalized(snap)}
					f.BuildMatrix()
					if f.BuildErr != nil || f.Matrix == nil {
						t.Fatalf("%s: %v", path, f.BuildErr)
					}
					views++
					checkLabels(t, f.Matrix, path, render.TextLayout(f.heatOptions(f.Matrix), f.Matrix.Timed()).LabelWidth)
					if depth == maxLabelDrill {
						return
					}
					for _, k := range drillPicks(f.Matrix, depth) {
						b := &f.Matrix.Buckets[k]
						if !b.CanDrill() {
							continue
						}
						next := f.State.Child("", b.Start, b.End)
						if b.Node != nil {
							next = f.State.Child(b.Node.Prefix, "", "")
						}
						visit(next, depth+1, path+" › "+b.Label)
					}
				}
				for _, bucketing := range heatmap.Bucketings() {
					if bucketing == heatmap.BucketTablets && len(snap.Ranges) == 0 {
						continue
					}
					visit(ViewState{Bucketing: bucketing}, 0, sc.Name+" ("+string(bucketing)+")")
				}
				if views <= len(heatmap.Bucketings()) {
					t.Fatalf("only %d views visited: no drill-down", views)
				}
				t.Logf("%d views", views)
			})
		}
	}
}

// drillPicks returns the buckets the label test drills into: all of them
// on the first screen, then the first, the last and the one with most
// rows.
func drillPicks(m *heatmap.Matrix, depth int) []int {
	if depth == 0 {
		picks := make([]int, len(m.Buckets))
		for i := range picks {
			picks[i] = i
		}
		return picks
	}
	fullest := 0
	for i := range m.Buckets {
		if m.Buckets[i].Stats.Rows > m.Buckets[fullest].Stats.Rows {
			fullest = i
		}
	}
	last := len(m.Buckets) - 1
	picks := []int{0}
	if fullest != 0 && fullest != last {
		picks = append(picks, fullest)
	}
	if last > 0 {
		picks = append(picks, last)
	}
	return picks
}

// checkLabels asserts the label invariants of one
func checkLabels(t *testing.T, m *heatmap.Matrix, path string, gutter int) {
	t.Helper()
	previous := ""
	for k := range m.Buckets {
		b := &m.Buckets[k]
		key := labelKeyOf(t, b.ShortLabel, m.SharedPrefix, path)
		full := labelKeyOf(t, b.Label, "", path)
		if key != full {
			t.Errorf("%s: bucket %d: short label %q and label %q name different keys", path, k, b.ShortLabel, b.Label)
		}
		if !strings.HasPrefix(string(b.LabelKey), key) || (k > 0 && b.LabelKey != b.Start) || b.LabelKey < b.Start {
			t.Errorf("%s: bucket %d [%s, %s): label %q is not a prefix of its key %q", path, k, b.Start, b.End, b.Label, b.LabelKey)
		}
		if k > 0 && key <= previous {
			t.Errorf("%s: bucket %d: label %q does not sort after the label above, %q", path, k, b.ShortLabel, m.Buckets[k-1].ShortLabel)
		}
		if strings.IndexFunc(b.Label, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0 {
			t.Errorf("%s: bucket %d: label %q is not printable ASCII", path, k, b.Label)
		}
		previous = key
	}
	// Cut to a gutter's width, as every output draws them, they still
	// read strictly in order as strings (no two alike), and each is its
	// label with parts left out around "…".
	for _, width := range []int{gutter} {
		fitted := m.FitLabels(width)
		for k, label := range fitted {
			if n := utf8.RuneCountInString(label); n > width {
				t.Errorf("%s: width %d: label %q is %d cells wide", path, width, label, n)
			}
			if !elidedFrom(label, m.Buckets[k].ShortLabel) {
				t.Errorf("%s: width %d: label %q is not %q with parts left out", path, width, label, m.Buckets[k].ShortLabel)
			}
			if k > 0 && label <= fitted[k-1] {
				t.Errorf("%s: width %d: label %q does not sort after the label above, %q (uncut %q, %q)", path, width, label, fitted[k-1], m.Buckets[k].ShortLabel, m.Buckets[k-1].ShortLabel)
			}
		}
	}
}

// labelSizes are the terminal sizes the label test draws at: the
// goldens' and two between.
var labelSizes = append([]goldenSize{{120, 40}, {160, 48}}, goldenSizes...)

// elidedFrom reports whether fitted is label with parts left out around
// "…": its pieces between marks appear in label in order, the first at
// its start.
func elidedFrom(fitted, label string) bool {
	at := 0
	for i, piece := range strings.Split(fitted, "…") {
		if i == 0 {
			if !strings.HasPrefix(label, piece) {
				return false
			}
			at = len(piece)
			continue
		}
		j := strings.Index(label[at:], piece)
		if j < 0 {
			return false
		}
		at += j + len(piece)
	}
	return true
}

// labelKeyOf returns the key bytes a label names: the label unescaped,
// with a leading "…" standing for the view's shared prefix.
func labelKeyOf(t *testing.T, label string, shared keyspace.Key, path string) string {
	t.Helper()
	if label == "(table start)" {
		return ""
	}
	prefix := ""
	if rest, ok := strings.CutPrefix(label, "…"); ok {
		if shared == "" {
			t.Errorf("%s: label %q elides a prefix but the view shares none", path, label)
		}
		label, prefix = rest, string(shared)
	}
	key, err := keyspace.ParseKey(label)
	if err != nil {
		t.Errorf("%s: label %q is not an escaped key: %v", path, label, err)
	}
	return prefix + key
}
