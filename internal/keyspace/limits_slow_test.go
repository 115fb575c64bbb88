//go:build slow

package keyspace

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// bodyBytes returns how many bytes the JSON of a file encoded by encode
// takes, decompressed, and the file.
func bodyBytes(t *testing.T, encode func(w io.Writer) error) (int64, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := encode(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		t.Fatal(err)
	}
	return n, buf.Bytes()
}

// TestWrittenAtTheKeyLimitsReadsBack writes files at the limits of
// limits.go with the longest keys btviz keeps, printable and written
// with the most escaping (every byte six characters), and reads each
// back: a scan of 30,000 rows that fill the tree and the sample, a
// recording of RecordingTables tables, and one of 16 tables of 1 KiB
// keys at their full node budgets. Each file stays under the reader's
// limit.
func TestWrittenAtTheKeyLimitsReadsBack(t *testing.T) {
	for _, pad := range []struct{ name, b string }{{"printable", "a"}, {"escaped", "<"}} {
		long := strings.Repeat(pad.b, KeptKeyBytes)
		b := NewBuilder(&Snapshot{Table: "t", Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true}}, Options{Delimiters: "#"})
		for i := range 30000 {
			b.Add(&Row{Key: fmt.Sprintf("t%03d#%05d#%s", i%1000, i, long), Cells: []Cell{{Family: "f", Qualifier: "q", Timestamp: int64(i), ValueBytes: 10}}})
		}
		snap := b.Snapshot()
		size, file := bodyBytes(t, func(w io.Writer) error { return Encode(w, snap) })
		t.Logf("scan, %s 8 KiB keys: %d nodes, %d sample rows, %.1f MB written", pad.name, snap.Root.Count(), len(snap.Sample), float64(size)/(1<<20))
		if size > DefaultMaxFileBytes {
			t.Errorf("scan, %s keys: %d bytes, over the reader's limit", pad.name, size)
		}
		if _, err := Decode(bytes.NewReader(file)); err != nil {
			t.Errorf("scan, %s keys: btviz refuses the file it wrote: %v", pad.name, err)
		}

		r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
		for table := range RecordingTables {
			for i := range 40 {
				key := Key(fmt.Sprintf("k%03d#%s", i, long))
				op := Op{Time: recStart.Add(time.Duration(i) * time.Second), Table: fmt.Sprintf("t%03d", table), Method: MethodMutateRow,
					Keys: []Key{key}, RowsWritten: []RowIO{{Key: key, Bytes: 10}}}
				r.Add(&op)
				scan := Op{Time: op.Time, Table: op.Table, Method: MethodReadRows, Ranges: []KeyRange{{Start: key, End: Key(string(key) + "z")}}, RowsRead: []RowIO{{Key: key, Bytes: 10}}}
				r.Add(&scan)
			}
		}
		size, file = bodyBytes(t, func(w io.Writer) error { return EncodeRecording(w, r.Recording(recStart.Add(time.Hour), true)) })
		t.Logf("recording of %d tables, %s 8 KiB keys: %.1f MB written", RecordingTables, pad.name, float64(size)/(1<<20))
		if size > DefaultMaxFileBytes {
			t.Errorf("recording, %s keys: %d bytes, over the reader's limit", pad.name, size)
		}
		if _, err := DecodeFile(bytes.NewReader(file)); err != nil {
			t.Errorf("recording, %s keys: btviz refuses the file it wrote: %v", pad.name, err)
		}
	}

	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Delimiters: "#"}, Options{})
	mid := strings.Repeat("<", 1<<10)
	for table := range 16 {
		for i := range 12000 {
			key := Key(fmt.Sprintf("u%02d#%05d#%s", i%60, i, mid))
			op := Op{Time: recStart.Add(time.Duration(i) * 300 * time.Millisecond), Table: fmt.Sprintf("t%02d", table), Method: MethodMutateRow,
				Keys: []Key{key}, RowsWritten: []RowIO{{Key: key, Bytes: 10}}}
			r.Add(&op)
		}
	}
	size, file := bodyBytes(t, func(w io.Writer) error { return EncodeRecording(w, r.Recording(recStart.Add(time.Hour), true)) })
	t.Logf("recording of 16 tables, escaped 1 KiB keys over an hour: %.1f MB written", float64(size)/(1<<20))
	if size > DefaultMaxFileBytes {
		t.Errorf("recording of 1 KiB keys: %d bytes, over the reader's limit", size)
	}
	if _, err := DecodeFile(bytes.NewReader(file)); err != nil {
		t.Errorf("recording of 1 KiB keys: btviz refuses the file it wrote: %v", err)
	}
}

// TestATabletMapOfLongKeysIsMergedToItsBudget: a tablet map whose keys
// would take more than RangeKeyBytes written has neighbours merged, with
// every byte kept, and the ranges the sampler knows by their place in the
// map it gave are marked where they went.
func TestATabletMapOfLongKeysIsMergedToItsBudget(t *testing.T) {
	pad := strings.Repeat("\x01", KeptKeyBytes-16)
	const n = 1000 // 80 MB of keys written: twice the budget
	ranges := make([]Range, n)
	for i := range ranges {
		if i > 0 {
			ranges[i].Start = Key(fmt.Sprintf("k%05d", i) + pad)
			ranges[i-1].End = ranges[i].Start
		}
		ranges[i].SampledBytes = 1
	}
	b := NewBuilder(&Snapshot{Table: "t", Ranges: ranges, Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true}}, Options{Delimiters: "#"})
	for i := range n {
		b.MarkRange(i, false)
	}
	snap := b.Snapshot()
	longest := fileKeyBytes(cutKey("k00001" + pad))
	var sampled int64
	for i, r := range snap.Ranges {
		sampled += r.SampledBytes
		if !r.Scanned || i > 0 && r.Start != snap.Ranges[i-1].End {
			t.Fatalf("range %d: scanned %v, starts where the one before ends %v", i, r.Scanned, i == 0 || r.Start == snap.Ranges[i-1].End)
		}
	}
	if 2*len(snap.Ranges)*longest > RangeKeyBytes || len(snap.Ranges) < n/10 || sampled != n {
		t.Errorf("%d ranges of %d bytes kept of %d: want them within %d bytes of keys, every byte kept", len(snap.Ranges), sampled, n, RangeKeyBytes)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, snap); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf); err != nil {
		t.Fatalf("btviz refuses the snapshot it wrote: %v", err)
	}
}
