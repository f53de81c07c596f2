package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// MaxDepth is how deep objects and arrays may nest in a request body,
// counting the envelope. Stores refuse (or crash on) much deeper documents,
// and no operation of the interface needs more.
const MaxDepth = 32

// OpenObject is implemented by struct types (usually with their own
// UnmarshalJSON) whose JSON object has known fields plus free keys kept as
// sent (a User's extra profile keys, an organization's metadata). Known
// fields are checked with their types; a key that differs from a known one
// only in case is refused ("did you mean"); other keys are free-form. A type
// with its own UnmarshalJSON that is neither an OpenObject nor a
// ShapedValue is free-form as a whole.
type OpenObject interface{ OpenJSON() }

// ShapedValue is implemented by wrappers with their own UnmarshalJSON
// (e.g. an optional[T]) whose JSON has the fixed shape of another type:
// JSONShape returns a value of that type.
type ShapedValue interface{ JSONShape() any }

var shapeCache sync.Map // reflect.Type → map[string]reflect.Type

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	shapedType      = reflect.TypeFor[ShapedValue]()
	openType        = reflect.TypeFor[OpenObject]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
)

// strictCheck reads body (the whole envelope) once as a token stream and
// refuses, before any typed decode: unknown keys of fixed-shape objects
// (with the closest known name), duplicate keys, keys a store cannot hold
// ('$'-prefixed, NUL, or dotted outside freeKeys), nesting beyond
// MaxDepth and numbers beyond float64. The envelope's only key is data;
// dst is the type of data.
func strictCheck(body []byte, dst reflect.Type, freeKeys []string) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := &walker{dec: dec, freeKeys: freeKeys}
	tok, err := dec.Token()
	if err != nil {
		return w.syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Errorf(InvalidArgument, "request body must be a JSON object with a \"data\" object")
	}
	envelope := reflect.StructOf([]reflect.StructField{{Name: "Data", Type: dst, Tag: `json:"data"`}})
	if err := w.object(envelope, "", 1); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			return Errorf(InvalidArgument, "malformed JSON: trailing data after the body object")
		}
		return w.syntax(err)
	}
	return nil
}

type walker struct {
	dec      *json.Decoder
	freeKeys []string
}

func (w *walker) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Errorf(InvalidArgument, "malformed JSON at offset %d", se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return Errorf(InvalidArgument, "malformed JSON: unexpected end of the body")
	}
	return Errorf(InvalidArgument, "malformed JSON: %v", err)
}

// value reads one value whose Go type is t (nil: free-form).
func (w *walker) value(t reflect.Type, path string, depth int) error {
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(err)
	}
	switch v := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth {
			return Errorf(InvalidArgument, "field %s nests deeper than %d levels", displayPath(path), MaxDepth)
		}
		if v == '[' {
			return w.array(elemType(t), path, depth+1)
		}
		return w.object(t, path, depth+1)
	case json.Number:
		// A number beyond float64 would be stored as an infinity or fail.
		if _, err := v.Float64(); err != nil {
			return Errorf(InvalidArgument, "field %s: number %s is out of range", displayPath(path), v)
		}
	}
	return nil
}

func (w *walker) array(elem reflect.Type, path string, depth int) error {
	for i := 0; w.dec.More(); i++ {
		if err := w.value(elem, path+"["+strconv.Itoa(i)+"]", depth); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // ]
	if err != nil {
		return w.syntax(err)
	}
	return nil
}

// object reads the members of an object (after its '{') whose Go type is t.
func (w *walker) object(t reflect.Type, path string, depth int) error {
	sh := shapeOf(t)
	seen := map[string]bool{}
	free := isFree(path, w.freeKeys)
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return w.syntax(err)
		}
		key, _ := tok.(string)
		where := joinPath(path, key)
		if err := checkKey(key, path, where, free); err != nil {
			return err
		}
		if seen[key] {
			return Errorf(InvalidArgument, "field %s appears twice", displayPath(where))
		}
		seen[key] = true
		child, err := sh.member(key, path, where)
		if err != nil {
			return err
		}
		if err := w.value(child, where, depth); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // }
	if err != nil {
		return w.syntax(err)
	}
	return nil
}

// shape is what an object of one Go type may hold.
type shape struct {
	fields map[string]reflect.Type // JSON name → type; nil: free-form
	open   bool                    // OpenObject: other keys are free
	values reflect.Type            // a map's value type
}

// member is the type of key's value, or the refusal of key.
func (sh shape) member(key, path, where string) (reflect.Type, error) {
	if sh.fields == nil {
		return sh.values, nil
	}
	if f, ok := sh.fields[key]; ok {
		return f, nil
	}
	if sh.open {
		if near := closest(key, names(sh.fields)); !strings.EqualFold(near, key) {
			return nil, nil
		}
	}
	if path == "" {
		return nil, Errorf(InvalidArgument, "unknown top-level field %s: the body is {\"data\": {...}} and parameters go inside data", key)
	}
	return nil, unknownField(where, key, sh.fields)
}

func checkKey(key, path, where string, free bool) error {
	switch {
	case key == "":
		return Errorf(InvalidArgument, "field %s: keys must not be empty", displayPath(path))
	case strings.HasPrefix(key, "$"):
		return Errorf(InvalidArgument, "field %s: keys must not start with '$'", displayPath(where))
	case strings.ContainsRune(key, 0):
		// BSON keys are NUL-terminated: storage would fail.
		return Errorf(InvalidArgument, "field %s: keys must not contain NUL characters", displayPath(path))
	case strings.Contains(key, ".") && !free:
		return Errorf(InvalidArgument, "field %s: keys must not contain '.'", displayPath(where))
	}
	return nil
}

func names(fields map[string]reflect.Type) []string {
	out := make([]string, 0, len(fields))
	for n := range fields {
		out = append(out, n)
	}
	return out
}

func unknownField(where, key string, fields map[string]reflect.Type) error {
	if near := closest(key, names(fields)); near != "" {
		return Errorf(InvalidArgument, "unknown field %s; did you mean %s?", displayPath(where), near)
	}
	return Errorf(InvalidArgument, "unknown field %s", displayPath(where))
}

// deref strips pointers; nil stays nil.
func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// shaped resolves wrapper types to the type their JSON has; types with
// their own decoding and no declared shape are free-form (nil).
func shaped(t reflect.Type) reflect.Type {
	t = deref(t)
	if t == nil || t == rawMessageType {
		return nil
	}
	p := reflect.PointerTo(t)
	if p.Implements(shapedType) {
		return shaped(reflect.TypeOf(reflect.New(t).Interface().(ShapedValue).JSONShape()))
	}
	if p.Implements(unmarshalerType) || t.Kind() == reflect.Interface {
		return nil
	}
	return t
}

func elemType(t reflect.Type) reflect.Type {
	if t = shaped(t); t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return t.Elem()
	}
	return nil
}

// isOpen reports whether t is an OpenObject struct.
func isOpen(t reflect.Type) bool {
	t = deref(t)
	return t != nil && t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(openType)
}

// shapeOf returns the shape of objects of type t.
func shapeOf(t reflect.Type) shape {
	open := isOpen(t)
	if open {
		t = deref(t)
	} else {
		t = shaped(t)
	}
	switch {
	case t == nil:
		return shape{}
	case t.Kind() == reflect.Map:
		return shape{values: t.Elem()}
	case t.Kind() == reflect.Slice:
		return shapeOf(t.Elem()) // "one or many": an object where a list is allowed
	case t.Kind() != reflect.Struct:
		return shape{} // a type error for the typed decode to report
	}
	if v, ok := shapeCache.Load(t); ok {
		return shape{fields: v.(map[string]reflect.Type), open: open}
	}
	fields := map[string]reflect.Type{}
	addFields(t, fields)
	shapeCache.Store(t, fields)
	return shape{fields: fields, open: open}
}

func addFields(t reflect.Type, into map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" && deref(f.Type).Kind() == reflect.Struct {
			addFields(deref(f.Type), into)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		into[tag] = f.Type
	}
}
