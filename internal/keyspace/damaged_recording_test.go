package keyspace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testRecording is a small valid recording of point reads, scans and
// writes over a few minutes.
func testRecording(t *testing.T) *Recording {
	t.Helper()
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart, Upstream: "emulator at localhost:1", Delimiters: "#"}, Options{})
	for i := range 200 {
		op := opAt(float64(i), MethodReadRows)
		switch i % 3 {
		case 0:
			op.Keys = keys("user#" + string(rune('a'+i%5)) + "#1")
			op.RowsRead = rows("user#" + string(rune('a'+i%5)) + "#1")
		case 1:
			op.Ranges = []KeyRange{{Start: "user#a#", End: "user#a$"}}
			op.RowsRead = rows("user#a#1", "user#a#2")
		default:
			op.Method = MethodMutateRow
			op.Keys = keys("user#c#9")
			op.RowsWritten = rows("user#c#9")
		}
		r.Add(&op)
	}
	return r.Recording(recStart.Add(5*time.Minute), true)
}

// damagedRecordings are the kinds of damage a recording file is checked
// for beyond a snapshot's: its traffic's values.
var damagedRecordings = []struct {
	name, field string
	damage      func(file map[string]any)
}{
	{"null table", "recording.tables[0]: null", func(f map[string]any) { obj(f, "recording")["tables"] = []any{nil} }},
	{"negative duration", "recording.duration_ns", func(f map[string]any) { obj(f, "recording")["duration_ns"] = -1 }},
	{"no traffic", "recording.tables[0].root.traffic: set, but the snapshot holds no recording", func(f map[string]any) { delete(obj(f, "recording", "tables", 0), "traffic") }},
	{"zero traffic bucket width", "recording.tables[0].traffic.bucket_micros", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "traffic")["bucket_micros"] = 0
	}},
	{"negative calls", "recording.tables[0].traffic.methods[0].calls", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "traffic", "methods", 0)["calls"] = -3
	}},
	{"hot row count of 1e308", "recording.tables[0].traffic.top_reads[0].count", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "traffic", "top_reads", 0)["count"] = 1e308
	}},
	{"inverted hot scan", "recording.tables[0].traffic.top_scans[0].end", func(f map[string]any) {
		scan := obj(f, "recording", "tables", 0, "traffic", "top_scans", 0)
		scan["start"], scan["end"] = "z", "a"
	}},
	{"negative node ops", "recording.tables[0].root.children[0].traffic.ops", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "root", "children", 0, "traffic")["ops"] = -1
	}},
	{"traffic histograms far apart", "recording.tables[0].root.traffic.time", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "root", "traffic", "time", "bytes_read")["first"] = -1e15
	}},
	{"child traffic outside the recording's time", "recording.tables[0].root.children[0].traffic.time.ops.first", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "root", "children", 0, "traffic", "time", "ops")["first"] = 1e12
	}},
	{"unknown method name is text, not a count", "recording.tables[0].traffic.methods[0].calls: holds string", func(f map[string]any) {
		obj(f, "recording", "tables", 0, "traffic", "methods", 0)["calls"] = "\x1b]0;x\x07"
	}},
}

// TestDamagedRecordingsNameTheField: a recording file is checked as a
// snapshot file is, its traffic too.
func TestDamagedRecordingsNameTheField(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodeRecording(&buf, testRecording(t)); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := DecodeFile(bytes.NewReader(good)); err != nil {
		t.Fatalf("the undamaged recording: %v", err)
	}
	for _, tc := range damagedRecordings {
		file, err := snapshotjsonRead(good)
		if err != nil {
			t.Fatal(err)
		}
		tc.damage(file)
		_, err = DecodeFile(bytes.NewReader(gzipJSON(t, file)))
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: err = %v, want a damaged file naming %q", tc.name, err, tc.field)
		}
	}
}

// TestTruncatedRecordingSaysToRecordAgain: a recording cut short, in its
// compressed stream or in its JSON, is a truncated file whose advice is
// about recording, not scanning.
func TestTruncatedRecordingSaysToRecordAgain(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodeRecording(&buf, testRecording(t)); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var cutJSON bytes.Buffer
	zw := gzip.NewWriter(&cutJSON)
	zw.Write(body[:len(body)/2])
	zw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"cut stream": buf.Bytes()[:buf.Len()/2],
		"cut JSON":   cutJSON.Bytes(),
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "the recording was cut off") ||
			!strings.Contains(err.Error(), "record the traffic again") || strings.Contains(err.Error(), "scan the table") {
			t.Errorf("%s: %v; want a truncated recording and the advice to record again", name, err)
		}
	}
}
