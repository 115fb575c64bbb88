package sampler

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

func TestRangesFromSamples(t *testing.T) {
	for _, tc := range []struct {
		name    string
		samples []keySample
		want    []keyspace.Range
	}{
		{"empty table", []keySample{{"", 0}}, []keyspace.Range{{Start: "", End: "", SampledBytes: 0}}},
		{"no samples at all", nil, []keyspace.Range{{}}},
		{
			// bttest: the offset sent with a key counts the rows before it;
			// the last row is always a sample; the empty key has the total.
			"emulator", []keySample{{"b", 10}, {"d", 30}, {"f", 35}, {"", 50}},
			[]keyspace.Range{{Start: "", End: "b", SampledBytes: 10}, {Start: "b", End: "d", SampledBytes: 20},
				{Start: "d", End: "f", SampledBytes: 5}, {Start: "f", End: "", SampledBytes: 15}},
		},
		{
			"repeated key", []keySample{{"b", 10}, {"b", 10}, {"", 30}},
			[]keyspace.Range{{Start: "", End: "b", SampledBytes: 10}, {Start: "b", End: "", SampledBytes: 20}},
		},
		{
			"no end-of-table sample", []keySample{{"b", 10}},
			[]keyspace.Range{{Start: "", End: "b", SampledBytes: 10}, {Start: "b", End: ""}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := toRanges(spansFromSamples(tc.samples)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestClipRanges(t *testing.T) {
	spans := []span{{start: "", end: "b", bytes: 1}, {start: "b", end: "d", bytes: 2}, {start: "d", end: "", bytes: 3}}
	ranges := toRanges(spans)
	for _, tc := range []struct {
		start, end string
		want       []keyspace.Range
	}{
		{"", "", ranges},
		{"b", "d", []keyspace.Range{{Start: "b", End: "d", SampledBytes: 2}}},
		{"a", "c", []keyspace.Range{{Start: "a", End: "b", SampledBytes: 1}, {Start: "b", End: "c", SampledBytes: 2}}},
		{"c", "", []keyspace.Range{{Start: "c", End: "d", SampledBytes: 2}, {Start: "d", End: "", SampledBytes: 3}}},
		{"", "a", []keyspace.Range{{Start: "", End: "a", SampledBytes: 1}}},
		{"x", "y", []keyspace.Range{{Start: "x", End: "y", SampledBytes: 3}}},
	} {
		if got := toRanges(clipSpans(slices.Clone(spans), tc.start, tc.end)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("clip to [%q, %q) = %+v, want %+v", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestMergeRangesKeepsByteJumpsApart(t *testing.T) {
	var spans []span
	keys := "abcdefghijklmnopqrstuvwxyz"
	for i := 0; i < len(keys); i++ {
		end := ""
		if i+1 < len(keys) {
			end = keys[i+1 : i+2]
		}
		bytes := int64(10)
		if keys[i] == 'm' {
			bytes = 10000 // an oversized row
		}
		spans = append(spans, span{start: keys[i : i+1], end: end, bytes: bytes})
	}
	spans[0].start = ""
	merged := toRanges(mergeSpans(spans, 5))
	if len(merged) > 10 || len(merged) < 4 {
		t.Fatalf("merged 26 ranges into %d, want about 5", len(merged))
	}
	var total int64
	for i, r := range merged {
		total += r.SampledBytes
		if i > 0 && r.Start != merged[i-1].End {
			t.Fatalf("gap between %v and %v", merged[i-1].End, r.Start)
		}
		if r.Start == "m" && (r.End != "n" || r.SampledBytes != 10000) {
			t.Fatalf("the byte jump was merged: %+v", r)
		}
	}
	if total != 25*10+10000 || merged[0].Start != "" || merged[len(merged)-1].End != "" {
		t.Fatalf("merged ranges lost bytes or ends: %+v", merged)
	}
}

func TestCoalesceAndBudgets(t *testing.T) {
	sizes := make([]int64, 100)
	for i := range sizes {
		sizes[i] = 1000
	}
	units := coalesce(sizes, 100_000, 2)
	if len(units) < 8 || len(units) > 13 {
		t.Fatalf("%d units for 100 equal ranges and 2 workers, want about 8", len(units))
	}
	next := 0
	for _, u := range units {
		if u.first != next || u.last <= u.first {
			t.Fatalf("units %+v do not tile the ranges", units)
		}
		next = u.last
	}
	if next != 100 {
		t.Fatalf("units end at %d", next)
	}
	limits := rowBudgets([]keyspace.Range{{SampledBytes: 300}, {SampledBytes: 100}, {SampledBytes: 0}}, 400, 1000)
	if !reflect.DeepEqual(limits, []int64{750, 250, 1}) {
		t.Fatalf("budgets %v", limits)
	}
}

func TestUnexplainedBytes(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		estimate int64
		seen     float64
		want     bool
	}{
		{200 * mb, 0, true},         // a big range the sample saw nothing of
		{60 * mb, 0, false},         // too small to matter
		{200 * mb, 60 * mb, false},  // within the ratio
		{1000 * mb, 200 * mb, true}, // 5× and 800 MB unexplained
		{300 * mb, 250 * mb, false}, // close enough
		{100 * mb, 1 * mb, true},    // 99 MB unexplained
		{70 * mb, 10 * mb, false},   // 60 MB unexplained: under the floor
	} {
		if got := unexplained(tc.estimate, tc.seen, rescanFloor(1<<40)); got != tc.want {
			t.Errorf("unexplained(%d MB, %.0f MB) = %v", tc.estimate/mb, tc.seen/mb, got)
		}
	}
	// In a small table the floor is a twentieth of it: a 100 KB row in a
	// 1.5 MB table is worth a re-read, its ordinary ranges are not.
	const kb = 1000
	floor := rescanFloor(1500 * kb)
	for _, tc := range []struct {
		estimate int64
		seen     float64
		want     bool
	}{
		{112 * kb, 12 * kb, true},
		{12 * kb, 0, false},
		{112 * kb, 90 * kb, false},
	} {
		if got := unexplained(tc.estimate, tc.seen, floor); got != tc.want {
			t.Errorf("small table: unexplained(%d kB, %.0f kB) = %v", tc.estimate/kb, tc.seen/kb, got)
		}
	}
	if w := budgetWeight(100, 100, 5000, 1000); w != 5 {
		t.Errorf("budget weight %v, want 5", w)
	}
	if w := budgetWeight(40, 100, 5000, 1000); w != 1 {
		t.Errorf("a range read in full weighs %v", w)
	}
}

func TestDefaultModeSamplesSpansOfABigEmulatorTable(t *testing.T) {
	// 30,000 emulator spans are about 3M rows: over the 2M-row limit of
	// the default mode, which samples two thirds of them.
	spans := emulatorSpans(30_000, 40, 9)
	p := newPlan(spans, mapShape{measured: true, rowBytes: 40}, Options{Concurrency: 2})
	if !p.mode.IsSample() || p.method != keyspace.MethodSpans || p.spans == nil || len(p.calls) == 0 || len(p.units) != 0 {
		t.Fatalf("mode %s method %q, %d calls, %d units", p.mode, p.method, len(p.calls), len(p.units))
	}
	if !strings.Contains(p.reason, "sample of key spans (stratified): the range holds about 3M rows") {
		t.Fatalf("reason %q", p.reason)
	}
	if p.fraction < 0.6 || p.fraction > 0.75 {
		t.Fatalf("fraction %v, want about 2/3", p.fraction)
	}
	// The ranges tile the spans, each of whole groups, and every read
	// belongs to one of them.
	if len(p.ranges) < emulatorRangeTarget/2 || len(p.ranges) > 2*emulatorRangeTarget || p.ranges[0].Start != "" || p.ranges[len(p.ranges)-1].End != "" {
		t.Fatalf("%d ranges from %q to %q", len(p.ranges), p.ranges[0].Start, p.ranges[len(p.ranges)-1].End)
	}
	reads := 0
	for i, left := range p.readsLeft {
		if left == 0 {
			t.Fatalf("range %d has nothing to read", i)
		}
		reads += left
	}
	calls := 0
	for _, call := range p.calls {
		calls += len(call)
	}
	if reads != len(p.spans.readIndexes) || calls != reads {
		t.Fatalf("%d reads in the ranges, %d in the calls, %d planned", reads, calls, len(p.spans.readIndexes))
	}
	// Spans that are tablets are sampled at positions inside each, one
	// read task a tablet, every tablet a range.
	cloud := newPlan(spans, mapShape{measured: true, tablets: true, rowBytes: 40}, Options{Fraction: 0.05, Concurrency: 8})
	if cloud.method != keyspace.MethodPositions || cloud.spans != nil || len(cloud.calls) != 0 || len(cloud.ranges) != len(spans) || len(cloud.units) != len(spans) {
		t.Fatalf("tablets plan: method %q, %d calls, %d ranges, %d units", cloud.method, len(cloud.calls), len(cloud.ranges), len(cloud.units))
	}
}

// TestJudgeTakesCloudSpansForTablets checks the map's judgement: 50
// tablets of 100 MB holding 500 KB rows (200 rows each, half tabletRows)
// are tablets from Cloud Bigtable, which answers nothing else, and row
// samples from an emulator; an emulator's spans of 100 small rows are
// samples and its tablet-sized pieces (internal/emulator/cloudlike) tablets.
func TestJudgeTakesCloudSpansForTablets(t *testing.T) {
	spansOf := func(n int, bytes int64) []span {
		spans := make([]span, n)
		for i := range spans {
			spans[i] = span{bytes: bytes}
		}
		return spans
	}
	for _, tc := range []struct {
		name     string
		spans    []span
		rowBytes float64
		emulator bool
		want     bool
	}{
		{"cloud, 500 KB rows", spansOf(50, 100<<20), 500 << 10, false, true},
		{"emulator, 500 KB rows", spansOf(50, 100<<20), 500 << 10, true, false},
		{"emulator, its own samples", spansOf(50, 100*120), 120, true, false},
		{"emulator answering tablets", spansOf(50, 40000*120), 120, true, true},
		{"cloud, no bytes seen", spansOf(50, 0), 0, false, true},
		{"emulator, no bytes seen", spansOf(50, 0), 0, true, false},
	} {
		shape := mapShape{typicalRowBytes: tc.rowBytes}
		shape.judge(tc.spans, tc.emulator)
		if shape.tablets != tc.want {
			t.Errorf("%s: tablets %v, want %v", tc.name, shape.tablets, tc.want)
		}
	}
}
