package keyspace

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// FuzzDelimiters: delimiter detection picks only candidate delimiters,
// and any splitter cuts any key into non-empty segments that end in a
// delimiter (all but the last), hold no other, and concatenate back to
// the key; Field agrees with Segments.
func FuzzDelimiters(f *testing.F) {
	for _, seed := range []string{"user#1\nuser#2\nuser#3", "a:b/c|d\na:b", "2026-01-01\nx.y.z", "\x00#\xff\n#\n##", ""} {
		f.Add(seed, "#")
	}
	f.Add("k#1\nk#2", "\x00#:")
	f.Fuzz(func(t *testing.T, keyList, extra string) {
		keys := strings.Split(keyList, "\n")
		detected := DetectDelimiters(keys)
		for i := 0; i < len(detected); i++ {
			if strings.IndexByte(CandidateDelimiters, detected[i]) < 0 || strings.IndexByte(detected[i+1:], detected[i]) >= 0 {
				t.Fatalf("DetectDelimiters(%q) = %q: not distinct candidates", keys, detected)
			}
		}
		for _, delimiters := range []string{detected, extra} {
			s := NewSplitter(delimiters)
			for _, key := range keys {
				segments := s.Segments(key)
				if strings.Join(segments, "") != key {
					t.Fatalf("segments %q of %q (delimiters %q) do not concatenate back", segments, key, delimiters)
				}
				for i, seg := range segments {
					if seg == "" {
						t.Fatalf("empty segment in %q", segments)
					}
					inner := seg
					if i < len(segments)-1 || strings.IndexByte(delimiters, seg[len(seg)-1]) >= 0 {
						if strings.IndexByte(delimiters, seg[len(seg)-1]) < 0 {
							t.Fatalf("segment %q of %q does not end at a delimiter of %q", seg, key, delimiters)
						}
						inner = seg[:len(seg)-1]
					}
					if bytesAny(inner, delimiters) {
						t.Fatalf("segment %q of %q holds a delimiter of %q", seg, key, delimiters)
					}
					field, ok := s.Field(key, i)
					if !ok || field != inner {
						t.Fatalf("Field(%q, %d) = %q, %v; segment %q", key, i, field, ok, seg)
					}
				}
				if _, ok := s.Field(key, len(segments)); ok {
					t.Fatalf("Field(%q, %d) past the last segment", key, len(segments))
				}
			}
		}
	})
}

// bytesAny reports whether s holds any byte of set (ContainsAny works on
// runes, and would take two invalid bytes for the same U+FFFD).
func bytesAny(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			return true
		}
	}
	return false
}

// FuzzParseKey: a key as a user writes it (--prefix, --start, --end, /)
// either fails with an error naming the bad escape, or gives bytes whose
// printable form reads back to the same bytes.
func FuzzParseKey(f *testing.F) {
	for _, seed := range []string{`user#\x00`, `\x`, `\xZZ`, `\\`, `a\\b\x41`, `\`, "\x1b", `\xf`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, written string) {
		raw, err := ParseKey(written)
		if err != nil {
			if !strings.Contains(err.Error(), "bad escape") {
				t.Fatalf("ParseKey(%q): %v", written, err)
			}
			return
		}
		back, err := ParseKey(Printable(raw))
		if err != nil || back != raw {
			t.Fatalf("ParseKey(%q) = %q, which does not round-trip: %q, %v", written, raw, back, err)
		}
		if !strings.Contains(written, `\`) && raw != written {
			t.Fatalf("ParseKey(%q) = %q changed a key without escapes", written, raw)
		}
	})
}

// fuzzRows turns fuzz bytes into rows: keys from a small alphabet of
// letters, digits and delimiters (so that keys share prefixes and nest),
// cell timestamps anywhere in the int64 range, and weights and sizes
// from the bytes.
func fuzzRows(data []byte) []Row {
	const alphabet = "ab#:0z\x00\xff"
	var rows []Row
	for len(data) >= 12 && len(rows) < 300 {
		n := int(data[0]%12) + 1
		data = data[1:]
		key := make([]byte, 0, n)
		for i := 0; i < n && i < len(data); i++ {
			key = append(key, alphabet[data[i]%byte(len(alphabet))])
		}
		data = data[min(n, len(data)):]
		if len(data) < 11 {
			break
		}
		ts := int64(binary.LittleEndian.Uint64(data))
		if data[8]&1 == 0 {
			ts = ts % (1 << 40) // mostly times near one another
		}
		row := Row{Key: string(key), Weight: float64(data[9]%4 + 1), Cells: []Cell{{Family: "f", Qualifier: "q", Timestamp: ts, ValueBytes: int64(data[10])}}}
		if data[10]%5 == 0 {
			row.Cells = append(row.Cells, Cell{Family: "g", Qualifier: "v", Timestamp: ts / 2, ValueBytes: 1})
		}
		rows = append(rows, row)
		data = data[11:]
	}
	return rows
}

// FuzzBuilderAppend builds the same rows with one builder and as chunks
// appended in order, cut where the fuzzer says, with a small fan-out and
// node budget so that merging, pruning and time-grid coarsening happen.
// Both must keep the totals of the rows, and both must pass every check
// a snapshot file's reader makes. With delimiters to detect, the chunks
// share the ones detected once from the first rows, as a scan's do (see
// sampler's appender): every append must succeed whatever keys each
// chunk holds — chunks that detected their own once disagreed (":" and
// "" on the binary-sensor-keys table), and --max-rows failed.
func FuzzBuilderAppend(f *testing.F) {
	seed := make([]byte, 0, 600)
	for i := range 40 {
		seed = append(seed, byte(i%9), 'a', '#', byte(i), ':', byte(i*7), 0, 0, 0, 0, 0, 1, 0, byte(i), byte(i%3), byte(i*13))
	}
	f.Add(append([]byte{3, 4}, seed...))
	f.Add(append([]byte{1, 2}, bytes.Repeat([]byte{5, 1, 2, 3, 4, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3}, 30)...))
	// Two chunks to detect delimiters in (shape 0x84), as on the
	// binary-sensor-keys table: the first chunk's keys split at ":"
	// ("a:0:a"), the second's at nothing ("\x00\xff\x00z\x00").
	split := []byte{1, 0x84}
	for i := range 20 {
		key := []byte{0, 3, 4, 3, byte(i % 2)}
		if i >= 10 {
			key = []byte{6, 7, 6, 5, byte(6 + i%2)}
		}
		split = append(append(split, 4), key...)
		split = binary.LittleEndian.AppendUint64(split, uint64(1000+i))
		split = append(split, 0, 1, byte(i))
	}
	f.Add(split)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		cuts, shape := data[0], data[1]
		rows := fuzzRows(data[2:])
		opts := Options{Delimiters: "#:", MaxChildren: 2 + int(shape%6), MaxDepth: 1 + int(shape/6%4), MaxNodes: 8 + int(shape), TopRows: 3, NodeTopRows: 2, SampleSize: 5}
		whole := NewBuilder(&Snapshot{Table: "t", Families: []string{"f", "g"}}, opts)
		if shape&0x80 != 0 {
			// One builder detects from its first rows; the chunks share
			// what was detected once from the first rows read.
			detect := opts
			detect.Delimiters = ""
			whole = NewBuilder(&Snapshot{Table: "t", Families: []string{"f", "g"}}, detect)
			keys := make([]string, 0, len(rows))
			for i := range rows[:min(len(rows), defaultDetectRows)] {
				keys = append(keys, rows[i].Key)
			}
			opts.Delimiters, opts.DelimitersDecided = DetectDelimiters(keys), true
		}
		chunked := NewBuilder(&Snapshot{Table: "t", Families: []string{"f", "g"}}, opts)
		var want Stats
		chunks := int(cuts%5) + 1
		for c := range chunks {
			sub := NewBuilder(&Snapshot{Table: "t", Families: []string{"g", "f"}[c%2:]}, opts)
			for i := c * len(rows) / chunks; i < (c+1)*len(rows)/chunks; i++ {
				whole.Add(&rows[i])
				sub.Add(&rows[i])
				want.Rows += rows[i].Weight
				want.Cells += rows[i].Weight * float64(len(rows[i].Cells))
			}
			if err := chunked.Append(sub); err != nil {
				t.Fatalf("chunk %d of %d (delimiters %q): %v", c+1, chunks, opts.Delimiters, err)
			}
		}
		for name, snap := range map[string]*Snapshot{"one builder": whole.Snapshot(), "appended chunks": chunked.Snapshot()} {
			if math.Abs(snap.Root.Rows-want.Rows) > 1e-6 || math.Abs(snap.Root.Cells-want.Cells) > 1e-6 {
				t.Fatalf("%s: %v rows and %v cells, want %v and %v", name, snap.Root.Rows, snap.Root.Cells, want.Rows, want.Cells)
			}
			if snap.Root.Writes.Total() != 0 && math.Abs(snap.Root.Writes.Total()-want.Cells) > 1e-6 {
				t.Fatalf("%s: histogram holds %v cells, want %v", name, snap.Root.Writes.Total(), want.Cells)
			}
			if err := snap.validate("snapshot"); err != nil {
				t.Fatalf("%s: its own snapshot fails the reader's checks: %v", name, err)
			}
		}
	})
}
