package keyspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// roundTrip writes rec as a recording file and reads it back.
func roundTrip(t *testing.T, rec *Recording) *File {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeRecording(&buf, rec); err != nil {
		t.Fatal(err)
	}
	file, err := DecodeFile(&buf)
	if err != nil {
		t.Fatalf("btviz refuses the recording it wrote: %v", err)
	}
	return file
}

// TestKeysAreKeptWholeUpToTheLimitThenCut: a key of KeptKeyBytes is kept
// as it is; a longer one (an emulator takes a 70,000-byte key, beyond what
// a file may hold) is cut to KeptKeyBytes, noted with its length and
// SHA-256, and counted at its full length, in a scan and in a recording,
// as a row, a tablet bound and a range a scan asked for. Every file reads
// back.
func TestKeysAreKeptWholeUpToTheLimitThenCut(t *testing.T) {
	atLimit := "k#" + strings.Repeat("a", KeptKeyBytes-2)
	over := "k#" + strings.Repeat("b", KeptKeyBytes-1)
	huge := "k#" + strings.Repeat("c", 70000-2)
	sum := sha256.Sum256([]byte(huge))
	hugeSHA := hex.EncodeToString(sum[:])

	// Tablet bounds: two that stay apart once cut (they differ at the
	// end), and two that differ only in the middle, whose cuts are in
	// the order of their hashes.
	middle := func(c string) string { return huge[:20000] + c + huge[20001:] }
	meta := &Snapshot{Source: SourceEmulator, Table: "t", Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true},
		Ranges: []Range{{End: Key(huge), SampledBytes: 1}, {Start: Key(huge), End: Key(huge + "z"), SampledBytes: 2},
			{Start: Key(huge + "z"), End: Key(middle("d")), SampledBytes: 4}, {Start: Key(middle("d")), End: Key(middle("e")), SampledBytes: 8},
			{Start: Key(middle("e")), SampledBytes: 16}}}
	b := NewBuilder(meta, Options{Delimiters: "#"})
	for i := range 5 {
		b.MarkRange(i, false) // the sampler's places in the map it gave
	}
	for _, key := range []string{atLimit, over, huge, "k#d"} {
		b.Add(&Row{Key: key, Cells: []Cell{{Family: "f", Qualifier: "q", Timestamp: 1, ValueBytes: 1}}})
	}
	snap := b.Snapshot()
	var buf bytes.Buffer
	if err := Encode(&buf, snap); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil {
		t.Fatalf("btviz refuses the snapshot it wrote: %v", err)
	}
	if back.Root.MaxKeyBytes != 70000 || back.Root.KeyBytes != float64(len(atLimit)+len(over)+len(huge)+3) {
		t.Errorf("max key bytes %d, key bytes %g: the cut keys must count at their full length", back.Root.MaxKeyBytes, back.Root.KeyBytes)
	}
	// The tablet bounds are long keys too.
	i := slices.IndexFunc(back.LongKeys, func(l LongKey) bool { return l.SHA256 == hugeSHA })
	if len(back.LongKeys) != 5 || i < 0 || back.LongKeys[i].Bytes != 70000 || string(back.LongKeys[i].Key) != cutKey(huge) ||
		back.LongKeys[4].Bytes != int64(len(over)) || back.LongKeys[0].Bytes != 70001 {
		t.Errorf("%d long keys, want the 70,000-byte key and the one just over the limit, longest first", len(back.LongKeys))
	}
	var kept []string
	back.Root.Walk(func(n *Node) bool {
		if n.Kind == KindRow {
			kept = append(kept, string(n.Prefix))
		}
		return true
	})
	if len(kept) != 4 || kept[0] != atLimit || kept[1] != cutKey(over) || kept[2] != cutKey(huge) || len(kept[2]) != KeptKeyBytes {
		t.Errorf("row nodes %d, want the key at the limit whole and the longer ones cut", len(kept))
	}
	var sampled int64
	for i, r := range back.Ranges {
		sampled += r.SampledBytes
		if i > 0 && r.Start != back.Ranges[i-1].End {
			t.Errorf("tablet %d starts after the one before ends", i)
		}
	}
	if len(back.Ranges) < 3 || back.Ranges[0].End != Key(cutKey(huge)) || back.Ranges[1].End != Key(cutKey(huge+"z")) || sampled != 31 {
		t.Errorf("tablet map of %d ranges and %d bytes, want the bounds that stay apart once cut kept, and every byte", len(back.Ranges), sampled)
	}

	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
	for i, op := range []Op{
		{Method: MethodMutateRow, Keys: keys(huge), RowsWritten: rows(huge)},
		{Method: MethodReadRows, Ranges: []KeyRange{{Start: Key(huge), End: Key(huge + "z")}}, RowsRead: rows(huge)},
		{Method: MethodReadRows, Keys: keys(atLimit), RowsRead: rows(atLimit)},
	} {
		op.Time, op.Table = recStart.Add(time.Duration(i)*time.Second), "t"
		r.Add(&op)
	}
	file := roundTrip(t, r.Recording(recStart.Add(time.Minute), true))
	rec := file.Recording.Tables[0]
	if len(rec.LongKeys) != 2 || rec.LongKeys[1].SHA256 != hugeSHA {
		t.Errorf("recording's %d long keys, want the 70,000-byte key and the end of the range", len(rec.LongKeys))
	}
	if top := rec.Traffic.TopWrites; len(top) != 1 || string(top[0].Key) != cutKey(huge) {
		t.Errorf("top writes %+v, want the long key cut", top)
	}
	if scans := rec.Traffic.TopScans; len(scans) != 1 || scans[0].End <= scans[0].Start {
		t.Errorf("top scans %+v, want the long range as a range", scans)
	}
}

// TestNotFoundTablesAreCountedNotBuilt: calls on 5,000 tables that do
// not exist cost no table of the recording, which counts them and names
// the most called; a table found after its NotFound answers is built as
// any other. The file reads back.
func TestNotFoundTablesAreCountedNotBuilt(t *testing.T) {
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart}, Options{})
	for i := range 5000 {
		op := opAt(float64(i)/100, MethodReadRows)
		op.Table, op.Keys, op.Code = fmt.Sprintf("missing-%04d", i), keys("row"), notFoundCode
		r.Add(&op)
		if i%50 == 0 {
			op.Table = "missing-busy"
			r.Add(&op)
		}
	}
	later := opAt(60, MethodMutateRow)
	later.Table, later.Keys, later.RowsWritten = "missing-busy", keys("row"), rows("row")
	r.Add(&later)
	if len(r.tables) != 1 {
		t.Fatalf("%d tables built, want only the one a call found", len(r.tables))
	}
	file := roundTrip(t, r.Recording(recStart.Add(time.Minute), true))
	nf := file.Recording.NotFound
	if nf == nil || nf.Calls != 5100 || len(nf.Tables) != NotFoundNamesKept || nf.Tables[0].Table != "missing-busy" || nf.Tables[0].Calls-nf.Tables[0].Error < 50 {
		t.Fatalf("not found %+v, want 5,100 calls and the most called names", nf)
	}
	if names := file.Recording.TableNames(); len(names) != 1 || names[0] != "missing-busy" {
		t.Errorf("tables %q, want the table once it was found", names)
	}
}

// TestTablesBeyondTheLimitAreCounted: a recording holds RecordingTables
// tables; calls on more are counted, and the tables share RecordingNodes.
func TestTablesBeyondTheLimitAreCounted(t *testing.T) {
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart}, Options{})
	for i := range RecordingTables + 10 {
		op := opAt(1, MethodMutateRow)
		op.Table, op.Keys, op.RowsWritten = fmt.Sprintf("t%04d", i), keys("row"), rows("row")
		r.Add(&op)
	}
	for _, b := range r.tables {
		if b.opts.MaxNodes*len(r.tables) > RecordingNodes || b.keys.budget()*len(r.tables) > RecordingKeyBytes {
			t.Fatalf("a table's node budget is %d: %d tables would hold more than %d nodes", b.opts.MaxNodes, len(r.tables), RecordingNodes)
		}
	}
	file := roundTrip(t, r.Recording(recStart.Add(time.Minute), true))
	if len(file.Recording.Tables) != RecordingTables || file.Recording.OverLimit == nil || file.Recording.OverLimit.Calls != 10 {
		t.Errorf("%d tables and %+v left out, want %d and 10 calls", len(file.Recording.Tables), file.Recording.OverLimit, RecordingTables)
	}
}

// TestADamagedTableCostsThatTableOnly: a recording of three tables with
// one damaged reads as the other two, and says which was left out and
// why; a file whose every table is damaged is refused.
func TestADamagedTableCostsThatTableOnly(t *testing.T) {
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
	for i, table := range []string{"a", "b", "c"} {
		op := opAt(float64(i), MethodMutateRow)
		op.Table, op.Keys, op.RowsWritten = table, keys("user#1"), rows("user#1")
		r.Add(&op)
	}
	var buf bytes.Buffer
	if err := EncodeRecording(&buf, r.Recording(recStart.Add(time.Minute), true)); err != nil {
		t.Fatal(err)
	}
	for _, damage := range []struct {
		name  string
		field string
		apply func(table map[string]any)
	}{
		{"a key over 64 KiB", "recording.tables[1].root.traffic.first_key", func(table map[string]any) {
			obj(table, "root", "traffic")["first_key"] = strings.Repeat("x", 70000)
		}},
		{"a negative count", "recording.tables[1].root.traffic.ops", func(table map[string]any) { obj(table, "root", "traffic")["ops"] = -1 }},
		{"text for a count", "recording.tables[1].traffic.methods[0].calls", func(table map[string]any) {
			obj(table, "traffic", "methods", 0)["calls"] = "many"
		}},
		{"null", "recording.tables[1]: null", nil},
	} {
		doc, err := snapshotjsonRead(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		tables := obj(doc, "recording")["tables"].([]any)
		if damage.apply == nil {
			tables[1] = nil
		} else {
			damage.apply(tables[1].(map[string]any))
		}
		file, err := DecodeFile(bytes.NewReader(gzipJSON(t, doc)))
		if err != nil {
			t.Errorf("%s: the file is refused (%v); want the other tables read", damage.name, err)
			continue
		}
		if names := file.Recording.TableNames(); len(names) != 2 || names[0] != "a" || names[1] != "c" {
			t.Errorf("%s: tables %q, want a and c", damage.name, names)
		}
		if len(file.Damaged) != 1 || file.Damaged[0].Index != 1 || !errors.Is(file.Damaged[0].Err, ErrDamaged) ||
			!strings.Contains(file.Damaged[0].Err.Error(), damage.field) || damage.apply != nil && file.Damaged[0].Table != "b" {
			t.Errorf("%s: damaged %+v, want table b named with %q", damage.name, file.Damaged, damage.field)
		}
	}
	doc, err := snapshotjsonRead(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range obj(doc, "recording")["tables"].([]any) {
		obj(table.(map[string]any), "root", "traffic")["ops"] = -1
	}
	if _, err := DecodeFile(bytes.NewReader(gzipJSON(t, doc))); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "recording.tables[0].root.traffic.ops") {
		t.Errorf("every table damaged: %v, want the file refused naming the first", err)
	}
}

// TestLongTextIsCutWithItsSize: a 256 KB table name in a file reads back
// cut, with its size, and a table named so by a client's calls is kept
// cut too (cmd/btviz's TestHugeNamesAreCutInEveryOutput reads a 5 MB one).
func TestLongTextIsCutWithItsSize(t *testing.T) {
	long := strings.Repeat("n", 256<<10)
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Upstream: long}, Options{})
	op := opAt(1, MethodMutateRow)
	op.Table, op.Keys, op.RowsWritten = long, keys("row"), rows("row")
	r.Add(&op)
	file := roundTrip(t, r.Recording(recStart.Add(time.Minute), true))
	name := file.Recording.Tables[0].Table
	if len(name) > MaxTextBytes || !strings.HasSuffix(name, "… (262144 bytes)") || len(file.Recording.Upstream) > MaxTextBytes {
		t.Errorf("a 256 KB table name kept as %d bytes ending %q, want at most %d ending with its size", len(name), name[max(0, len(name)-30):], MaxTextBytes)
	}
	doc, err := snapshotjsonRead(func() []byte {
		var buf bytes.Buffer
		EncodeRecording(&buf, r.Recording(recStart.Add(time.Minute), true))
		return buf.Bytes()
	}())
	if err != nil {
		t.Fatal(err)
	}
	obj(doc, "recording", "tables", 0)["table"] = long
	obj(doc, "recording", "tables", 0)["families"] = []any{long}
	back, err := DecodeFile(bytes.NewReader(gzipJSON(t, doc)))
	if err != nil {
		t.Fatal(err)
	}
	if snap := back.Recording.Tables[0]; len(snap.Table) > MaxTextBytes || len(snap.Families[0]) > MaxTextBytes {
		t.Errorf("a crafted file's 256 KB names read back as %d and %d bytes, want at most %d", len(snap.Table), len(snap.Families[0]), MaxTextBytes)
	}
}

// TestKeyBudgetShrinksTheTreeAndSampleForLongKeys: keys of KeptKeyBytes
// keep the tree and the sample to what TreeKeyBytes and SampleKeyBytes
// allow, so that the file stays far below what a reader accepts; short
// keys keep the default budgets.
func TestKeyBudgetShrinksTheTreeAndSampleForLongKeys(t *testing.T) {
	var short keyBudget
	short.note(strings.Repeat("a", 100))
	if short.nodes(20000) != 20000 || short.sampleRows(20000) != 20000 {
		t.Errorf("100-byte keys: %d nodes, %d sample rows; want the defaults", short.nodes(20000), short.sampleRows(20000))
	}
	b := NewBuilder(&Snapshot{Table: "t", Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true}}, Options{Delimiters: "#"})
	pad := strings.Repeat("\x01", KeptKeyBytes)
	for i := range 3000 {
		b.Add(&Row{Key: fmt.Sprintf("u%02d#%04d#%s", i%40, i, pad)})
	}
	longest := fileKeyBytes(cutKey(fmt.Sprintf("u00#0000#%s", pad)))
	if longest < 4*KeptKeyBytes {
		t.Fatalf("the keys take %d characters written, want them escaped", longest)
	}
	wantNodes := max(TreeKeyBytes/(nodeKeyCopies*longest), 1)
	if b.maxNodes() != wantNodes || b.nodes > b.maxNodes() {
		t.Errorf("binary 4 KiB keys: budget %d nodes with %d built, want %d", b.maxNodes(), b.nodes, wantNodes)
	}
	snap := b.Snapshot()
	if want := max(SampleKeyBytes/longest, minSampleRows); len(snap.Sample) != want {
		t.Errorf("sample of %d rows, want %d", len(snap.Sample), want)
	}
	if len(snap.LongKeys) != min(LongKeysKept, TreeKeyBytes/(listKeyCopies*longest)) || snap.Root.MaxKeyBytes <= KeptKeyBytes {
		t.Errorf("%d long keys noted, longest %d", len(snap.LongKeys), snap.Root.MaxKeyBytes)
	}
}
