package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// emulatorSpans returns n spans as an emulator's SampleRowKeys makes
// them: a geometric number of rows (mean 100) each, of rowBytes value
// bytes per row, with keys k00000000….
func emulatorSpans(n int, rowBytes int64, seed uint64) []span {
	rng := rand.New(rand.NewPCG(seed, 1))
	spans := make([]span, n)
	for i := range spans {
		rows := int64(1)
		for rng.IntN(emulatorSampleEvery) != 0 {
			rows++
		}
		spans[i] = span{start: fmt.Sprintf("k%08d", i), end: fmt.Sprintf("k%08d", i+1), bytes: rows * rowBytes}
	}
	spans[0].start, spans[n-1].end = "", ""
	return spans
}

// planSpans runs a planner over spans and returns it with its calls.
func planSpans(spans []span, fraction float64, seed uint64) (*spanPlanner, []spanRead) {
	var calls []spanRead
	p := newSpanPlanner(fraction, seed, "", func(call spanRead) { calls = append(calls, call) })
	for _, s := range spans {
		p.add(s)
	}
	p.finish()
	return p, calls
}

func TestSpanPlannerReadsOneSpanPerGroup(t *testing.T) {
	spans := emulatorSpans(10_000, 8, 1)
	p, calls := planSpans(spans, 0.05, 7)
	// A span drawn by size from 39 holds 39/20 typical spans: groups of
	// 39 read 5% of the rows. The last 16 spans join the group before.
	if p.k != 39 || p.groups != 256 || !p.usable() {
		t.Fatalf("k %d, %d groups, usable %v; want 39, 256, true", p.k, p.groups, p.usable())
	}
	var reads []readSpan
	for _, call := range calls {
		if len(call) == 0 || len(call) > spansPerRead {
			t.Fatalf("a call of %d spans", len(call))
		}
		for i := 1; i < len(call); i++ {
			if call[i].index <= call[i-1].index {
				t.Fatalf("call not in key order: %+v", call)
			}
		}
		reads = append(reads, call...)
	}
	// An ordinary span is very rarely 16 times the median of its
	// neighbours (about one in 20,000 on an emulator).
	if len(reads) != p.groups+p.certain || p.certain > 2 {
		t.Fatalf("%d reads for %d groups and %d certain spans (want about none among even spans)", len(reads), p.groups, p.certain)
	}
	// Every block (a group of 39 consecutive spans and any certain span
	// among them) has exactly one chosen span, and the estimate
	// gives back the group's bytes exactly.
	var total, estimated float64
	for _, s := range spans {
		total += float64(s.bytes)
	}
	perBlock := make([]int, len(p.blockEnds))
	for _, r := range reads {
		estimated += r.weight * float64(r.bytes)
		if !r.certain {
			block, _ := slices.BinarySearch(p.blockEnds, r.index+1)
			perBlock[block]++
		}
	}
	for b, n := range perBlock {
		if n != 1 {
			t.Fatalf("block %d has %d chosen spans", b, n)
		}
	}
	if math.Abs(estimated-total) > 1e-6*total {
		t.Fatalf("estimated %.0f bytes, spans hold %.0f", estimated, total)
	}
	// About 5% of the bytes (and rows) are read: 250 draws by size from
	// geometric spans make that good to about ±5%.
	if share := p.share(); share < 0.042 || share > 0.058 {
		t.Fatalf("share of the bytes read %v, want about 0.05", share)
	}
	// The blocks tile the spans.
	blocks := p.blocks()
	if len(blocks) != 256 || blocks[0].start != "" || blocks[len(blocks)-1].end != "" {
		t.Fatalf("%d blocks from %q to %q", len(blocks), blocks[0].start, blocks[len(blocks)-1].end)
	}
	for i := 1; i < len(blocks); i++ {
		if blocks[i].start != blocks[i-1].end {
			t.Fatalf("blocks %d and %d do not meet", i-1, i)
		}
	}
}

func TestSpanPlannerIsDeterministic(t *testing.T) {
	spans := emulatorSpans(5_000, 40, 2)
	_, a := planSpans(spans, 0.1, 42)
	_, b := planSpans(spans, 0.1, 42)
	_, c := planSpans(spans, 0.1, 43)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("equal seeds chose different spans")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds chose the same spans")
	}
}

func TestSpanPlannerReadsOversizedSpansInFull(t *testing.T) {
	spans := emulatorSpans(8_000, 40, 3)
	// An oversized row, early (inside the first window) and late; and a
	// 5,000-version row of 42-byte readings: about 210 KB among spans of
	// ~4 KB.
	spans[5].bytes += 150 << 20
	spans[6_000].bytes += 5_000 * 42
	_, calls := planSpans(spans, 0.05, 1)
	var certain []int
	for _, call := range calls {
		for _, r := range call {
			if r.certain {
				certain = append(certain, r.index)
				if r.weight != 1 {
					t.Errorf("certain span %d weighs %v", r.index, r.weight)
				}
			}
		}
	}
	if !slices.Contains(certain, 5) || !slices.Contains(certain, 6_000) || len(certain) > 3 {
		t.Fatalf("certain spans %v, want 5 and 6000", certain)
	}
	// The groups around them estimate their own bytes without them.
	var estimated, total float64
	for _, call := range calls {
		for _, r := range call {
			estimated += r.weight * float64(r.bytes)
		}
	}
	for _, s := range spans {
		total += float64(s.bytes)
	}
	if math.Abs(estimated-total) > 1e-6*total {
		t.Fatalf("estimated %.0f bytes, spans hold %.0f", estimated, total)
	}
}

func TestSpanPlannerCapsCertainSpans(t *testing.T) {
	// Every fourth span is huge: far above the median, but reading them
	// all would read a quarter of the table.
	spans := emulatorSpans(8_000, 40, 4)
	for i := range spans {
		if i%4 == 0 {
			spans[i].bytes *= 1000
		}
	}
	p, _ := planSpans(spans, 0.05, 1)
	if limit := p.certainCap(len(spans) - 1); p.certain < limit-1 || p.certain > limit {
		t.Fatalf("%d certain spans, want the cap %d", p.certain, limit)
	}
	// A table of uniformly large rows has no outliers at all.
	p, _ = planSpans(emulatorSpans(8_000, 1<<20, 5), 0.05, 1)
	if p.certain != 0 {
		t.Fatalf("%d certain spans in a table of even rows", p.certain)
	}
}

func TestSpanPlannerCutAndEmptySpans(t *testing.T) {
	spans := emulatorSpans(4_000, 0, 6) // keys-only rows: no bytes
	spans[0].cut, spans[len(spans)-1].cut = true, true
	p, calls := planSpans(spans, 0.25, 1)
	byIndex := make(map[int]readSpan)
	for _, call := range calls {
		for _, r := range call {
			byIndex[r.index] = r
		}
	}
	first, last := byIndex[0], byIndex[len(spans)-1]
	if !first.certain || !last.certain || first.weight != 1 || last.weight != 1 {
		t.Fatalf("cut spans read as %+v and %+v, want weight 1", first, last)
	}
	// The 3,998 uncut spans make 570 groups of 7 and, the last span
	// joining the group before it, one of 8.
	for _, r := range byIndex {
		want := 7.0
		if r.index >= 3_991 {
			want = 8
		}
		if !r.certain && r.weight != want {
			t.Fatalf("span %d of a group without bytes weighs %v, want its %v spans", r.index, r.weight, want)
		}
	}
	if p.groups != 571 {
		t.Fatalf("%d groups of %d spans", p.groups, len(spans)-2)
	}
}

func TestSpanPlannerNeedsEnoughGroups(t *testing.T) {
	for _, tc := range []struct {
		spans    int
		fraction float64
		usable   bool
		why      string
	}{
		{200, 0.05, false, "5 groups of 39"},     // the demo's 20k-row tables
		{7_761, 0.05, false, "199 groups of 39"}, // one short
		{7_800, 0.05, true, ""},                  // 200 groups
		{2_000, 0.2, true, ""},                   // 223 groups of 9
		{100_000, 0.7, true, ""},                 // groups of 2
		{100_000, 0.9, false, "every key span"},  // groups of 1
		{100_000, minDefaultFraction, false, "50 groups of 1999"},
	} {
		t.Run(fmt.Sprintf("%d spans at %v", tc.spans, tc.fraction), func(t *testing.T) {
			p, _ := planSpans(emulatorSpans(tc.spans, 8, 7), tc.fraction, 1)
			if p.usable() != tc.usable || (!tc.usable && !strings.Contains(p.whyNot(), tc.why)) {
				t.Fatalf("usable %v (%d groups of %d), why not %q", p.usable(), p.groups, p.k, p.whyNot())
			}
		})
	}
}

func TestSpanSplitterMarksCuts(t *testing.T) {
	samples := []keySample{{"b", 10}, {"d", 30}, {"f", 35}, {"", 50}}
	for _, tc := range []struct {
		start, end string
		want       []span
	}{
		{"", "", []span{{start: "", end: "b", bytes: 10}, {start: "b", end: "d", bytes: 20}, {start: "d", end: "f", bytes: 5}, {start: "f", end: "", bytes: 15}}},
		{"c", "e", []span{{start: "c", end: "d", bytes: 20, cut: true, wholeStart: "b", wholeEnd: "d"}, {start: "d", end: "e", bytes: 5, cut: true, wholeStart: "d", wholeEnd: "f"}}},
		{"b", "f", []span{{start: "b", end: "d", bytes: 20}, {start: "d", end: "f", bytes: 5}}},
		{"x", "", []span{{start: "x", end: "", bytes: 15, cut: true, wholeStart: "f"}}},
	} {
		if got := splitSamples(samples, tc.start, tc.end); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("[%q, %q): %+v, want %+v", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestSpanPlannerNeverGroupsAcrossAPrefixBoundary(t *testing.T) {
	// Five top-level prefixes; the span holding the b#|c# boundary is
	// also far larger than its neighbours.
	spans := emulatorSpans(6_000, 8, 10)
	for i := range spans {
		prefix := string(rune('a' + i*5/len(spans)))
		if i > 0 {
			spans[i].start = fmt.Sprintf("%s#%07d", prefix, i)
			spans[i-1].end = spans[i].start
		}
	}
	boundary := 0
	for i := 1; i < len(spans); i++ {
		if spans[i].start[0] == 'c' {
			boundary = i - 1
			break
		}
	}
	spans[boundary].bytes = 1 << 20
	p, calls := planSpans(spans, 0.05, 3)
	if !p.aligned || p.boundaries != 4 {
		t.Fatalf("aligned %v, %d boundaries, want 4", p.aligned, p.boundaries)
	}
	weightOf := make(map[int]float64)
	for _, call := range calls {
		for _, r := range call {
			weightOf[r.index] = r.weight
		}
	}
	if w, ok := weightOf[boundary]; !ok || w != 1 {
		t.Fatalf("the boundary span is read with weight %v (read: %v), want 1", w, ok)
	}
	// Every block's groups hold spans of one prefix only (the block's
	// whole spans, read for themselves, aside).
	first := 0
	for _, end := range p.blockEnds {
		prefixes := make(map[byte]bool)
		for i := first; i < end; i++ {
			if _, whole := weightOf[i]; whole && weightOf[i] == 1 {
				continue
			}
			start := p.spans[i].start
			if start == "" {
				start = "a"
			}
			prefixes[start[0]] = true
		}
		if len(prefixes) > 1 {
			t.Fatalf("block [%d, %d) groups spans of prefixes %v", first, end, prefixes)
		}
		first = end
	}
}
