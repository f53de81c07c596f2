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

// QuoteJSON writes s as JSON.stringify quotes a string. Runs of bytes
// that need no escape are written whole: a document's text is rendered
// for every edit event, and byte by byte it cost more than the decode.
func QuoteJSON(b *strings.Builder, s string) {
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		esc := jsonEscapes[s[i]]
		if esc == "" {
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// jsonEscapes is how JSON.stringify writes each byte inside a string, ""
// for as is: the quote, the backslash and the control characters.
var jsonEscapes = func() (e [256]string) {
	const hex = "0123456789abcdef"
	for c := range 0x20 {
		e[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xF])
	}
	e['\b'], e['\f'], e['\n'], e['\r'], e['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	e['"'], e['\\'] = `\"`, `\\`
	return e
}()
