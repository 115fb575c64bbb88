package keyspace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func testSnapshot(t *testing.T) *Snapshot {
	t.Helper()
	return testSnapshotOf(t, 500)
}

// testSnapshotOf is testSnapshot with n rows under its 9 prefixes.
func testSnapshotOf(t *testing.T, n int) *Snapshot {
	t.Helper()
	meta := &Snapshot{
		Source: SourceEmulator, Project: "local", Instance: "btviz", Table: "binary",
		Families: []string{"cf"},
		Ranges:   []Range{{Start: "", End: "m", SampledBytes: 100}, {Start: "m", SampledBytes: 200}},
		Scan:     ScanInfo{Mode: ModeFull, Fraction: 1, Started: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
	}
	b := NewBuilder(meta, Options{})
	for i := range n {
		key := fmt.Sprintf("dev\x1b%d#\\%c\xff", i%9, 'a'+rune(i%26))
		b.Add(row(key, 1, cell("cf", "q\x00", base+int64(i)*1e7, int64(i))))
	}
	snap := b.Snapshot()
	snap.Scan.Complete = true
	snap.Scan.Duration = 1500 * time.Millisecond
	return snap
}

func TestSaveLoadRoundTrip(t *testing.T) {
	snap := testSnapshot(t)
	path := filepath.Join(t.TempDir(), "snap.btviz")
	if err := Save(path, snap); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snap, back) {
		t.Fatalf("loaded snapshot differs from saved one")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	var good bytes.Buffer
	if err := Encode(&good, testSnapshot(t)); err != nil {
		t.Fatal(err)
	}
	gz := func(body string) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(body))
		zw.Close()
		return buf.Bytes()
	}
	cases := []struct {
		name string
		data []byte
		want error
		hint string
	}{
		{"empty", nil, ErrNotSnapshot, "btviz scan"},
		{"text", []byte("hello"), ErrNotSnapshot, "not gzip"},
		{"truncated", good.Bytes()[:good.Len()/2], ErrTruncated, "scan the table again"},
		{"foreign json", gz(`{"format":"other","version":1}`), ErrNotSnapshot, "format"},
		{"newer", gz(`{"format":"btviz-snapshot","version":99,"snapshot":{}}`), ErrNewerVersion, "upgrade btviz"},
		{"no tree", gz(`{"format":"btviz-snapshot","version":1,"snapshot":{"time_bucket_micros":1}}`), ErrDamaged, "snapshot.root: missing"},
		// Names are matched ignoring case, as encoding/json does, and the
		// error names them as btviz writes them, not as the file spelt them.
		{"spelt in capitals", gz(`{"format":"btviz-snapshot","version":1,"SNAPSHOT":{"time_bucket_micros":1,"Root":{"kind":"prefix","CHILDREN":[null]}}}`), ErrDamaged, "snapshot.root.children[0]: null in a list"},
	}
	for _, tc := range cases {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
			continue
		}
		if !bytes.Contains([]byte(err.Error()), []byte(tc.hint)) || !bytes.Contains([]byte(err.Error()), []byte(path)) {
			t.Errorf("%s: error %q lacks %q or the file name", tc.name, err, tc.hint)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("loading a missing file succeeded")
	}
}

func TestSaveLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	if err := Save(filepath.Join(dir, "no-such-dir", "x"), testSnapshot(t)); err == nil {
		t.Fatal("save into a missing directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("save left files behind: %v", entries)
	}
}

func TestSampleMethodRoundTrips(t *testing.T) {
	snap := testSnapshot(t)
	var buf bytes.Buffer
	// Every method a scan can write reads back: a sampled scan of real
	// tablets (positions) saved with --out must open again.
	for _, method := range SampleMethods() {
		snap.Scan.Mode, snap.Scan.Fraction, snap.Scan.Method = ModeSample, 0.05, method
		buf.Reset()
		if err := Encode(&buf, snap); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(&buf)
		if err != nil {
			t.Fatalf("a %s sample does not read back: %v", method, err)
		}
		if back.Scan.Method != method {
			t.Fatalf("method %q after a round trip, want %q", back.Scan.Method, method)
		}
	}
	// A full scan (or a file written before the field existed) has none.
	snap.Scan.Mode, snap.Scan.Fraction, snap.Scan.Method = ModeFull, 1, ""
	buf.Reset()
	if err := Encode(&buf, snap); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	if _, err := body.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(body.Bytes(), []byte(`"method"`)) {
		t.Fatal("a full scan's file names a sample method")
	}
}
