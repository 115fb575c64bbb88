package keyspace

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var recStart = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// opAt returns an op at second s of the recording.
func opAt(s float64, method string) Op {
	return Op{Time: recStart.Add(time.Duration(s * float64(time.Second))), Table: "t", Method: method}
}

func rows(keys ...string) []RowIO {
	out := make([]RowIO, len(keys))
	for i, k := range keys {
		out[i] = RowIO{Key: Key(k), Bytes: 100}
	}
	return out
}

func keys(ks ...string) []Key {
	out := make([]Key, len(ks))
	for i, k := range ks {
		out[i] = Key(k)
	}
	return out
}

// recordOps builds one table's recording from ops.
func recordOps(t *testing.T, ops []Op) *Snapshot {
	t.Helper()
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
	for i := range ops {
		r.Add(&ops[i])
	}
	snap := r.Snapshot("t", recStart.Add(time.Minute))
	if snap == nil {
		t.Fatal("no table recorded")
	}
	return snap
}

func trafficOf(t *testing.T, snap *Snapshot, prefix string) *NodeTraffic {
	t.Helper()
	path := snap.Root.Lookup(prefix)
	if path == nil {
		t.Fatalf("no node %q", prefix)
	}
	n := path[len(path)-1]
	if n.Traffic == nil {
		t.Fatalf("node %q has no traffic", prefix)
	}
	return n.Traffic
}

// TestAddOpCountsEveryOperationExactly pins the accounting of AddOp.
func TestAddOpCountsEveryOperationExactly(t *testing.T) {
	var ops []Op
	// 3 point reads of one hot user's row, one of them returning it.
	for i := range 3 {
		op := opAt(float64(i), MethodReadRows)
		op.Keys = keys("user#hot#profile")
		if i == 0 {
			op.RowsRead = rows("user#hot#profile")
		}
		ops = append(ops, op)
	}
	// A scan of user#hot# returning two rows: a part, then the call.
	part := opAt(3, MethodReadRows)
	part.Part, part.RowsRead = true, rows("user#hot#a")
	scan := opAt(3, MethodReadRows)
	scan.Ranges = []KeyRange{{Start: "user#hot#", End: "user#hot$"}}
	scan.RowsRead, scan.CallRows = rows("user#hot#b"), 2
	ops = append(ops, part, scan)
	// A batch writing two users, one entry refused.
	batch := opAt(4, MethodMutateRows)
	batch.Keys = keys("user#ann#1", "user#bob#1", "user#cat#1")
	batch.RowsWritten = rows("user#ann#1", "user#bob#1")
	ops = append(ops, batch)
	// A failed call.
	bad := opAt(5, MethodMutateRow)
	bad.Keys, bad.Code = keys("user#ann#2"), 3
	ops = append(ops, bad)
	// A full-table scan.
	full := opAt(6, MethodReadRows)
	full.Ranges = []KeyRange{{}}
	ops = append(ops, full)

	snap := recordOps(t, ops)
	root := snap.Root.Traffic
	want := OpCounts{Ops: 3 + 1 + 3 + 1 + 1, PointReads: 3, Scans: 2, RowsRead: 3, BytesRead: 300, RowsWritten: 2, BytesWritten: 200}
	if root.OpCounts != want {
		t.Errorf("table totals %+v, want %+v", root.OpCounts, want)
	}
	hot := trafficOf(t, snap, "user#hot#")
	if wantHot := (OpCounts{Ops: 4, PointReads: 3, Scans: 1, RowsRead: 3, BytesRead: 300}); hot.OpCounts != wantHot {
		t.Errorf("user#hot# %+v, want %+v", hot.OpCounts, wantHot)
	}
	// A prefix scan of a user no row of which was touched yet is counted
	// at the user's node.
	early := opAt(7, MethodReadRows)
	early.Ranges = []KeyRange{{Start: "user#eve#", End: "user#eve$"}}
	withEve := recordOps(t, append(ops, early))
	if eve := trafficOf(t, withEve, "user#eve#"); eve.Scans != 1 {
		t.Errorf("user#eve#: %+v", eve.OpCounts)
	}
	if users := trafficOf(t, withEve, "user#"); users.Scans != 2 || users.Ops != 9 {
		t.Errorf("user# has %v scans and %v ops: the full-table scan belongs to the root only", users.Scans, users.Ops)
	}
	if ann := trafficOf(t, snap, "user#ann#"); ann.Ops != 2 || ann.RowsWritten != 1 {
		t.Errorf("user#ann#: %+v", ann.OpCounts)
	}
	methods := map[string]MethodCount{}
	for _, m := range snap.Traffic.Methods {
		methods[m.Method] = m
	}
	if methods[MethodReadRows].Calls != 5 || methods[MethodMutateRows].Calls != 1 || methods[MethodMutateRow].Errors != 1 {
		t.Errorf("method counts %+v: the part must not count as a call", snap.Traffic.Methods)
	}
	if got := snap.Traffic.TopReads; len(got) == 0 || got[0].Key != "user#hot#profile" || got[0].Count != 3 {
		t.Errorf("hottest read row %+v, want user#hot#profile read 3 times", got)
	}
	if got := snap.Traffic.TopScans; len(got) != 2 || got[0].Count != 1 || got[1].Rows+got[0].Rows != 2 {
		t.Errorf("scans %+v: the user#hot# scan returned 2 rows", got)
	}
	// Histograms hold the same totals as the counts.
	if got := root.Time.Ops.Total(); got != root.Ops {
		t.Errorf("ops histogram sums to %v, counts %v", got, root.Ops)
	}
	if got := hot.Time.RowsRead.Total(); got != 3 {
		t.Errorf("user#hot# rows-read histogram sums to %v", got)
	}
	if snap.Traffic.BucketMicros != int64(time.Second/time.Microsecond) {
		t.Errorf("a short recording has %dµs buckets, want 1 s", snap.Traffic.BucketMicros)
	}
}

// TestTrafficTimeGridAdapts: a long recording coarsens to minutes and
// keeps every count.
func TestTrafficTimeGridAdapts(t *testing.T) {
	var ops []Op
	for s := 0; s < 3*3600; s += 10 {
		op := opAt(float64(s), MethodMutateRow)
		op.Keys, op.RowsWritten = keys(fmt.Sprintf("dev#%d", s%7)), rows(fmt.Sprintf("dev#%d", s%7))
		ops = append(ops, op)
	}
	snap := recordOps(t, ops)
	width := time.Duration(snap.Traffic.BucketMicros) * time.Microsecond
	if width < time.Minute || width > 3*time.Minute {
		t.Errorf("a 3-hour recording has %v buckets, want about a minute or two", width)
	}
	h := &snap.Root.Traffic.Time.Ops
	if len(h.Counts) > MaxTimeBuckets {
		t.Errorf("%d buckets", len(h.Counts))
	}
	if h.Total() != float64(len(ops)) {
		t.Errorf("histogram holds %v ops of %d", h.Total(), len(ops))
	}
}

func TestHotCounterFindsHeavyHitters(t *testing.T) {
	h := newHotCounter(16)
	for i := range 10_000 {
		key := fmt.Sprintf("cold%d", i%500)
		if i%5 == 0 {
			key = "hot"
		}
		h.add(key, 1, 1)
	}
	top := h.top(3)
	if top[0].key != "hot" || math.Abs(top[0].count-2000) > top[0].error || top[0].count < 2000 {
		t.Fatalf("top %+v: want hot with 2000 within its error", top)
	}
}

// TestHotCounterBoundsHoldUnderChurn checks the filtered counter's
// promise on a stream where most keys are seen a few times (so counters
// change hands all the time): every counter's true count lies in
// [count−error, count]; and, on this stream, every key seen more than
// total/capacity times has a counter, as plain Space-Saving guarantees
// (the filter does not promise it for every stream: a bucket's count
// can lift several keys).
func TestHotCounterBoundsHoldUnderChurn(t *testing.T) {
	const capacity = 64
	h := newHotCounter(capacity)
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 1, 5_000)
	truth := map[string]float64{}
	total := 0.0
	for range 200_000 {
		key := fmt.Sprintf("k%d", zipf.Uint64())
		if rng.IntN(4) == 0 {
			key = fmt.Sprintf("u%d", rng.IntN(50_000)) // uniform background
		}
		w := float64(1 + rng.IntN(2))
		h.add(key, w, 0)
		truth[key] += w
		total += w
	}
	if err := h.check(); err != nil {
		t.Fatal(err)
	}
	counted := map[string]bool{}
	for _, e := range h.top(capacity) {
		counted[e.key] = true
		if got := truth[e.key]; got > e.count || got < e.count-e.error {
			t.Errorf("%s: true count %v outside [%v, %v]", e.key, got, e.count-e.error, e.count)
		}
	}
	for key, n := range truth {
		if n > total/capacity && !counted[key] {
			t.Errorf("%s seen %v times of %v has no counter", key, n, total)
		}
	}
}

func TestJoinGraftsTrafficOntoTheScansTree(t *testing.T) {
	storage := buildSnapshot(t, func(add func(string)) {
		for _, user := range []string{"ann", "bob", "hot"} {
			for i := range 20 {
				add(fmt.Sprintf("user#%s#%02d", user, i))
			}
		}
	})
	var ops []Op
	for i := range 50 {
		op := opAt(float64(i), MethodReadRows)
		op.Keys = keys(fmt.Sprintf("user#hot#%02d", i%20))
		ops = append(ops, op)
	}
	miss := opAt(1, MethodReadRows)
	miss.Keys = keys("user#zed#00")
	ops = append(ops, miss)
	rec := recordOps(t, ops)
	rec.Table = storage.Table
	joined, err := Join(storage, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := trafficOf(t, joined, "user#hot#").Ops; got != 50 {
		t.Errorf("user#hot# has %v ops after the join, want 50", got)
	}
	if joined.Root.Traffic.Ops != 51 || joined.Root.Rows != storage.Root.Rows {
		t.Errorf("joined root: %v ops, %v rows", joined.Root.Traffic.Ops, joined.Root.Rows)
	}
	if got := trafficOf(t, joined, "user#zed#").Ops; got != 1 {
		t.Errorf("a key only the traffic touched: %v ops", got)
	}
	if storage.Root.Traffic != nil {
		t.Error("Join changed its input")
	}
	other := rec.Clone()
	other.Table = "else"
	if _, err := Join(storage, other); err == nil {
		t.Error("joining two tables succeeded")
	}
}

// TestReadModifyWriteIsAWrite: an increment answers with the row it
// changed; it counts as a row written, and neither its row nor its bytes
// are reads, in the counts or in the hot rows. A CheckAndMutateRow counts
// the row its branch wrote.
func TestReadModifyWriteIsAWrite(t *testing.T) {
	var ops []Op
	for i := range 5 {
		op := opAt(float64(i), MethodReadModifyWriteRow)
		op.Keys, op.RowsWritten, op.RowsRead = keys("counter#likes"), rows("counter#likes"), rows("counter#likes")
		ops = append(ops, op)
	}
	cam := opAt(5, MethodCheckAndMutateRow)
	cam.Keys, cam.RowsWritten = keys("user#ann#1"), rows("user#ann#1")
	snap := recordOps(t, append(ops, cam))
	want := OpCounts{Ops: 6, RowsWritten: 6, BytesWritten: 600}
	if got := snap.Root.Traffic.OpCounts; got != want {
		t.Errorf("table totals %+v, want %+v", got, want)
	}
	if got := snap.Root.Traffic.Time.RowsRead.Total(); got != 0 {
		t.Errorf("rows-read histogram holds %v", got)
	}
	if len(snap.Traffic.TopReads) != 0 {
		t.Errorf("hot rows by reads %+v, want none", snap.Traffic.TopReads)
	}
	if top := snap.Traffic.TopWrites; len(top) == 0 || top[0].Key != "counter#likes" || top[0].Count != 5 {
		t.Errorf("hot rows by writes %+v, want counter#likes 5 times", top)
	}
}

func TestRecordingFileRoundTrip(t *testing.T) {
	var ops []Op
	for i := range 30 {
		op := opAt(float64(i), MethodMutateRow)
		op.Keys, op.RowsWritten = keys(fmt.Sprintf("k#%d", i%3)), rows(fmt.Sprintf("k#%d", i%3))
		ops = append(ops, op)
	}
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Upstream: "emulator at x"}, Options{})
	for i := range ops {
		r.Add(&ops[i])
	}
	rec := r.Recording(recStart.Add(30*time.Second), true)
	var buf bytes.Buffer
	if err := EncodeRecording(&buf, rec); err != nil {
		t.Fatal(err)
	}
	file, err := DecodeFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got := file.Recording
	if got == nil || len(got.Tables) != 1 || got.Tables[0].Traffic.Methods[0].Calls != 30 || !got.Complete || got.Upstream != "emulator at x" {
		t.Fatalf("round trip: %+v", got)
	}
	if got.Tables[0].Root.Traffic.RowsWritten != 30 || got.Duration != 30*time.Second {
		t.Fatalf("round trip lost counts: %+v", got.Tables[0].Root.Traffic.OpCounts)
	}
	buf.Reset()
	if err := EncodeRecording(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf); err == nil {
		t.Fatal("Decode read a recording as a snapshot")
	}
}

// buildSnapshot builds a full scan of the keys add is called with, each
// row one cell.
func buildSnapshot(t *testing.T, rows func(add func(key string))) *Snapshot {
	t.Helper()
	b := newTestBuilder(Options{Delimiters: "#"})
	rows(func(key string) { b.Add(row(key, 1, cell("f", "q", recStart.UnixMicro(), 10))) })
	snap := b.Snapshot()
	snap.Table = "t"
	return snap
}

// check verifies a hotCounter's structure: every counter is in the chain
// of its key's bucket exactly once and no chain holds anything else,
// every heap slot and its counter point at each other, and the heap is
// ordered.
func (h *hotCounter) check() error {
	chained := 0
	for b, next := range h.first {
		for ; next != 0; next = h.entries[next-1].next {
			e := &h.entries[next-1]
			if e.bucket != int32(b) || h.bucket(e.key) != int32(b) {
				return fmt.Errorf("counter %q is chained in bucket %d, its bucket is %d", e.key, b, h.bucket(e.key))
			}
			if chained++; chained > len(h.entries) {
				return fmt.Errorf("the chains hold more than the %d counters", len(h.entries))
			}
		}
	}
	if chained != len(h.entries) || len(h.heap) != len(h.entries) {
		return fmt.Errorf("%d counters, %d chained, %d in the heap", len(h.entries), chained, len(h.heap))
	}
	for i, slot := range h.heap {
		if h.entries[slot.entry].at != int32(i) {
			return fmt.Errorf("heap slot %d holds counter %d, which says it is at %d", i, slot.entry, h.entries[slot.entry].at)
		}
		if i > 0 && slot.count < h.heap[(i-1)/2].count {
			return fmt.Errorf("heap slot %d (%v) is below its parent (%v)", i, slot.count, h.heap[(i-1)/2].count)
		}
	}
	return nil
}
