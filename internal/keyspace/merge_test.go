package keyspace

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/testkit/seeds"
)

// workloadOps returns a deterministic mix of calls over users of Zipf-like
// activity: point reads, writes, batches and short scans, a call every
// 10 ms from recStart.
func workloadOps(seed uint64, calls int) []Op {
	r := rand.New(rand.NewPCG(seed, 7))
	zipf := rand.NewZipf(r, 1.2, 1, 499)
	var ops []Op
	for i := range calls {
		at := recStart.Add(time.Duration(i) * 10 * time.Millisecond)
		user := fmt.Sprintf("user#%04d", zipf.Uint64())
		latency := time.Duration(200+r.IntN(800)) * time.Microsecond
		switch k := r.IntN(10); {
		case k < 5:
			key := Key(user + "#profile")
			ops = append(ops, Op{Time: at, Table: "t", Method: MethodReadRows, Keys: []Key{key}, RowsRead: []RowIO{{Key: key, Bytes: 120}}, Latency: latency})
		case k < 8:
			key := Key(fmt.Sprintf("%s#post#%06d", user, i))
			ops = append(ops, Op{Time: at, Table: "t", Method: MethodMutateRow, Keys: []Key{key}, RowsWritten: []RowIO{{Key: key, Bytes: 300}}, Latency: latency})
		case k < 9:
			var keys []Key
			var rows []RowIO
			for j := range 5 {
				key := Key(fmt.Sprintf("event#%06d#%d", i, j))
				keys, rows = append(keys, key), append(rows, RowIO{Key: key, Bytes: 50})
			}
			ops = append(ops, Op{Time: at, Table: "t", Method: MethodMutateRows, Keys: keys, RowsWritten: rows, Latency: 3 * latency})
		default:
			start := Key(user + "#post#")
			ops = append(ops, Op{Time: at, Table: "t", Method: MethodReadRows, Ranges: []KeyRange{{Start: start, End: Key(PrefixEnd(string(start)))}},
				RowsRead: []RowIO{{Key: start + "000001", Bytes: 300}}, CallRows: 1, Latency: 5 * latency})
		}
	}
	return ops
}

func record(ops []Op, nodes int) *Snapshot {
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{MaxNodes: nodes})
	for i := range ops {
		r.Add(&ops[i])
	}
	return r.Snapshot("t", recStart.Add(time.Duration(len(ops))*10*time.Millisecond))
}

// opsUnder sums the operations recorded under prefix: the nodes of the
// tree that lie inside it, at the shallowest depth.
func opsUnder(root *Node, prefix string) float64 {
	end := PrefixEnd(prefix)
	total := 0.0
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Traffic == nil || !overlaps(n, prefix, end) {
			return
		}
		if inside(string(n.Start), string(n.End), prefix, end) {
			total += n.Traffic.Ops
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	return total
}

// Three recorders, each seeing every third call of one workload (a
// service of three instances, a proxy beside each), merge to the counts
// one recorder of all the calls makes: table totals, methods, operations
// under each dataset, every time bucket, and the latency sketch of the
// table. Their trees differ where their node budgets merged keys
// differently.
func TestThreeRecordingsMergeToTheCountsOfOne(t *testing.T) {
	for _, budgets := range [][3]int{{4000, 4000, 4000}, {100, 200, 300}} {
		t.Run(fmt.Sprint(budgets), func(t *testing.T) { testThreeRecordingsMerge(t, budgets) })
	}
}

// testThreeRecordingsMerge merges three recordings made with the node
// budgets given: with room for every prefix, every prefix's operations
// are exact; with budgets that prune the trees differently, the totals,
// the datasets and the time grid are.
func testThreeRecordingsMerge(t *testing.T, budgets [3]int) {
	exact := budgets[0] == budgets[1] && budgets[1] == budgets[2]
	for _, seed := range seeds.Fresh(t, 3) {
		ops := workloadOps(seed, 6000)
		one := record(ops, budgets[2])
		var parts [3][]Op
		for i, op := range ops {
			parts[i%3] = append(parts[i%3], op)
		}
		var recordings []*Snapshot
		for i, p := range parts {
			recordings = append(recordings, record(p, budgets[i]))
		}
		merged, err := MergeRecordings(recordings, []string{"a.btviz", "b.btviz", "c.btviz"})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := *merged.TrafficTotals(), *one.TrafficTotals(); got != want {
			t.Errorf("seed %d: totals %+v, want %+v", seed, got, want)
		}
		if got, want := fmt.Sprint(merged.Traffic.Methods), fmt.Sprint(one.Traffic.Methods); got != want {
			t.Errorf("seed %d: methods %s, want %s", seed, got, want)
		}
		prefixes := []string{"user#", "event#"}
		if exact {
			// Every prefix each recorder kept as a node of its own (a
			// recorder that saw a third of a user's calls may merge it
			// into a range with its neighbours, as the fan-out bound
			// says, where another keeps it apart).
			merged.Root.Walk(func(n *Node) bool {
				if n.Kind != KindPrefix || n.Depth != 2 {
					return n.Depth < 2
				}
				for _, r := range append(recordings, one) {
					if r.Root.Lookup(string(n.Prefix)) == nil {
						return false
					}
				}
				prefixes = append(prefixes, string(n.Prefix))
				return false
			})
			if len(prefixes) < 10 {
				t.Fatalf("seed %d: only %d prefixes kept by every recorder", seed, len(prefixes))
			}
		}
		for _, prefix := range prefixes {
			if got, want := opsUnder(merged.Root, prefix), opsUnder(one.Root, prefix); math.Abs(got-want) > 1e-6 {
				t.Errorf("seed %d: %s operations %v, want %v", seed, prefix, got, want)
			}
		}
		mh, oh := &merged.Root.Traffic.Time.Ops, &one.Root.Traffic.Time.Ops
		if merged.Traffic.BucketMicros != one.Traffic.BucketMicros || mh.First != oh.First || fmt.Sprint(mh.Counts) != fmt.Sprint(oh.Counts) {
			t.Errorf("seed %d: the merged time grid differs from one recorder's", seed)
		}
		ml, ol := merged.Root.Traffic.Latency.Whole(), one.Root.Traffic.Latency.Whole()
		if ml.Count() != ol.Count() || ml.Median() != ol.Median() || ml.MaxNs != ol.MaxNs {
			t.Errorf("seed %d: merged latency %v calls, median %v; one recorder %v, %v", seed, ml.Count(), ml.Median(), ol.Count(), ol.Median())
		}
		if top, want := merged.Traffic.TopReads[0], one.Traffic.TopReads[0]; top.Key != want.Key || top.Count-top.Error > want.Count || top.Count < want.Count {
			t.Errorf("seed %d: hottest read %v (%v±%v), one recorder's %v (%v)", seed, top.Key, top.Count, top.Error, want.Key, want.Count)
		}
		if m := merged.Traffic.Merged; m == nil || m.Recordings != 3 || len(m.ClockOffsets) != 0 {
			t.Errorf("seed %d: merged %+v, want 3 recordings and no clock offset", seed, m)
		}
	}
}

// A recorder whose clock runs 5 s ahead draws its calls 5 s late; the
// merge keeps its times (wall-clock alignment) and notes the offset.
func TestMergeNotesARecordersClockOffset(t *testing.T) {
	// A load that rises and falls, so that the recordings' shapes tell
	// their offset.
	var ops []Op
	for s := range 60 {
		rate := 5 + int(20*math.Abs(math.Sin(float64(s)/6)))
		for j := range rate {
			at := recStart.Add(time.Duration(s)*time.Second + time.Duration(j)*time.Second/time.Duration(rate))
			key := Key(fmt.Sprintf("k#%d", j))
			ops = append(ops, Op{Time: at, Table: "t", Method: MethodReadRows, Keys: []Key{key}, RowsRead: []RowIO{{Key: key}}, Latency: time.Millisecond})
		}
	}
	var a, b, c []Op
	for i, op := range ops {
		switch i % 3 {
		case 0:
			a = append(a, op)
		case 1:
			b = append(b, op)
		default:
			op.Time = op.Time.Add(5 * time.Second)
			c = append(c, op)
		}
	}
	merged, err := MergeRecordings([]*Snapshot{record(a, 500), record(b, 500), record(c, 500)}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	offsets := merged.Traffic.Merged.ClockOffsets
	if len(offsets) != 1 || offsets[0].Name != "c" || offsets[0].Offset != 5*time.Second {
		t.Fatalf("clock offsets %+v, want c 5s ahead", offsets)
	}
	if text := offsets[0].Text(); !strings.Contains(text, "ahead") {
		t.Errorf("offset text %q", text)
	}
	if got := merged.TrafficTotals().Ops; got != float64(len(ops)) {
		t.Errorf("%v operations, want %d", got, len(ops))
	}
}

func TestMergeRefusesRecordingsOfTwoTables(t *testing.T) {
	a := record(workloadOps(1, 50), 100)
	b := a.Clone()
	b.Table = "other"
	_, err := MergeRecordings([]*Snapshot{a, b}, []string{"a", "b"})
	if !errors.Is(err, ErrDifferentTables) {
		t.Fatalf("merging two tables: %v", err)
	}
}

// The first call a recording sees on a table may be a scan answered in
// several messages: the rows of the messages before its end count too.
func TestAFirstScanCountsEveryRowItReturned(t *testing.T) {
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
	rows := []RowIO{{Key: "a#1", Bytes: 10}, {Key: "a#2", Bytes: 10}, {Key: "a#3", Bytes: 10}}
	r.Add(&Op{Time: recStart, Table: "t", Method: MethodReadRows, Part: true, RowsRead: rows[:1]})
	r.Add(&Op{Time: recStart, Table: "t", Method: MethodReadRows, Part: true, RowsRead: rows[1:2]})
	r.Add(&Op{Time: recStart, Table: "t", Method: MethodReadRows, Ranges: []KeyRange{{Start: "a#", End: "a$"}}, RowsRead: rows[2:], CallRows: 3})
	snap := r.Snapshot("t", recStart.Add(time.Second))
	if got := snap.TrafficTotals(); got.RowsRead != 3 || got.BytesRead != 30 || got.Scans != 1 {
		t.Errorf("totals %+v, want 3 rows read (30 bytes) by one scan", *got)
	}
	if calls := snap.Traffic.Methods; len(calls) != 1 || calls[0].Calls != 1 {
		t.Errorf("methods %+v, want one ReadRows call", calls)
	}
}

// A recording made before latencies were recorded merges with one that
// has them; the merge says whose calls the latencies are.
func TestMergeNotesARecordingWithoutLatencies(t *testing.T) {
	var ops []Op
	for i := range 200 {
		key := Key(fmt.Sprintf("k#%d", i%20))
		ops = append(ops, Op{Time: recStart.Add(time.Duration(i) * 100 * time.Millisecond), Table: "t", Method: MethodReadRows, Keys: []Key{key},
			RowsRead: []RowIO{{Key: key}}, Latency: time.Millisecond})
	}
	var before, after []Op // two recorders at once, one of them older
	for i, op := range ops {
		if i%2 == 0 {
			before = append(before, op)
		} else {
			after = append(after, op)
		}
	}
	old := record(before, 500)
	old.Root.Walk(func(n *Node) bool {
		if n.Traffic != nil {
			n.Traffic.Latency = nil
		}
		return true
	})
	merged, err := MergeRecordings([]*Snapshot{old, record(after, 500)}, []string{"old.btviz", "new.btviz"})
	if err != nil {
		t.Fatal(err)
	}
	notes := merged.Traffic.Merged.Notes
	if len(notes) != 1 || !strings.Contains(notes[0], "old.btviz holds no latencies") {
		t.Errorf("notes %q, want one naming old.btviz", notes)
	}
	if whole := merged.Root.Traffic.Latency.Whole(); whole.Count() != 100 {
		got := whole.Count()
		t.Errorf("merged latencies count %v calls, want the 100 of new.btviz", got)
	}
}
