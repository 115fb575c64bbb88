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
	if isLeaf(t) {
		return decodeLeaf(body, t, path)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
			return nil
		}
		return locateDecodeError(body, t.Elem(), path)
	case reflect.Struct:
		members, err := objectMembers(body)
		if err != nil {
			return decodeLeaf(body, t, path)
		}
		for _, m := range members {
			field, ok := fieldByName(t, m.name)
			if !ok {
				continue // encoding/json ignores unknown fields
			}
			if err := locateDecodeError(m.value, field, path+"."+m.name); err != nil {
				return err
			}
		}
	case reflect.Slice:
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return decodeLeaf(body, t, path)
		}
		for i, item := range items {
			if err := locateDecodeError(item, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	default:
		return decodeLeaf(body, t, path)
	}
	return nil
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

// fieldByName returns the type of the field of struct t that
// encoding/json would store a member called name in: the exact JSON name
// first, then one that matches it ignoring case, looking into embedded
// structs as encoding/json does.
func fieldByName(t reflect.Type, name string) (reflect.Type, bool) {
	var folded reflect.Type
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
				folded = f.Type
			}
		}
		return nil, false
	}
	if found, ok := find(t); ok {
		return found, true
	}
	return folded, folded != nil
}
