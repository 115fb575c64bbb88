package keyspace_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// fuzzTablesJSON is the JSON of a small valid recording of three tables:
// one of point reads, scans and writes; one whose only calls named no
// key (SampleRowKeys, as a client does before it reads); and one of a
// single failed call.
func fuzzTablesJSON(t testing.TB) []byte {
	t.Helper()
	started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: started, Delimiters: "#"}, keyspace.Options{})
	for i := range 9 {
		key := keyspace.Key(fmt.Sprintf("user%d#%d", i%3, i%4))
		op := keyspace.Op{Time: started.Add(time.Duration(i) * time.Second), Table: "events", Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 50}}}
		switch i % 3 {
		case 1:
			op.Method, op.RowsRead, op.RowsWritten = keyspace.MethodMutateRow, nil, []keyspace.RowIO{{Key: key, Bytes: 5}}
		case 2:
			op.Keys, op.Ranges = nil, []keyspace.KeyRange{{Start: "user1#", End: "user1$"}}
		}
		r.Add(&op)
	}
	r.Add(&keyspace.Op{Time: started, Table: "keys-only", Method: keyspace.MethodSampleRowKeys})
	r.Add(&keyspace.Op{Time: started.Add(time.Second), Table: "failed", Method: keyspace.MethodMutateRow,
		Keys: []keyspace.Key{"a"}, Code: 3})
	return fileBody(t, func(w io.Writer) error {
		return keyspace.EncodeRecording(w, r.Recording(started.Add(time.Minute), false))
	})
}

// TestRecordedTablesWithoutKeysAreUsable: a table whose only calls named
// no key (SampleRowKeys) reads back and draws, reports and diagnoses, as
// a file of an older btviz with no traffic in such a table's tree does,
// and as one with no traffic in any node.
func TestRecordedTablesWithoutKeysAreUsable(t *testing.T) {
	body := fuzzTablesJSON(t)
	decodeOrUse(t, body)
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	tables := doc["recording"].(map[string]any)["tables"].([]any)
	if len(tables) != 3 {
		t.Fatalf("%d tables recorded, want 3", len(tables))
	}
	for _, table := range tables {
		var strip func(node map[string]any)
		strip = func(node map[string]any) {
			delete(node, "traffic")
			children, _ := node["children"].([]any)
			for _, c := range children {
				strip(c.(map[string]any))
			}
		}
		strip(table.(map[string]any)["root"].(map[string]any))
	}
	stripped, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file, err := keyspace.DecodeFile(bytes.NewReader(gzipped(stripped)))
	if err != nil {
		t.Fatalf("a recording with no traffic in its trees: %v", err)
	}
	for _, snap := range file.Snapshots() {
		use(t, snap)
	}
}

// FuzzDecodeRecording damages one value of a valid recording of three
// tables at a time, as [FuzzDecodeSnapshot] does a snapshot's: the
// reader refuses it naming the field (or leaves out the damaged table),
// or every command can use what it accepts.
func FuzzDecodeRecording(f *testing.F) { fuzzDamaging(f, fuzzTablesJSON(f), 53) }
