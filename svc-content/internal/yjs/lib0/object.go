package lib0

import (
	"slices"
	"strings"
	"unicode/utf16"
)

// ObjectBuilder builds an Object the way JavaScript assigns properties: a
// repeated key keeps its first position and takes the last value, and
// integer keys ("0", "17", ...) come first in ascending order.
type ObjectBuilder struct {
	fields Object
	index  map[string]int // built once the object grows past a few keys
}

// Set assigns key.
func (b *ObjectBuilder) Set(key string, v any) {
	if i, ok := b.find(key); ok {
		b.fields[i].Value = v
		return
	}
	if b.index != nil {
		b.index[key] = len(b.fields)
	} else if len(b.fields) >= 8 {
		b.index = make(map[string]int, 16)
		for i, f := range b.fields {
			b.index[f.Key] = i
		}
		b.index[key] = len(b.fields)
	}
	b.fields = append(b.fields, Field{Key: key, Value: v})
}

func (b *ObjectBuilder) find(key string) (int, bool) {
	if b.index != nil {
		i, ok := b.index[key]
		return i, ok
	}
	for i, f := range b.fields {
		if f.Key == key {
			return i, true
		}
	}
	return 0, false
}

// Object returns the object in JavaScript's property order.
func (b *ObjectBuilder) Object() Object {
	if b.fields == nil {
		return Object{}
	}
	return JSOrder(b.fields)
}

// JSOrder returns o in JavaScript's property order: integer keys first,
// ascending, then the other keys in o's order. o is returned unchanged when
// it has no integer key, else a sorted copy.
func JSOrder(o Object) Object {
	n := 0
	for _, f := range o {
		if _, ok := arrayIndex(f.Key); ok {
			n++
		}
	}
	if n == 0 {
		return o
	}
	out := make(Object, 0, len(o))
	for _, f := range o {
		if _, ok := arrayIndex(f.Key); ok {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Field) int {
		x, _ := arrayIndex(a.Key)
		y, _ := arrayIndex(b.Key)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	for _, f := range o {
		if _, ok := arrayIndex(f.Key); !ok {
			out = append(out, f)
		}
	}
	return out
}

// ObjectFromMap orders a Go map as an Object: integer keys ascending, then
// the other keys in JavaScript's string order (Go maps have no insertion
// order to keep).
func ObjectFromMap(m map[string]any) Object {
	o := make(Object, 0, len(m))
	for k, v := range m {
		o = append(o, Field{Key: k, Value: v})
	}
	slices.SortFunc(o, func(a, b Field) int { return CompareUTF16(a.Key, b.Key) })
	return JSOrder(o)
}

// ToMap converts an Object to a Go map.
func (o Object) ToMap() map[string]any {
	m := make(map[string]any, len(o))
	for _, f := range o {
		m[f.Key] = f.Value
	}
	return m
}

// arrayIndex reports whether key is a JavaScript array index (a canonical
// integer below 2^32-1), which objects order before other keys.
func arrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, n < 1<<32-1
}

// CompareUTF16 orders strings as JavaScript compares them: by UTF-16 code
// units.
func CompareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	return len(ua) - len(ub)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
