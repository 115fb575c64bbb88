package keyspace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// spanningJoin records traffic on one user's posts with a fan-out cap so
// small that the recording merges runs of posts into range nodes, and
// joins it with a scan that keeps every stored post a prefix of its own:
// each recorded range spans several of the scan's nodes. The scan stores
// only the even posts, so recorded keys fall between its nodes too, and
// the traffic also holds scans of the whole user and of the whole table
// (counts that belong to those wider nodes), point reads, writes, a
// ReadModifyWriteRow, failed calls, and an unrelated user the scan never
// saw. It returns the scan, the recording and the join.
func spanningJoin(t *testing.T) (storage, rec, joined *Snapshot) {
	t.Helper()
	const posts = 40
	storage = buildSnapshot(t, func(add func(string)) {
		for p := 0; p < posts; p += 2 {
			for r := range 1 + p%7 { // posts of different sizes
				add(fmt.Sprintf("user#mila#p%03d#%02d", p, r))
			}
		}
		add("user#zoe#p000#00")
	})
	rng := rand.New(rand.NewPCG(1, 2))
	post := func() int { return rng.IntN(posts) }
	var ops []Op
	for i := range 600 {
		at := float64(i) / 20 // 30 one-second columns
		key := fmt.Sprintf("user#mila#p%03d#%02d", post(), rng.IntN(7))
		var op Op
		switch i % 6 {
		case 0, 1:
			op = opAt(at, MethodReadRows)
			op.Keys, op.RowsRead = keys(key), rows(key)
		case 2:
			p := fmt.Sprintf("user#mila#p%03d#", post())
			op = opAt(at, MethodReadRows)
			op.Ranges = []KeyRange{{Start: Key(p), End: Key(PrefixEnd(p))}}
			op.RowsRead, op.CallRows = rows(p+"00", p+"01"), 2
		case 3:
			op = opAt(at, MethodMutateRow)
			op.Keys, op.RowsWritten = keys(key), rows(key)
		case 4:
			op = opAt(at, MethodReadModifyWriteRow)
			op.Keys, op.RowsRead, op.RowsWritten = keys(key), rows(key), rows(key)
		case 5:
			op = opAt(at, MethodCheckAndMutateRow)
			op.Keys, op.Code = keys(key), 9
		}
		ops = append(ops, op)
	}
	for i, r := range []KeyRange{{Start: "user#mila#", End: "user#mila$"}, {}} {
		op := opAt(float64(i), MethodReadRows)
		op.Ranges, op.RowsRead, op.CallRows = []KeyRange{r}, rows("user#mila#p000#00"), 1
		ops = append(ops, op)
	}
	other := opAt(3, MethodReadRows)
	other.Keys, other.RowsRead = keys("user#ann#p001#00"), rows("user#ann#p001#00")
	ops = append(ops, other)

	b := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{MaxChildren: 8})
	for i := range ops {
		b.Add(&ops[i])
	}
	rec = b.Snapshot("t", recStart.Add(time.Minute))
	spanning := 0
	mila := rec.Root.Lookup("user#mila#")
	for _, c := range mila[len(mila)-1].Children {
		if c.Kind == KindRange && c.Traffic != nil && c.Traffic.Ops > 0 {
			spanning++
		}
	}
	if spanning < 3 {
		t.Fatalf("the recording merged %d runs of posts into ranges; the test needs several", spanning)
	}
	joined, err := Join(storage, rec)
	if err != nil {
		t.Fatal(err)
	}
	return storage, rec, joined
}

// TestJoinSpreadsARecordedRangeOverTheScansNodes: a recorded range node
// that spans several of the scan's nodes has its counts divided among
// them, down to the leaves, so that no node of the join holds traffic
// beyond its children's except what the recording itself held there
// (the scans of the whole user and of the whole table); every counter,
// histogram bucket and method count of the recording is in the join, in
// whole units; and the join is a valid tree whose siblings do not
// overlap.
func TestJoinSpreadsARecordedRangeOverTheScansNodes(t *testing.T) {
	_, rec, joined := spanningJoin(t)
	if err := joined.validate("joined"); err != nil {
		t.Fatalf("the join is not a valid snapshot (overlapping or misplaced nodes): %v", err)
	}
	if d := trafficDiff(joined.Root.Traffic, rec.Root.Traffic); d != "" {
		t.Errorf("the join's table totals differ from the recording's: %s", d)
	}
	recorded, joinedRanges := map[KeyRange]*Node{}, map[KeyRange]bool{}
	rec.Root.Walk(func(n *Node) bool { recorded[KeyRange{Start: n.Start, End: n.End}] = n; return true })
	joined.Root.Walk(func(n *Node) bool { joinedRanges[KeyRange{Start: n.Start, End: n.End}] = true; return true })

	joined.Root.Walk(func(n *Node) bool {
		if n.Traffic == nil {
			return true
		}
		if err := wholeUnits(n.Traffic); err != nil {
			t.Errorf("node %v: %v", n.Prefix, err)
		}
		if n.Traffic.Ops > 0 && !recordedOpsMeet(rec.Root, joinedRanges, n) {
			t.Errorf("node [%v, %v) has %v ops, but the recording has none in its range", n.Start, n.End, n.Traffic.Ops)
		}
		if n.IsLeaf() {
			return true
		}
		// What the node holds beyond its children is exactly what the
		// recording held beyond its children on the same range: nothing
		// for a node of the scan's own.
		own := n.remainderTraffic()
		want := &NodeTraffic{}
		if r := recorded[KeyRange{Start: n.Start, End: n.End}]; r != nil && r.Kind == n.Kind {
			want = r.remainderTraffic()
		}
		if d := trafficDiff(own, want); d != "" {
			t.Errorf("node %s [%v, %v) holds traffic beyond its children's: %s", n.Kind, n.Start, n.End, d)
		}
		if d := childrenAddUp(n); d != "" {
			t.Errorf("node [%v, %v): its children and its own traffic do not add up to it: %s", n.Start, n.End, d)
		}
		return true
	})
	// The user's scan stays on her node, the table's on the root.
	if got := nodeOf(t, joined, "user#mila#").remainderTraffic().Scans; got != 1 {
		t.Errorf("user#mila# keeps %v scans of its own, want its 1 prefix scan", got)
	}
	if got := joined.Root.remainderTraffic().Scans; got != 1 {
		t.Errorf("the root keeps %v scans of its own, want the 1 full-table scan", got)
	}
	if trafficOf(t, joined, "user#ann#").Ops != 1 {
		t.Error("a user only the traffic touched lost its read")
	}
}

// TestJoinSplitsInProportionToStoredRows: the scan's posts hold 1 to 7
// rows each; the traffic the recording merged over a run of them is
// divided in proportion, so the largest post gets the most.
func TestJoinSplitsInProportionToStoredRows(t *testing.T) {
	storage := buildSnapshot(t, func(add func(string)) {
		for r := range 30 {
			add(fmt.Sprintf("k#big#%02d", r))
		}
		for r := range 10 {
			add(fmt.Sprintf("k#small#%02d", r))
		}
	})
	merged := &Node{Kind: KindRange, Prefix: "k#", Start: "k#big#", End: "k#small$", Depth: 2, Traffic: &NodeTraffic{
		OpCounts: OpCounts{Ops: 101, PointReads: 101, RowsRead: 101, BytesRead: 10100},
		FirstKey: "k#big#00", LastKey: "k#small#09",
		Methods: []MethodCount{{Method: MethodReadRows, Calls: 101}},
	}}
	for i := range 101 {
		merged.Traffic.Time.Ops.add(int64(i%4), 1)
		merged.Traffic.Time.RowsRead.add(int64(i%4), 1)
		merged.Traffic.Time.BytesRead.add(int64(i%4), 100)
	}
	k := &Node{Kind: KindPrefix, Prefix: "k#", Start: "k#", End: "k$", Depth: 1, Traffic: merged.Traffic.clone(), Children: []*Node{merged}}
	rec := handRecording(storage.Table, k)
	joined, err := Join(storage, rec)
	if err != nil {
		t.Fatal(err)
	}
	big, small := trafficOf(t, joined, "k#big#"), trafficOf(t, joined, "k#small#")
	// 101 in proportion 3:1 is 75.75 and 25.25: whole, 76 and 25.
	if big.Ops != 76 || small.Ops != 25 || big.BytesRead+small.BytesRead != 10100 {
		t.Errorf("split 101 ops over 30 and 10 rows as %v and %v (bytes %v + %v)", big.Ops, small.Ops, big.BytesRead, small.BytesRead)
	}
	if big.Time.Ops.Total() != big.Ops || small.Time.RowsRead.Total() != small.RowsRead {
		t.Errorf("a part's histogram does not add up to its count: %v/%v, %v/%v",
			big.Time.Ops.Total(), big.Ops, small.Time.RowsRead.Total(), small.RowsRead)
	}
	// The rounding rotates through the time buckets: the small post gets
	// a quarter of each bucket's ops, give or take one, not all or none.
	for i := range int64(4) {
		if got, all := small.Time.Ops.At(i), merged.Traffic.Time.Ops.At(i); math.Abs(got-all/4) >= 1 {
			t.Errorf("bucket %d: the small post got %v of %v ops", i, got, all)
		}
	}
	if k := nodeOf(t, joined, "k#"); k.Traffic.Ops != 101 || k.remainderTraffic().Ops != 0 {
		t.Errorf("k# holds %v ops, %v beyond its children", k.Traffic.Ops, k.remainderTraffic().Ops)
	}
}

// TestJoinMakesANodeOfTrafficBetweenTheScansRows: a recording whose
// keys split at other delimiters than the scan's has a range node that
// reaches into a prefix of the scan where the scan stored no row; that
// traffic becomes a range node of its own there, between the prefix's
// rows, rather than traffic of the prefix that none of its rows holds.
func TestJoinMakesANodeOfTrafficBetweenTheScansRows(t *testing.T) {
	storage := buildSnapshot(t, func(add func(string)) {
		for _, key := range []string{"0", "a#1#x", "a#1#y", "z"} {
			add(key)
		}
	})
	// A recording whose keys split at ":" (none here) holds them as rows
	// of the root; a merge of two of them is a range node from a#0z to
	// a#1#b, which reaches into the scan's a#1# before its first row.
	merged := &Node{Kind: KindRange, Prefix: "a#", Start: "a#0z", End: "a#1#b\x00", Depth: 1, Traffic: &NodeTraffic{
		OpCounts: OpCounts{Ops: 3, RowsWritten: 3, BytesWritten: 300}, FirstKey: "a#0z", LastKey: "a#1#b",
		Methods: []MethodCount{{Method: MethodMutateRow, Calls: 3}},
	}}
	for i := range int64(3) {
		merged.Traffic.Time.Ops.add(i, 1)
		merged.Traffic.Time.RowsWritten.add(i, 1)
		merged.Traffic.Time.BytesWritten.add(i, 100)
	}
	rec := handRecording(storage.Table, merged)
	joined, err := Join(storage, rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := joined.validate("joined"); err != nil {
		t.Fatalf("the join is not a valid snapshot: %v", err)
	}
	for _, prefix := range []string{"a#", "a#1#"} {
		if own := nodeOf(t, joined, prefix).remainderTraffic(); own != nil && own.Ops != 0 {
			t.Errorf("%s keeps %v ops none of its children holds", prefix, own.Ops)
		}
	}
	post := nodeOf(t, joined, "a#1#")
	gap := post.Children[0]
	if gap.Kind != KindRange || gap.Rows != 0 || gap.Traffic == nil || gap.Traffic.Ops != 3 || gap.Traffic.RowsWritten != 3 {
		t.Errorf("a#1#'s first child %s [%v, %v): %+v; want a range node with the 3 writes", gap.Kind, gap.Start, gap.End, gap.Traffic)
	}
	if joined.Root.Traffic.Ops != 3 {
		t.Errorf("the join holds %v ops, want 3", joined.Root.Traffic.Ops)
	}
}

// TestApportionerAddsUpExactly divides random amounts with random shares
// and checks that the parts are never negative and add up exactly, whole
// for a whole amount (a fraction goes to one part), and that over a run
// of amounts each part stays within one unit of its exact share.
func TestApportionerAddsUpExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		weights := make([]float64, 1+rng.IntN(9))
		for i := range weights {
			weights[i] = float64(rng.IntN(5))
		}
		weights[rng.IntN(len(weights))]++ // at least one positive
		a := newApportioner(weights)
		carry, parts := make([]float64, len(weights)), make([]float64, len(weights))
		got := make([]float64, len(weights))
		total := 0.0
		for range 1 + rng.IntN(20) {
			amount := float64(rng.IntN(4))
			switch trial % 4 {
			case 0:
				amount = float64(rng.IntN(1_000_000))
			case 1:
				amount += 0.5
			}
			total += amount
			a.divide(amount, carry, parts)
			sum, fractions := 0.0, 0
			for i, p := range parts {
				if p < 0 || (weights[i] == 0 && p != 0) {
					t.Fatalf("weights %v: part %d of %v is %v", weights, i, amount, p)
				}
				if p != math.Trunc(p) {
					fractions++
				}
				sum += p
				got[i] += p
			}
			if sum != amount || fractions > int(math.Ceil(amount-math.Trunc(amount))) {
				t.Fatalf("weights %v: %v divided into %v", weights, amount, parts)
			}
		}
		for i := range weights {
			if share := total * a.shares[i]; math.Abs(got[i]-share) >= 1+1e-9 {
				t.Fatalf("weights %v: part %d got %v of %v, its share is %v", weights, i, got[i], total, share)
			}
		}
	}
}

// trafficDiff describes how two nodes' traffic differ in any count,
// method count or histogram bucket ("" when they agree).
func trafficDiff(got, want *NodeTraffic) string {
	if got == nil {
		got = &NodeTraffic{}
	}
	if want == nil {
		want = &NodeTraffic{}
	}
	if got.OpCounts != want.OpCounts {
		return fmt.Sprintf("counts %+v, want %+v", got.OpCounts, want.OpCounts)
	}
	methods := func(t *NodeTraffic) map[string]MethodCount {
		m := map[string]MethodCount{}
		for _, c := range t.Methods {
			if c.Calls != 0 || c.Errors != 0 {
				m[c.Method] = c
			}
		}
		return m
	}
	gm, wm := methods(got), methods(want)
	if len(gm) != len(wm) {
		return fmt.Sprintf("methods %+v, want %+v", got.Methods, want.Methods)
	}
	for name, c := range wm {
		if gm[name] != c {
			return fmt.Sprintf("methods %+v, want %+v", got.Methods, want.Methods)
		}
	}
	for h, gh := range got.hists() {
		wh := want.hists()[h]
		for _, pair := range [][2]*TimeHist{{gh, wh}, {wh, gh}} {
			for j := range pair[0].Counts {
				if i := pair[0].First + int64(j); gh.At(i) != wh.At(i) {
					return fmt.Sprintf("histogram %d bucket %d: %v, want %v", h, i, gh.At(i), wh.At(i))
				}
			}
		}
	}
	return ""
}

// childrenAddUp describes how n's children and what n holds beyond them
// fail to add up to n's traffic, in any count, method count or histogram
// bucket ("" when they add up).
func childrenAddUp(n *Node) string {
	sum := n.remainderTraffic()
	for _, c := range n.Children {
		if c.Traffic != nil {
			sum.Merge(c.Traffic)
		}
	}
	return trafficDiff(sum, n.Traffic)
}

// wholeUnits checks that every count of traffic is a whole number.
func wholeUnits(t *NodeTraffic) error {
	values := []float64{t.Ops, t.PointReads, t.Scans, t.RowsRead, t.BytesRead, t.RowsWritten, t.BytesWritten}
	for _, m := range t.Methods {
		values = append(values, m.Calls, m.Errors)
	}
	for _, h := range t.hists() {
		values = append(values, h.Counts...)
	}
	for _, v := range values {
		if v != math.Trunc(v) {
			return fmt.Errorf("a count of %v is not whole", v)
		}
	}
	return nil
}

// recordedOpsMeet reports whether operations the recording holds in a
// node's own traffic (beyond its children's) lie in n's range: the
// traffic the join put on n came from there. The own traffic of a
// recorded node that holds n and is a node of the join too stays on that
// node, so it does not count for n.
func recordedOpsMeet(recRoot *Node, joined map[KeyRange]bool, n *Node) bool {
	found := false
	recRoot.Walk(func(r *Node) bool {
		if found || !overlaps(r, string(n.Start), string(n.End)) {
			return false
		}
		range_ := KeyRange{Start: r.Start, End: r.End}
		staysAbove := joined[range_] && r.holds(n) && range_ != (KeyRange{Start: n.Start, End: n.End})
		if own := r.remainderTraffic(); own != nil && own.Ops > 0 && !staysAbove {
			found = true
		}
		return true
	})
	return found
}

// nodeOf returns the node of prefix.
func nodeOf(t *testing.T, snap *Snapshot, prefix string) *Node {
	t.Helper()
	path := snap.Root.Lookup(prefix)
	if path == nil {
		t.Fatalf("no node %q", prefix)
	}
	return path[len(path)-1]
}

// handRecording returns a recording of table whose root holds children
// and their traffic, on a time grid of 1 µs buckets.
func handRecording(table string, children ...*Node) *Snapshot {
	root := &Node{Kind: KindPrefix, Traffic: &NodeTraffic{}, Children: children}
	for _, c := range children {
		root.Traffic.Merge(c.Traffic)
	}
	return &Snapshot{Table: table, Traffic: &Traffic{BucketMicros: 1}, Root: root}
}

// TestJoinNamesTheRecordedPrefix: a scan of 2,000 users merges them into
// ranges of about twenty; a recording that reads one user's rows names
// that user's prefix, and the join names it too, with the user's ten
// stored rows and all its traffic, while the rows around it stay in the
// range's pieces and every count adds up.
func TestJoinNamesTheRecordedPrefix(t *testing.T) {
	storage := buildSnapshot(t, func(add func(string)) {
		for u := range 2000 {
			for item := range 10 {
				add(fmt.Sprintf("user#u%04d#item#%03d", u, item))
			}
		}
	})
	users := storage.Root.Lookup("user#")
	if users == nil {
		t.Fatal("the scan has no user# node")
	}
	if at := storage.Root.Lookup("user#u0613#"); at != nil {
		t.Fatalf("the scan keeps user#u0613# as a node of its own; the test needs it merged into a range")
	}
	var ops []Op
	for i := range 400 {
		op := opAt(float64(i)/10, MethodReadRows)
		key := fmt.Sprintf("user#u0613#item#%03d", i%10)
		if i%4 == 3 {
			key = fmt.Sprintf("user#u%04d#item#%03d", (i*7919)%2000, i%10)
		}
		op.Keys, op.RowsRead = keys(key), rows(key)
		ops = append(ops, op)
	}
	joined, err := Join(storage, recordOps(t, ops))
	if err != nil {
		t.Fatal(err)
	}
	if err := joined.validate("joined"); err != nil {
		t.Fatalf("the join is not a valid snapshot: %v", err)
	}
	path := joined.Root.Lookup("user#u0613#")
	if path == nil {
		t.Fatal("the join does not name user#u0613#")
	}
	hot := path[len(path)-1]
	if hot.Rows != 10 || hot.Traffic == nil || hot.Traffic.RowsRead < 300 {
		t.Errorf("user#u0613# holds %v rows and %+v traffic, want its 10 rows and at least 300 rows read", hot.Rows, hot.Traffic)
	}
	var rowsUnder float64
	for _, c := range path[len(path)-2].Children {
		rowsUnder += c.Rows
	}
	if math.Abs(rowsUnder-20_000) > 1e-6 || joined.Root.Rows != 20_000 {
		t.Errorf("the pieces hold %v rows under user#, the table %v; want 20,000", rowsUnder, joined.Root.Rows)
	}
}
