package heatmap

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// widestGutter is the widest label gutter the heatmap pane draws (render's
// maxLabelWidth).
const widestGutter = 32

// TestFitLabelsSplitsARunThatCannotBeCutAsOne checks the two cases that
// used to leave cut labels reading the same: a run of labels whose shared
// part ends before the label below sets itself apart (host names under a
// view of many hosts: each host is a run of its own), and a run with one
// cell of room after its shared part.
func TestFitLabelsSplitsARunThatCannotBeCutAsOne(t *testing.T) {
	for _, tc := range []struct {
		width  int
		labels []string
		want   []string
	}{{
		width: 18,
		labels: []string{
			"de.wikipedia.org",
			"de.wikipedia.org/article",
			"de.wikipedia.org/weather.html",
			"developer.apple.com",
			"developer.apple.com/faq",
			"developer.mozilla.org/archive",
			"developer.mozilla.org/docs.html",
			"discuss.python.org",
		},
		want: []string{
			"de.wikipedia.org",
			"de.…article",
			"de.…weather.html",
			"dev…apple.com",
			"dev…apple.com/faq",
			"dev…mozilla.org/a…",
			"dev…mozilla.org/d…",
			"discuss.python.org",
		},
	}, {
		width: 18,
		labels: []string{
			"pied-piper#thermostat#0103#",
			"planet-express#camera#0050#",
			"planet-express#camera#0057#",
			"planet-express#lock#0011#",
			"planet-express#sensor#",
		},
		want: []string{
			"pied-piper#thermo…",
			"planet-express#c…0",
			"planet-express#c…7",
			"planet-express#lo…",
			"planet-express#se…",
		},
	}} {
		got := fitLabels(tc.labels, tc.width)
		if !slices.Equal(got, tc.want) {
			t.Errorf("width %d:\n got %q\nwant %q", tc.width, got, tc.want)
		}
		checkFitted(t, tc.labels, got, tc.width)
		if n := ties(got); n != 0 {
			t.Errorf("width %d: %d labels read the same as the one above: %q", tc.width, n, got)
		}
	}
}

// TestFitLabelsNeverInvertsRandomKeys fits random increasing labels of
// the shapes keys take (tenants, devices, padded numbers, times) to every
// gutter width and checks no cut label sorts before the one above, none
// is wider than the gutter, and each is its label with parts left out.
// Below 18 cells, labels that read the same are allowed (a gutter of 8
// cannot tell 60 long keys apart); from 18, an 80-column terminal's
// gutter, there must be none.
func TestFitLabelsNeverInvertsRandomKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 14))
	words := []string{"acme", "globex", "planet-express", "pied-piper", "camera", "lock", "thermostat", "user", "zoe_smith", "alice_reyes"}
	for round := range 300 {
		set := map[string]bool{}
		for range 10 + rng.IntN(60) {
			var b strings.Builder
			for part := range 1 + rng.IntN(4) {
				if part > 0 {
					b.WriteByte('#')
				}
				switch rng.IntN(3) {
				case 0:
					b.WriteString(words[rng.IntN(len(words))])
				case 1:
					fmt.Fprintf(&b, "%06d", rng.IntN(3000))
				default:
					fmt.Fprintf(&b, "%d", 1793000000000+rng.Int64N(500000000))
				}
			}
			set[b.String()] = true
		}
		labels := make([]string, 0, len(set))
		for l := range set {
			labels = append(labels, l)
		}
		slices.Sort(labels)
		for width := 8; width <= widestGutter; width++ {
			got := fitLabels(labels, width)
			if !checkFitted(t, labels, got, width) {
				t.Fatalf("round %d, width %d: labels %q", round, width, labels)
			}
			if width >= 18 && ties(got) != 0 {
				t.Errorf("round %d, width %d: labels read the same: %q from %q", round, width, got, labels)
			}
		}
	}
}

// checkFitted reports (and marks the test failed) where fitted, labels
// cut to width, is wider than width, is not its label with parts left
// out, or sorts before the label above.
func checkFitted(t *testing.T, labels, fitted []string, width int) bool {
	t.Helper()
	ok := true
	for k, label := range fitted {
		if n := utf8.RuneCountInString(label); n > width {
			t.Errorf("width %d: %q is %d cells", width, label, n)
			ok = false
		}
		if !partsOf(label, labels[k]) {
			t.Errorf("width %d: %q is not %q with parts left out", width, label, labels[k])
			ok = false
		}
		if k > 0 && label < fitted[k-1] {
			t.Errorf("width %d: %q sorts before %q (uncut %q, %q)", width, label, fitted[k-1], labels[k], labels[k-1])
			ok = false
		}
	}
	return ok
}

// partsOf reports whether fitted is label with parts left out around
// "…": its pieces appear in label in order, the first at its start.
func partsOf(fitted, label string) bool {
	at := 0
	for i, piece := range strings.Split(fitted, "…") {
		j := strings.Index(label[at:], piece)
		if j < 0 || (i == 0 && j != 0) {
			return false
		}
		at += j + len(piece)
	}
	return true
}

// BenchmarkFitLabels_WebDomains fits 120 page labels of 12 hosts, each
// host's pages a run that must be cut in parts, to an 18-cell gutter.
func BenchmarkFitLabels_WebDomains(b *testing.B) {
	var labels []string
	for h := range 12 {
		for p := range 10 {
			labels = append(labels, fmt.Sprintf("host%02d.example.org/section/page%02d", h, p))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := fitLabels(labels, 18); ties(got) != 0 {
			b.Fatalf("labels read the same: %q", got)
		}
	}
}
