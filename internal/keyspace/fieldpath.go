package keyspace

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// locateDecodeError finds the first value of body (JSON for a value of
// type t) that encoding/json cannot store, and names it by its path from
// path ("snapshot.root.children[3].writes.first"), which encoding/json's
// own errors do not. It walks the JSON alongside the type and decodes
// each leaf on its own, so it is slow; Decode calls it only once a decode
// has failed. It returns nil when every value decodes.
func locateDecodeError(body []byte, t reflect.Type, path string) *FieldError {
	return jsonWalk{leaf: decodeLeaf}.walk(body, t, path)
}

// locateNullItem finds the first null that is an item of a list of a
// field btviz reads (body is JSON for a value of type t, which decodes):
// encoding/json stores it as a zero value — an empty row, a count of 0,
// an empty family name — where the file meant nothing, and a node list
// as a missing node. Lists of fields btviz does not know are not looked
// into. It is slow; Decode calls it only when [hasNullItem] found one.
func locateNullItem(body []byte, t reflect.Type, path string) *FieldError {
	return jsonWalk{nullItems: true}.walk(body, t, path)
}

// jsonWalk walks JSON alongside the Go type it decodes into, checking
// the values of the fields that type has: with leaf, every value that
// decodes as a whole; with nullItems, that no list item is null.
type jsonWalk struct {
	leaf      func(body []byte, t reflect.Type, path string) *FieldError
	nullItems bool
}

func (w jsonWalk) walk(body []byte, t reflect.Type, path string) *FieldError {
	if isLeaf(t) {
		return w.atLeaf(body, t, path)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if isNull(body) {
			return nil
		}
		return w.walk(body, t.Elem(), path)
	case reflect.Struct:
		members, err := objectMembers(body)
		if err != nil {
			return w.atLeaf(body, t, path)
		}
		for _, m := range members {
			field, name, ok := fieldByName(t, m.name)
			if !ok {
				continue // encoding/json ignores unknown fields
			}
			// The path names the field as btviz writes it, whatever
			// case the file spelled it in: the file's spelling is
			// untrusted text, and a path of btviz's own names can be
			// looked up in the format's description.
			if err := w.walk(m.value, field, path+"."+name); err != nil {
				return err
			}
		}
	case reflect.Slice:
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return w.atLeaf(body, t, path)
		}
		for i, item := range items {
			itemPath := path + "[" + strconv.Itoa(i) + "]"
			if w.nullItems && isNull(item) {
				return &FieldError{Path: itemPath, Problem: "null in a list, where a value belongs"}
			}
			if err := w.walk(item, t.Elem(), itemPath); err != nil {
				return err
			}
		}
	default:
		return w.atLeaf(body, t, path)
	}
	return nil
}

func (w jsonWalk) atLeaf(body []byte, t reflect.Type, path string) *FieldError {
	if w.leaf == nil {
		return nil
	}
	return w.leaf(body, t, path)
}

func isNull(body []byte) bool { return bytes.Equal(bytes.TrimSpace(body), []byte("null")) }

// hasNullItem reports whether body, valid JSON, holds a null as an item
// of a list anywhere: a quick pass over its bytes, outside strings
// (where no other JSON value holds an "n").
func hasNullItem(body []byte) bool {
	var open []byte // '[' or '{' per container the scan is in
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '"':
			for i++; i < len(body); i++ {
				j := bytes.IndexAny(body[i:], `"\`)
				if j < 0 {
					return false
				}
				i += j
				if body[i] == '"' {
					break
				}
				i++ // the escaped byte
			}
		case '[', '{':
			open = append(open, body[i])
		case ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case 'n':
			if len(open) > 0 && open[len(open)-1] == '[' {
				return true
			}
		}
	}
	return false
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isLeaf reports whether values of t decode as a whole: they unmarshal
// themselves, or they are bytes.
func isLeaf(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler) ||
		t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// decodeLeaf decodes body into a fresh value of type t and words the
// error, if any, for a reader of the file.
func decodeLeaf(body []byte, t reflect.Type, path string) *FieldError {
	err := json.Unmarshal(body, reflect.New(t).Interface())
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return &FieldError{Path: path, Problem: "holds " + typeErr.Value + ", want " + jsonKind(typeErr.Type)}
	}
	return &FieldError{Path: path, Problem: strings.TrimPrefix(err.Error(), "json: ")}
}

// jsonKind says what JSON a Go type takes, in words.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer that fits " + t.Kind().String()
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// member is one name and value of a JSON object, in document order.
type member struct {
	name  string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members; it fails on
// anything that is not an object.
func objectMembers(body []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		members = append(members, member{name: name, value: value})
	}
	return members, nil
}

// fieldByName returns the type and the JSON name of the field of
// struct t that encoding/json would store a member called name in: the
// exact JSON name first, then one that matches it ignoring case, looking
// into embedded structs as encoding/json does.
func fieldByName(t reflect.Type, name string) (reflect.Type, string, bool) {
	var folded reflect.Type
	var foldedName string
	var find func(t reflect.Type) (reflect.Type, bool)
	find = func(t reflect.Type) (reflect.Type, bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				if found, ok := find(f.Type); ok {
					return found, true
				}
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			if tag == name {
				return f.Type, true
			}
			if folded == nil && strings.EqualFold(tag, name) {
				folded, foldedName = f.Type, tag
			}
		}
		return nil, false
	}
	if found, ok := find(t); ok {
		return found, name, true
	}
	return folded, foldedName, folded != nil
}
