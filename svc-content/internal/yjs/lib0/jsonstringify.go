package lib0

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StringifyJSON is JavaScript's JSON.stringify: non-finite numbers become
// null, Undefined becomes null in arrays and drops the property in objects,
// a []byte (Uint8Array) is an object of its indexes. ok is false when the
// result is undefined (v is Undefined); a BigInt is an error, as in
// JavaScript.
func StringifyJSON(v any) (s string, ok bool, err error) {
	if _, undef := v.(UndefinedValue); undef {
		return "", false, nil
	}
	var b strings.Builder
	if err := stringify(&b, v); err != nil {
		return "", false, err
	}
	return b.String(), true, nil
}

func stringify(b *strings.Builder, v any) error {
	switch t := v.(type) {
	case nil, UndefinedValue:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case string:
		QuoteJSON(b, t)
	case BigInt:
		return errors.New("lib0: a BigInt cannot be stored as JSON")
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := stringify(b, x); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case Object:
		return stringifyObject(b, JSOrder(t))
	case map[string]any:
		return stringifyObject(b, ObjectFromMap(t))
	case []byte:
		o := make(Object, len(t))
		for i, x := range t {
			o[i] = Field{Key: strconv.Itoa(i), Value: float64(x)}
		}
		return stringifyObject(b, o)
	default:
		f, ok := Number(v)
		if !ok {
			return fmt.Errorf("lib0: cannot encode a value of type %T as JSON", v)
		}
		if f-f != 0 { // NaN or ±Inf
			b.WriteString("null")
		} else {
			b.WriteString(FormatNumber(f))
		}
	}
	return nil
}

func stringifyObject(b *strings.Builder, o Object) error {
	b.WriteByte('{')
	first := true
	for _, f := range o {
		if _, undef := f.Value.(UndefinedValue); undef {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		QuoteJSON(b, f.Key)
		b.WriteByte(':')
		if err := stringify(b, f.Value); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// QuoteJSON writes s as JSON.stringify quotes a string.
func QuoteJSON(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
