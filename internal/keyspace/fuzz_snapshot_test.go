package keyspace_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/export"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/testkit/snapshotjson"
	"github.com/btviz/btviz/internal/view"
)

// fuzzSnapshotJSON is the JSON of a small, valid snapshot file that the
// snapshot fuzz targets damage: every kind of node (prefix, row, range),
// two tablets, top and most versioned rows, a sample, two families, a
// binary key, a row with versions and a 95% interval. It is kept as small
// as that allows: 12 KB and 777 values to damage (it was 18.7 KB and
// 1,698, mostly the zeros of 120 time buckets in every node, when the
// writes spanned a minute); with the copy of the parsed file each input
// starts from, an input costs 2.7 ms rather than 7.1.
func fuzzSnapshotJSON(t testing.TB) []byte {
	t.Helper()
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz", Table: "events",
		Families: []string{"cf", "meta"},
		Ranges:   []keyspace.Range{{End: "m", SampledBytes: 4000}, {Start: "m", SampledBytes: 9000}},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeSample, Method: keyspace.MethodSpans, Fraction: 0.5, Complete: true, ValuesRead: true,
			Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Duration: time.Second}}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#", MaxChildren: 4, TopRows: 2, SampleSize: 4})
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 9 {
		key := fmt.Sprintf("user%d#%03d", i%3, i)
		if i%7 == 0 {
			key = fmt.Sprintf("z\x00%d", i)
		}
		cells := []keyspace.Cell{{Family: "cf", Qualifier: "q", Timestamp: at.Add(time.Duration(i%4) * time.Millisecond).UnixMicro(), ValueBytes: int64(10 * i)}}
		if i == 5 {
			cells = append(cells, keyspace.Cell{Family: "meta", Qualifier: "v", Timestamp: at.UnixMicro(), ValueBytes: 1},
				keyspace.Cell{Family: "meta", Qualifier: "v", Timestamp: at.Add(3 * time.Millisecond).UnixMicro(), ValueBytes: 1})
		}
		b.Add(&keyspace.Row{Key: key, Weight: 2, Cells: cells})
	}
	snap := b.Snapshot()
	snap.Scan.RowsEstimated, snap.Scan.RowsEstimatedLow, snap.Scan.RowsEstimatedHigh = 18, 15, 22
	return fileBody(t, func(w io.Writer) error { return keyspace.Encode(w, snap) })
}

// fileBody returns the JSON that encode writes as a file, decompressed.
func fileBody(t testing.TB, encode func(w io.Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := encode(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

var gzipped = snapshotjson.Gzip

// fuzzRecordingJSON is the JSON of a small, valid traffic recording:
// point reads, a scan and writes on a few keys.
func fuzzRecordingJSON(t testing.TB) []byte {
	t.Helper()
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started, Delimiters: "#"}, keyspace.Options{})
	for i := range 12 {
		key := keyspace.Key(fmt.Sprintf("user%d#%d", i%3, i%4))
		op := keyspace.Op{Time: started.Add(time.Duration(i) * time.Second), Table: "t", Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 50}}}
		if i%3 == 1 {
			op.Method, op.RowsRead, op.RowsWritten = keyspace.MethodMutateRow, nil, []keyspace.RowIO{{Key: key, Bytes: 5}}
		}
		if i%4 == 2 {
			op.Keys, op.Ranges = nil, []keyspace.KeyRange{{Start: "user1#", End: "user1$"}}
		}
		r.Add(&op)
	}
	return fileBody(t, func(w io.Writer) error {
		return keyspace.EncodeRecording(w, r.Recording(started.Add(time.Minute), true))
	})
}

// decodeOrUse reads a file's body. A refusal must be one of the errors
// Decode documents; a snapshot it accepts must draw, diagnose and report
// without a panic and in bounded time, whatever its values.
func decodeOrUse(t *testing.T, body []byte) {
	t.Helper()
	file, err := keyspace.DecodeFile(bytes.NewReader(gzipped(body)))
	if err != nil {
		if !errors.Is(err, keyspace.ErrNotSnapshot) && !errors.Is(err, keyspace.ErrDamaged) &&
			!errors.Is(err, keyspace.ErrTruncated) && !errors.Is(err, keyspace.ErrNewerVersion) {
			t.Fatalf("Decode failed with an error of no documented kind: %v", err)
		}
		var field *keyspace.FieldError
		if errors.Is(err, keyspace.ErrDamaged) && (!errors.As(err, &field) || !strings.HasPrefix(field.Path, "snapshot") && !strings.HasPrefix(field.Path, "recording")) {
			t.Fatalf("a damaged file's error names no field: %v", err)
		}
		return
	}
	for _, snap := range file.Snapshots() {
		use(t, snap)
	}
}

// use runs a snapshot through the consumers a command would: the
// heatmap in every bucketing, a TUI frame of every view (as export draws
// it), the reports and a diff. (Two metrics rather than all: the fuzzer
// runs more inputs.)
func use(t *testing.T, snap *keyspace.Snapshot) {
	t.Helper()
	findings := diagnose.Diagnose(snap)
	for _, bucketing := range heatmap.Bucketings() {
		for _, metric := range []heatmap.Metric{heatmap.MetricWrites, heatmap.MetricMaxRow} {
			m, err := heatmap.Build(snap, heatmap.View{Rows: 12, Columns: 30, Bucketing: bucketing, Metric: metric})
			if err != nil {
				continue // e.g. no tablet map for tablet bucketing
			}
			for _, b := range m.Buckets {
				for _, v := range b.Values {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("%s %s: bucket %q holds %v", bucketing, metric, b.Label, v)
					}
				}
			}
		}
	}
	for _, pane := range view.Panes() {
		err := export.Render(io.Discard, snap, findings, export.Options{Format: artifact.FormatText, View: pane, Width: export.MinWidth, Height: export.MinHeight})
		if err != nil && !errors.Is(err, export.ErrCannotDraw) { // a view of traffic for a scan, say
			t.Fatalf("export of the %s view: %v", pane, err)
		}
	}
	for _, format := range []report.Format{report.FormatText, report.FormatJSON, report.FormatMarkdown} {
		if _, err := report.Render(format, report.Input{Snapshot: snap, Findings: findings, FromFile: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := keyspace.Diff(snap, snap, keyspace.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
}

// slot is one place in a generic JSON document that a value can be put.
type slot struct {
	get func() any
	set func(any)
}

// nthSlot returns value n of doc, counting containers and leaves in a
// fixed order (object members by name), as a place to put another value;
// with n past the last it returns false and how many there are.
func nthSlot(doc *any, n int) (slot, int, bool) {
	seen := 0
	var found slot
	var walk func(get func() any, set func(any)) bool
	walk = func(get func() any, set func(any)) bool {
		if seen == n {
			found = slot{get, set}
			return true
		}
		seen++
		switch v := get().(type) {
		case map[string]any:
			names := make([]string, 0, len(v))
			for name := range v {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				if walk(func() any { return v[name] }, func(x any) { v[name] = x }) {
					return true
				}
			}
		case []any:
			for i := range v {
				if walk(func() any { return v[i] }, func(x any) { v[i] = x }) {
					return true
				}
			}
		}
		return false
	}
	ok := walk(func() any { return *doc }, func(x any) { *doc = x })
	return found, seen, ok
}

// mutate puts a value chosen by kind into s: a number, its negation, a
// huge or tiny one, text, null, a boolean, an empty or one-element array,
// an empty object, or, for an array, one of its elements dropped or
// repeated.
// finite keeps a mutated number one JSON can hold: an overflow to ±Inf
// becomes ±1e308 (a file cannot hold infinities, so no reader sees them).
func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.Copysign(1e308, x)
	}
	return x
}

func mutate(s slot, kind uint8, number float64, text string) {
	if math.IsNaN(number) || math.IsInf(number, 0) {
		number = 1e308
	}
	switch kind % 14 {
	case 0:
		s.set(number)
	case 1:
		s.set(-number)
	case 2:
		s.set(1e308)
	case 3:
		s.set(finite(math.Trunc(number) * 1e15))
	case 4:
		s.set(text)
	case 5:
		s.set(nil)
	case 6:
		s.set(true)
	case 7:
		s.set([]any{})
	case 8:
		s.set([]any{number})
	case 9:
		s.set(map[string]any{})
	case 10, 11:
		if list, ok := s.get().([]any); ok && len(list) > 0 {
			i := int(uint64(math.Abs(number)) % uint64(len(list)))
			if kind%14 == 10 {
				s.set(slices.Delete(slices.Clone(list), i, i+1))
			} else {
				s.set(slices.Insert(slices.Clone(list), i, list[i]))
			}
		}
	case 12:
		if f, ok := s.get().(float64); ok {
			s.set(finite(f + number))
		}
	case 13:
		if str, ok := s.get().(string); ok {
			s.set(str + text)
		}
	}
}

// FuzzDecodeSnapshot damages one value of a valid snapshot file at a time
// (structured: the fuzzer picks which value and what goes there) and
// checks that Decode refuses it with an error that names the field, or
// accepts a snapshot every command can use. The input's first two bytes
// pick the value, the third what to put there, the next eight a number
// and the rest a text.
func FuzzDecodeSnapshot(f *testing.F) { fuzzDamaging(f, fuzzSnapshotJSON(f), 37) }

// fuzzDamaging runs a fuzz target that damages one value of body, a
// valid file's JSON, at a time: the input's first two bytes pick the
// value, the third what to put there, the next eight a number and the
// rest a text. The seeds damage values step apart.
func fuzzDamaging(f *testing.F, body []byte, step int) {
	for i, kind := range []uint8{0, 1, 2, 4, 5, 9, 10, 11, 12} {
		seed := binary.LittleEndian.AppendUint16(nil, uint16(i*step))
		seed = append(seed, kind)
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(-1e15))
		f.Add(append(seed, "\x1b]0;x\x07"...))
	}
	var pristine any
	if err := json.Unmarshal(body, &pristine); err != nil {
		f.Fatal(err)
	}
	_, values, _ := nthSlot(&pristine, math.MaxInt)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 11 {
			return
		}
		at, kind := binary.LittleEndian.Uint16(data), data[2]
		number, text := math.Float64frombits(binary.LittleEndian.Uint64(data[3:])), string(data[11:])
		doc := deepCopy(pristine) // cheaper than parsing the body again
		target, _, _ := nthSlot(&doc, int(at)%values)
		mutate(target, kind, number, text)
		damaged, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		decodeOrUse(t, damaged)
	})
}

// deepCopy copies a generic JSON value, so that a mutation of the copy
// leaves v as it was.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for name, member := range v {
			c[name] = deepCopy(member)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, item := range v {
			c[i] = deepCopy(item)
		}
		return c
	}
	return v
}

// FuzzDecodeSnapshotJSON feeds Decode arbitrary bytes as a file's JSON,
// starting from a valid one.
func FuzzDecodeSnapshotJSON(f *testing.F) {
	f.Add(fuzzSnapshotJSON(f))
	f.Add([]byte(`{"format":"btviz-snapshot","version":1,"snapshot":{"time_bucket_micros":1000,"root":{"kind":"prefix","children":[null]}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeOrUse(t, body)
	})
}

// FuzzDecodeRecordingJSON feeds the file reader arbitrary bytes as a
// recording's JSON, starting from a valid one.
func FuzzDecodeRecordingJSON(f *testing.F) {
	f.Add(fuzzRecordingJSON(f))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeOrUse(t, body)
	})
}
