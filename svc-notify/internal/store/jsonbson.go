package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Client objects (users, template data, source data, ...) are stored as
// native BSON, not as strings, so they stay readable and queryable in the
// database. These two functions convert them keeping the key order,
// integers exact (int64) and HTML characters unescaped, so a client reads
// back what it sent.

// fromJSON converts a JSON value to BSON values: objects become bson.D,
// arrays bson.A, integers int64, other numbers float64. Empty input is nil.
func fromJSON(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("convert client JSON: %w", err)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return decodeObject(dec)
		}
		if t == '[' {
			return decodeArray(dec)
		}
		return nil, fmt.Errorf("unexpected %q", t)
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		return t.Float64()
	default: // string, bool, nil
		return t, nil
	}
}

func decodeObject(dec *json.Decoder) (bson.D, error) {
	d := bson.D{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		d = append(d, bson.E{Key: key, Value: v})
	}
	_, err := dec.Token() // '}'
	return d, err
}

func decodeArray(dec *json.Decoder) (bson.A, error) {
	a := bson.A{}
	for dec.More() {
		v, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
	_, err := dec.Token() // ']'
	return a, err
}

// toJSON converts a stored BSON value back to JSON; nil for nil.
func toJSON(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := encodeValue(&buf, v); err != nil {
		return nil, fmt.Errorf("render stored value: %w", err)
	}
	return buf.Bytes(), nil
}

func encodeValue(buf *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case bson.D:
		buf.WriteByte('{')
		for i, e := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeScalar(buf, e.Key); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := encodeValue(buf, e.Value); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case bson.M:
		return encodeValue(buf, sortedD(t))
	case map[string]any:
		return encodeValue(buf, sortedD(t))
	case bson.A:
		return encodeArray(buf, t)
	case []any:
		return encodeArray(buf, t)
	default:
		return encodeScalar(buf, t)
	}
	return nil
}

func encodeArray(buf *bytes.Buffer, a []any) error {
	buf.WriteByte('[')
	for i, x := range a {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := encodeValue(buf, x); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

func encodeScalar(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

func sortedD(m map[string]any) bson.D {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	d := make(bson.D, 0, len(m))
	for _, k := range keys {
		d = append(d, bson.E{Key: k, Value: m[k]})
	}
	return d
}
