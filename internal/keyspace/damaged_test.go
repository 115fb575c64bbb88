package keyspace

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/testkit/snapshotjson"
)

// fileJSON returns a valid snapshot file's JSON as generic values to
// damage: the envelope, with "snapshot" holding the snapshot.
func fileJSON(t testing.TB, snap *Snapshot) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, snap); err != nil {
		t.Fatal(err)
	}
	file, err := snapshotjson.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// gzipJSON encodes v as a snapshot file would be: JSON, gzip-compressed.
func gzipJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := snapshotjson.Write(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var obj = snapshotjson.Object

// snapshotjsonRead reads a file's JSON from its bytes.
func snapshotjsonRead(data []byte) (map[string]any, error) {
	return snapshotjson.Read(bytes.NewReader(data))
}

// damagedFiles are the kinds of damage a snapshot file is checked for:
// each changes one value of a valid file and names the field the error
// must give.
var damagedFiles = []struct {
	name, field string
	damage      func(file map[string]any)
}{
	{"null child", "snapshot.root.children[2]: null", func(f map[string]any) {
		obj(f, "snapshot", "root")["children"].([]any)[2] = nil
	}},
	{"null root", "snapshot.root: missing", func(f map[string]any) { obj(f, "snapshot")["root"] = nil }},
	{"null snapshot", "snapshot: missing", func(f map[string]any) { f["snapshot"] = nil }},
	{"root histogram far in the past", "snapshot.root.writes.first", func(f map[string]any) {
		obj(f, "snapshot", "root")["writes"] = map[string]any{"first": -1e15, "counts": []any{1, 2, 3}}
	}},
	{"root histogram moved", "snapshot.root.first_write", func(f map[string]any) {
		writes := obj(f, "snapshot", "root", "writes")
		writes["first"] = writes["first"].(float64) - 1000
	}},
	{"child histogram outside the table's", "snapshot.root.children[1].writes.first", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 1, "writes")["first"] = 5e12
	}},
	{"time grid beyond int64", "snapshot.root.writes.first", func(f map[string]any) {
		obj(f, "snapshot")["time_bucket_micros"] = 1e6
		obj(f, "snapshot", "root", "writes")["first"] = 1e15
	}},
	{"negative count", "snapshot.root.children[1].rows: -5", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 1)["rows"] = -5
	}},
	{"1e308 bytes", "snapshot.root.bytes: 1e+308", func(f map[string]any) { obj(f, "snapshot", "root")["bytes"] = 1e308 }},
	{"1e308 in an integer", "snapshot.root.max_row_bytes: holds number 1e+308", func(f map[string]any) {
		obj(f, "snapshot", "root")["max_row_bytes"] = 1e308
	}},
	{"inverted write times", "snapshot.root.children[0].last_write", func(f map[string]any) {
		child := obj(f, "snapshot", "root", "children", 0)
		child["first_write"], child["last_write"] = child["last_write"], child["first_write"].(float64)-1e9
	}},
	{"string for a number", "snapshot.root.children[3].cells: holds string", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 3)["cells"] = "many"
	}},
	{"unknown node kind", "snapshot.root.children[4].kind: unknown node kind", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 4)["kind"] = "\x1b]0;TITLE\x07"
	}},
	{"unknown scan mode", "snapshot.scan.mode: unknown scan mode", func(f map[string]any) {
		obj(f, "snapshot", "scan")["mode"] = "\x1b]0;TITLE\x07\x1b]52;c;aGk=\x07"
	}},
	{"unknown sample method", "snapshot.scan.method", func(f map[string]any) { obj(f, "snapshot", "scan")["method"] = "guess" }},
	{"unknown source", "snapshot.source", func(f map[string]any) { obj(f, "snapshot")["source"] = "\u202ebigtable" }},
	{"fraction above one", "snapshot.scan.fraction", func(f map[string]any) { obj(f, "snapshot", "scan")["fraction"] = 2 }},
	{"negative rows read", "snapshot.scan.rows_read", func(f map[string]any) { obj(f, "snapshot", "scan")["rows_read"] = -1 }},
	{"bad key escape", "snapshot.root.children[0].prefix", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 0)["prefix"] = `dev\xZZ`
	}},
	{"too many histogram buckets", "snapshot.root.writes.counts: 100000 buckets", func(f map[string]any) {
		counts := make([]any, 100000)
		for i := range counts {
			counts[i] = 0
		}
		obj(f, "snapshot", "root", "writes")["counts"] = counts
	}},
	{"zero bucket width", "snapshot.time_bucket_micros", func(f map[string]any) { obj(f, "snapshot")["time_bucket_micros"] = 0 }},
	{"children out of order", "snapshot.root.children[1].start", func(f map[string]any) {
		children := obj(f, "snapshot", "root")["children"].([]any)
		children[0], children[1] = children[1], children[0]
	}},
	{"child outside its parent", "snapshot.root.children[0].children[0]", func(f map[string]any) {
		grandchild := obj(f, "snapshot", "root", "children", 0, "children", 0)
		grandchild["start"], grandchild["end"] = "a", "b"
	}},
	{"children hold more than their parent", "snapshot.root.rows", func(f map[string]any) { obj(f, "snapshot", "root")["rows"] = 3 }},
	{"children wrote more than their parent", "snapshot.root.writes", func(f map[string]any) {
		counts := obj(f, "snapshot", "root", "writes")["counts"].([]any)
		counts[len(counts)-1] = 0.5
	}},
	{"wrong child depth", "snapshot.root.children[2].depth", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 2)["depth"] = 7
	}},
	{"row node with children", "snapshot.root.children[0].children[0].children", func(f map[string]any) {
		grandchild := obj(f, "snapshot", "root", "children", 0, "children", 0)
		grandchild["kind"] = "row"
		grandchild["children"] = []any{map[string]any{"kind": "row"}}
	}},
	{"family mask beyond the families", "snapshot.root.family_mask", func(f map[string]any) {
		obj(f, "snapshot", "root")["family_mask"] = []any{1, 1, 1}
	}},
	{"overlapping ranges", "snapshot.ranges[1].start", func(f map[string]any) {
		obj(f, "snapshot", "ranges", 1)["start"] = "a"
	}},
	{"negative sample weight", "snapshot.sample[3].weight", func(f map[string]any) {
		obj(f, "snapshot", "sample", 3)["weight"] = -1
	}},
	{"largest row written before its first write", "snapshot.largest[0].last_write", func(f map[string]any) {
		row := obj(f, "snapshot", "largest", 0)
		row["last_write"] = row["first_write"].(float64) - 1000
	}},
	{"scan end before start", "snapshot.scan.end", func(f map[string]any) {
		scan := obj(f, "snapshot", "scan")
		scan["start"], scan["end"] = "z", "a"
	}},
	{"negative tree depth", "snapshot.tree_depth", func(f map[string]any) { obj(f, "snapshot")["tree_depth"] = -1 }},
	{"too many delimiters", "snapshot.delimiters", func(f map[string]any) { obj(f, "snapshot")["delimiters"] = strings.Repeat("#", 300) }},
	{"families not a list", "snapshot.families: holds string", func(f map[string]any) { obj(f, "snapshot")["families"] = "cf" }},
	{"started not a time", "snapshot.scan.started", func(f map[string]any) { obj(f, "snapshot", "scan")["started"] = "yesterday" }},
	// A count of 2^63-1 rows printed as -9,223,372,036,854,775,808 rows
	// once rounded through a float; 9.2e18 bytes as "9223 PB".
	{"rows estimated at 2^63-1", "snapshot.scan.rows_estimated: 9223372036854775807 is not a count", func(f map[string]any) {
		obj(f, "snapshot", "scan")["rows_estimated"] = json.Number("9223372036854775807")
	}},
	{"bytes estimated beyond any table", "snapshot.scan.bytes_estimated: 9223000000000000000 is not a count", func(f map[string]any) {
		obj(f, "snapshot", "scan")["bytes_estimated"] = json.Number("9223000000000000000")
	}},
	{"interval bounds the wrong way round", "snapshot.scan.rows_estimated: 0 is not inside its 95% interval [90000, 5]", func(f map[string]any) {
		scan := obj(f, "snapshot", "scan")
		scan["rows_estimated_low"], scan["rows_estimated_high"] = 90000, 5
	}},
	{"estimate above its interval", "snapshot.scan.bytes_estimated", func(f map[string]any) {
		scan := obj(f, "snapshot", "scan")
		scan["bytes_estimated_low"], scan["bytes_estimated_high"] = 1, 2
	}},
	{"negative interval end", "snapshot.scan.rows_estimated_low", func(f map[string]any) { obj(f, "snapshot", "scan")["rows_estimated_low"] = -1 }},
	// A null item of a list decoded as an empty row, drawn as a 0 B row.
	{"null largest row", "snapshot.largest[0]: null in a list", func(f map[string]any) { obj(f, "snapshot")["largest"].([]any)[0] = nil }},
	{"null top row of a node", "snapshot.root.top[1]: null in a list", func(f map[string]any) { obj(f, "snapshot", "root")["top"].([]any)[1] = nil }},
	{"null sampled row", "snapshot.sample[2]: null in a list", func(f map[string]any) { obj(f, "snapshot")["sample"].([]any)[2] = nil }},
	{"null top column", "snapshot.largest[0].top_columns[0]: null in a list", func(f map[string]any) {
		obj(f, "snapshot", "largest", 0)["top_columns"].([]any)[0] = nil
	}},
	{"null family", "snapshot.families[0]: null in a list", func(f map[string]any) { obj(f, "snapshot")["families"].([]any)[0] = nil }},
	{"null bucket count", "snapshot.root.writes.counts[0]: null in a list", func(f map[string]any) {
		obj(f, "snapshot", "root", "writes")["counts"].([]any)[0] = nil
	}},
	{"null range", "snapshot.ranges[1]: null in a list", func(f map[string]any) { obj(f, "snapshot")["ranges"].([]any)[1] = nil }},
	// A row key is at most 4 KiB on Cloud Bigtable; a file holds none over
	// 64 KiB (see maxFileKeyBytes).
	{"5 MB key", "snapshot.largest[0].key: a key of more than 65536 bytes", func(f map[string]any) {
		obj(f, "snapshot", "largest", 0)["key"] = strings.Repeat("k", 5<<20)
	}},
	{"key just over the limit", "snapshot.root.children[0].last_key: a key of 65537 bytes", func(f map[string]any) {
		obj(f, "snapshot", "root", "children", 0)["last_key"] = strings.Repeat("k", 1<<16+1)
	}},
}

// TestDamagedFilesNameTheField: every kind of damage is refused as a
// damaged file (not a crash, not a picture of nonsense), and the error
// names the field by its JSON path.
func TestDamagedFilesNameTheField(t *testing.T) {
	// A small file: each case encodes and decodes all of it (under -race,
	// 500 rows made this the package's slowest test).
	good := fileJSON(t, testSnapshotOf(t, 40))
	for _, tc := range damagedFiles {
		file := snapshotjson.Clone(good).(map[string]any)
		tc.damage(file)
		_, err := Decode(bytes.NewReader(gzipJSON(t, file)))
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: err = %v, want a damaged file", tc.name, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), "scan the table (or record the traffic) again") {
			t.Errorf("%s: error %q does not name %q and say what to do", tc.name, err, tc.field)
		}
	}
}

// TestDamagedFileErrorsEscapeAsEveryOutputDoes: a damaged file's error
// writes the value it names by the one rule every output follows
// (escape.Text: \x07, \xe2\x80\xae, \xc2\x9b), not Go's %q (\a, \u202e,
// \u009b); a bad escape in a long key is quoted around the escape, not in
// full.
func TestDamagedFileErrorsEscapeAsEveryOutputDoes(t *testing.T) {
	const hostile = "\x1b]0;PWNED\a\u202e\u009b"
	for _, tc := range []struct {
		name, want string
		damage     func(file map[string]any)
	}{
		{"scan mode", `snapshot.scan.mode: unknown scan mode "\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b"`, func(f map[string]any) { obj(f, "snapshot", "scan")["mode"] = hostile }},
		{"source", `unknown source "\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b"`, func(f map[string]any) { obj(f, "snapshot")["source"] = hostile }},
		{"sample method", `unknown sample method "\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b"`, func(f map[string]any) { obj(f, "snapshot", "scan")["method"] = hostile }},
		{"node kind", `unknown node kind "\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b"`, func(f map[string]any) { obj(f, "snapshot", "root", "children", 0)["kind"] = hostile }},
		{"format", `format "\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b"`, func(f map[string]any) { f["format"] = hostile }},
		{"key", `key "…aaaaaaaaa\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b\xZZbbbbbbbbbbbbbbbbbbbb…": bad escape at byte 5015`, func(f map[string]any) {
			obj(f, "snapshot", "largest", 0)["key"] = strings.Repeat("a", 5000) + hostile + `\xZZ` + strings.Repeat("b", 5000)
		}},
	} {
		file := fileJSON(t, testSnapshot(t))
		tc.damage(file)
		_, err := Decode(bytes.NewReader(gzipJSON(t, file)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
			continue
		}
		if strings.ContainsAny(err.Error(), "\x1b\a\u202e\u009b") || strings.Contains(err.Error(), `\u`) || len(err.Error()) > 1000 {
			t.Errorf("%s: %q", tc.name, err)
		}
	}
}

// TestDeeplyNestedFileIsRefused: children nested thousands deep are
// refused before anything recurses over them.
func TestDeeplyNestedFileIsRefused(t *testing.T) {
	file := fileJSON(t, testSnapshot(t))
	node := obj(file, "snapshot", "root", "children", 0)
	for i := range 6000 {
		child := map[string]any{"kind": "prefix", "depth": i + 2, "start": node["start"], "end": node["end"]}
		node["children"] = []any{child}
		node = child
	}
	_, err := Decode(bytes.NewReader(gzipJSON(t, file)))
	if !errors.Is(err, ErrNotSnapshot) && !errors.Is(err, ErrDamaged) {
		t.Fatalf("err = %v", err)
	}
}

// TestUndamagedFileStillLoads: the damage above is what fails, not the
// round trip through generic JSON.
func TestUndamagedFileStillLoads(t *testing.T) {
	if _, err := Decode(bytes.NewReader(gzipJSON(t, fileJSON(t, testSnapshot(t))))); err != nil {
		t.Fatal(err)
	}
}

// TestOversizedFileIsRefusedQuickly: a small gzip of a huge body (512 MB
// of whitespace in 0.5 MB) is refused in well under a second, without
// holding the body, and the limit can be raised.
func TestOversizedFileIsRefusedQuickly(t *testing.T) {
	// A bomb of twice the limit: the reader stops at the limit, having held
	// little of it. The limit is 16 MB here, not the default 256 MB, so
	// that the test writes 32 MB, not 512 MB; the mechanism is the same.
	const limit = 16 << 20
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	block := bytes.Repeat([]byte(" "), 1<<20)
	for range 2 * limit >> 20 {
		zw.Write(block)
	}
	zw.Write([]byte(`{"format":"btviz-snapshot","version":1}`))
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.btviz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Reader{MaxBytes: limit, LimitHint: "set BTVIZ_MAX_SNAPSHOT_MB"}.Load(path)
	runtime.ReadMemStats(&after)
	t.Logf("refused with %d kB allocated", (after.TotalAlloc-before.TotalAlloc)>>10)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 16<<20 {
		t.Errorf("refusing the file allocated %d MB", allocated>>20)
	}
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "BTVIZ_MAX_SNAPSHOT_MB") || !strings.Contains(err.Error(), "16 MB") {
		t.Fatalf("err = %v, want too large with the limit and the hint", err)
	}
	if DefaultMaxFileBytes != 256<<20 {
		t.Errorf("the default limit is %d bytes; the README and the hint say 256 MB", DefaultMaxFileBytes)
	}
	small := filepath.Join(t.TempDir(), "small.btviz")
	if err := Save(small, testSnapshot(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := (Reader{MaxBytes: 1 << 10}).Load(small); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a 1 kB limit let a larger file through: %v", err)
	}
	if _, err := (Reader{MaxBytes: 1 << 30}).Load(small); err != nil {
		t.Fatal(err)
	}
}

// TestMissingAndEmptyFilesSayWhatTheyAre: a missing file says so and
// what to give instead (it was a bare "stat …: no such file or
// directory"); an empty file is called empty, not "not gzip-compressed",
// whether read from a path or a stream.
func TestMissingAndEmptyFilesSayWhatTheyAre(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(filepath.Join(dir, "missing.btviz"))
	if err == nil || !strings.Contains(err.Error(), "missing.btviz: no such file; give the path of a file that `btviz scan --out FILE`") || strings.Contains(err.Error(), "stat ") {
		t.Errorf("missing: %v", err)
	}
	empty := filepath.Join(dir, "empty.btviz")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(empty)
	if !errors.Is(err, ErrNotSnapshot) || !strings.Contains(err.Error(), "empty.btviz is empty (0 bytes)") || strings.Contains(err.Error(), "gzip") {
		t.Errorf("empty file: %v", err)
	}
	if _, err := Decode(bytes.NewReader(nil)); !errors.Is(err, ErrNotSnapshot) || !strings.Contains(err.Error(), "it is empty (0 bytes)") {
		t.Errorf("empty stream: %v", err)
	}
}

// TestDirectoryIsCalledADirectory: a directory given as a snapshot is
// not "not gzip-compressed".
func TestDirectoryIsCalledADirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "is a directory") || strings.Contains(err.Error(), "gzip") {
		t.Fatalf("err = %v", err)
	}
}
