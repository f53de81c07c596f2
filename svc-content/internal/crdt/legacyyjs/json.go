package legacyyjs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ParseJSON decodes one JSON value the way JavaScript's JSON.parse reads it
// before Yjs encodes it: objects keep their key order (a repeated key keeps
// its first position and takes its last value), numbers stay json.Number so
// nothing is rounded twice. A number JavaScript would read as ±Infinity is
// an error, since Yjs could not store it.
func ParseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return parseObject(dec)
		case '[':
			return parseArray(dec)
		}
		return nil, fmt.Errorf("unexpected %q", t)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("number %s is out of range", t)
		}
		return t, nil
	default: // nil, bool, string
		return t, nil
	}
}

func parseObject(dec *json.Decoder) (Object, error) {
	obj := Object{}
	at := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		if i, dup := at[key]; dup {
			obj[i].Value = v
			continue
		}
		at[key] = len(obj)
		obj = append(obj, Field{Key: key, Value: v})
	}
	_, err := dec.Token() // '}'
	return obj, err
}

func parseArray(dec *json.Decoder) ([]any, error) {
	arr := []any{}
	for dec.More() {
		v, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := dec.Token() // ']'
	return arr, err
}
