package keyspace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/testkit/seeds"
)

// latencies draws n latencies of a mix of shapes: log-normal around
// 300 µs, a slow mode around 20 ms, and a few outliers of seconds.
func latencies(r *rand.Rand, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		switch u := r.Float64(); {
		case u < 0.8:
			out[i] = time.Duration(300e3 * math.Exp(0.5*r.NormFloat64()))
		case u < 0.99:
			out[i] = time.Duration(20e6 * math.Exp(0.3*r.NormFloat64()))
		default:
			out[i] = time.Duration(1e9 * (1 + r.Float64()))
		}
	}
	return out
}

func sketchOf(values []time.Duration, bins int) LatencySketch {
	var s LatencySketch
	for _, v := range values {
		s.add(LatencyIndex(v), 1, float64(v), bins)
	}
	return s
}

// exactQuantile is the value of rank ⌈q·n⌉ (1-based), the one a sketch's
// quantile estimates.
func exactQuantile(values []time.Duration, q float64) time.Duration {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	k := max(int(math.Ceil(q*float64(len(sorted))-1e-9)), 1)
	return sorted[k-1]
}

// The error bound is a guarantee of the sketch, not a statistical claim:
// every quantile lies within the sketch's relative error of the value of
// its rank, for any data. Fresh seeds draw new data every run.
func TestLatencySketchQuantilesWithinTheirBound(t *testing.T) {
	for _, seed := range seeds.Fresh(t, 20) {
		r := rand.New(rand.NewPCG(seed, 1))
		values := latencies(r, 1+r.IntN(5000))
		for _, bins := range []int{LatencyCellBins, LatencyWholeBins} {
			s := sketchOf(values, bins)
			if len(s.Counts) > bins {
				t.Fatalf("seed %d: %d bins, more than %d", seed, len(s.Counts), bins)
			}
			if got := s.Count(); got != float64(len(values)) {
				t.Fatalf("seed %d: %v calls, want %d", seed, got, len(values))
			}
			alpha := s.RelativeError()
			for _, q := range []float64{0.01, 0.25, 0.5, 0.9, 0.99, 1} {
				want := float64(exactQuantile(values, q))
				got := float64(s.Quantile(q))
				if math.Abs(got-want) > alpha*want*(1+1e-9) {
					t.Errorf("seed %d, %d bins: quantile %v = %v, want %v within %.2f%%", seed, bins, q, time.Duration(got), time.Duration(want), 100*alpha)
				}
			}
			if s.Max() != slices.Max(values) {
				t.Errorf("seed %d: max %v, want %v", seed, s.Max(), slices.Max(values))
			}
		}
	}
}

// Merging the sketches of parts gives the sketch of the whole, and
// subtracting a part from the whole gives the sketch of the rest, at the
// level the bins bring them to: counts per bin are exact.
func TestLatencySketchMergesAndSubtracts(t *testing.T) {
	for _, seed := range seeds.Fresh(t, 10) {
		r := rand.New(rand.NewPCG(seed, 2))
		a, b := latencies(r, 1+r.IntN(2000)), latencies(r, 1+r.IntN(2000))
		whole := sketchOf(append(slices.Clone(a), b...), LatencyWholeBins)
		merged := sketchOf(a, LatencyWholeBins)
		sb := sketchOf(b, LatencyWholeBins)
		merged.Merge(&sb, LatencyWholeBins)
		level := max(whole.Level, merged.Level)
		whole.toLevel(level)
		merged.toLevel(level)
		whole.trim()
		merged.trim()
		if whole.Offset != merged.Offset || !slices.Equal(whole.Counts, merged.Counts) || whole.MaxNs != merged.MaxNs {
			t.Fatalf("seed %d: merged sketch differs from the sketch of the union", seed)
		}
		rest := whole.clone()
		sa := sketchOf(a, LatencyWholeBins)
		rest.subtract(&sa)
		wantRest := sketchOf(b, LatencyWholeBins)
		wantRest.toLevel(rest.Level)
		wantRest.trim()
		rest.toLevel(wantRest.Level)
		if rest.Offset != wantRest.Offset || !slices.Equal(rest.Counts, wantRest.Counts) {
			t.Fatalf("seed %d: whole minus a is not b: %d%v against %d%v", seed, rest.Offset, rest.Counts, wantRest.Offset, wantRest.Counts)
		}
	}
}

// A recording folds each call's latency into the nodes it touched, once
// per node, by kind and by time bucket.
func TestAddOpKeepsLatencyPerNodeOncePerCall(t *testing.T) {
	b := NewBuilder(&Snapshot{Table: "t", Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true}}, Options{Delimiters: "#"})
	start := time.Unix(1_800_000_000, 0)
	for i := range 200 {
		key := Key("user#slow#" + string(rune('a'+i%26)))
		latency := 40 * time.Millisecond
		if i%2 == 1 {
			key = Key("user#fast#" + string(rune('a'+i%26)))
			latency = time.Millisecond
		}
		b.AddOp(&Op{Time: start.Add(time.Duration(i) * 10 * time.Millisecond), Table: "t", Method: MethodReadRows, Keys: []Key{key}, Latency: latency})
	}
	// One batch of 3 rows under one prefix counts once there.
	b.AddOp(&Op{Time: start, Table: "t", Method: MethodMutateRows, Keys: []Key{"user#fast#x", "user#fast#y", "user#fast#z"},
		RowsWritten: []RowIO{{Key: "user#fast#x"}, {Key: "user#fast#y"}, {Key: "user#fast#z"}}, Latency: 5 * time.Millisecond})
	snap := b.Snapshot()
	root := snap.Root.Traffic.Latency
	if got := root.Kind(CallPointRead).Count(); got != 200 {
		t.Errorf("root point reads: %v, want 200", got)
	}
	if got := root.Kind(MethodMutateRows).Count(); got != 1 {
		t.Errorf("root MutateRows calls: %v, want 1", got)
	}
	slow := snap.Root.Lookup("user#slow#")
	fast := snap.Root.Lookup("user#fast#")
	if slow == nil || fast == nil {
		t.Fatal("the tree has no user#slow# or user#fast# node")
	}
	sl, fl := slow[len(slow)-1].Traffic.Latency, fast[len(fast)-1].Traffic.Latency
	if got := fl.Kind(MethodMutateRows).Count(); got != 1 {
		t.Errorf("user#fast# counts the batch %v times, want once", got)
	}
	med := sl.Kind(CallPointRead).Median()
	if math.Abs(float64(med-40*time.Millisecond)) > 0.02*float64(40*time.Millisecond) {
		t.Errorf("user#slow# median %v, want 40ms", med)
	}
	whole := root.Whole()
	if whole.Count() != 201 {
		t.Errorf("root counts %v calls, want 201", whole.Count())
	}
	cells := 0.0
	for j := range root.Time.Cells {
		cells += root.Time.Cells[j].Count()
		if root.Time.Cells[j].Empty() || j > 0 && root.Time.Cells[j].Bucket <= root.Time.Cells[j-1].Bucket {
			t.Errorf("cell %d: empty or out of order", j)
		}
	}
	if cells != 201 {
		t.Errorf("root's time cells count %v calls, want 201", cells)
	}
}

// TestKeylessCallsOutsideTheCountsReadBack: a client asks SampleRowKeys
// before it reads (btviz report through the proxy does), and the call
// names no key, so its latency lands in a cell of time before any count.
// The file reads back, alone and merged with a recording of other times,
// wherever the grid's cells fall (a CI run once wrote a file it refused
// when the first read came one cell after the SampleRowKeys).
func TestKeylessCallsOutsideTheCountsReadBack(t *testing.T) {
	width := time.Duration(initialTrafficBucketMicros) * time.Microsecond
	cell := LatencyCellBuckets * width
	recordAt := func(started time.Time) *Recording {
		r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: started, Delimiters: "#"}, Options{})
		r.Add(&Op{Time: started, Table: "t", Method: MethodSampleRowKeys, Latency: time.Millisecond})
		for i := range 5 {
			key := Key(fmt.Sprintf("user#%d", i))
			r.Add(&Op{Time: started.Add(cell + time.Duration(i)*width), Table: "t", Method: MethodReadRows, Keys: []Key{key},
				RowsRead: []RowIO{{Key: key, Bytes: 40}}, Latency: 2 * time.Millisecond})
		}
		// And one after the last read, a cell later.
		r.Add(&Op{Time: started.Add(3 * cell), Table: "t", Method: MethodSampleRowKeys, Latency: time.Millisecond})
		return r.Recording(started.Add(4*cell), true)
	}
	var parts []*Snapshot
	for _, started := range []time.Time{recStart, recStart.Add(width), recStart.Add(3 * width), recStart.Add(90 * width)} {
		file := roundTrip(t, recordAt(started))
		snap := file.Recording.Table("t")
		first, last, _ := snap.Root.Traffic.Latency.Time.Span()
		counted, _, _ := snap.Root.Traffic.span()
		if first*LatencyCellBuckets >= counted || last-first < 3 {
			t.Errorf("started %v: latency cells [%d, %d), counts from bucket %d; want a cell before the counts and three or more cells",
				started, first, last, counted)
		}
		parts = append(parts, snap)
	}
	merged, err := MergeRecordings(parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := recordAt(recStart)
	rec.Tables = []*Snapshot{merged}
	whole := roundTrip(t, rec).Recording.Table("t").Root.Traffic.Latency.Whole()
	if got := whole.Count(); got != 4*7 {
		t.Errorf("the merged recording holds %v calls' latencies, want %d", got, 4*7)
	}
}
