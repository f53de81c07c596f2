package yjs

import "github.com/opencollab/backend/svc-content/internal/yjs/lib0"

// attrMap is an insertion-ordered map of formatting attributes, as the
// JavaScript Maps YText keeps them in: the order decides the order in which
// format items are written.
type attrMap struct {
	fields lib0.Object
}

func (m *attrMap) index(key string) int {
	for i, f := range m.fields {
		if f.Key == key {
			return i
		}
	}
	return -1
}

// get returns the value of key; nil (JavaScript null) when absent.
func (m *attrMap) get(key string) (any, bool) {
	if i := m.index(key); i >= 0 {
		return m.fields[i].Value, true
	}
	return nil, false
}

func (m *attrMap) set(key string, v any) {
	if i := m.index(key); i >= 0 {
		m.fields[i].Value = v
		return
	}
	m.fields = append(m.fields, lib0.Field{Key: key, Value: v})
}

func (m *attrMap) del(key string) {
	if i := m.index(key); i >= 0 {
		m.fields = append(m.fields[:i:i], m.fields[i+1:]...)
	}
}

func (m *attrMap) size() int { return len(m.fields) }

func (m *attrMap) clone() *attrMap {
	return &attrMap{fields: append(lib0.Object(nil), m.fields...)}
}

// update is updateCurrentAttributes: a null value ends the attribute.
func (m *attrMap) update(f *contentFormat) {
	if f.value == nil {
		m.del(f.key)
	} else {
		m.set(f.key, f.value)
	}
}

// toMap returns the attributes as JSON values.
func (m *attrMap) toMap() map[string]any {
	out := make(map[string]any, len(m.fields))
	for _, f := range m.fields {
		out[f.Key] = jsonValue(f.Value)
	}
	return out
}

// attrsOf orders caller attributes as a JavaScript object would hold them.
func attrsOf(attrs map[string]any) (*attrMap, error) {
	m := &attrMap{}
	for _, f := range lib0.ObjectFromMap(attrs) {
		v, err := normalizeValue(f.Value, 0)
		if err != nil {
			return nil, err
		}
		m.fields = append(m.fields, lib0.Field{Key: f.Key, Value: v})
	}
	return m, nil
}
