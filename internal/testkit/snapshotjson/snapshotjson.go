// Package snapshotjson reads a snapshot file's JSON as generic values and
// writes it back, for tests that damage snapshot files on purpose: change
// one value with [Object], write the file with [Write], and check what
// btviz makes of it. It knows only the file's outer layers (gzip, JSON),
// not package keyspace, so keyspace's own tests can use it.
package snapshotjson

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// Read decompresses a snapshot file and decodes its JSON object.
func Read(r io.Reader) (map[string]any, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("reading a snapshot file: %w", err)
	}
	defer zr.Close()
	var file map[string]any
	if err := json.NewDecoder(zr).Decode(&file); err != nil {
		return nil, fmt.Errorf("reading a snapshot file: %w", err)
	}
	return file, nil
}

// Write encodes a file's JSON and compresses it as a snapshot file is.
func Write(file any) ([]byte, error) {
	body, err := json.Marshal(file)
	if err != nil {
		return nil, fmt.Errorf("writing a snapshot file: %w", err)
	}
	return Gzip(body), nil
}

// Gzip wraps body in a gzip stream without compressing it: the cheapest
// valid file around a JSON body.
func Gzip(body []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	zw.Write(body)
	zw.Close()
	return buf.Bytes()
}

// Clone returns a deep copy of a generic JSON value, so that a test can
// damage many copies of one file it read once.
func Clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, member := range v {
			out[k] = Clone(member)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, element := range v {
			out[i] = Clone(element)
		}
		return out
	default:
		return v
	}
}

// Value walks a generic JSON value along object member names (strings)
// and array indexes (ints) and returns what it reaches; it panics on a
// path the value does not have, which in a test is a mistake in the test.
func Value(v any, path ...any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		default:
			panic(fmt.Sprintf("snapshotjson: path step %v is neither a name nor an index", step))
		}
	}
	return v
}

// Object is [Value] for a path that reaches an object, to change its
// members.
func Object(v any, path ...any) map[string]any { return Value(v, path...).(map[string]any) }
