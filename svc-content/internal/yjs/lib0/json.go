package lib0

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrInvalidJSON is returned by ParseJSON for text JSON.parse rejects.
var ErrInvalidJSON = errors.New("lib0: invalid JSON")

// ParseJSON is JavaScript's JSON.parse in this package's value model:
// objects keep JavaScript's property order, numbers are float64 (too large
// ones are ±Inf, as in JavaScript), a lone surrogate escape becomes U+FFFD.
func ParseJSON(s string) (any, error) {
	p := jsonParser{s: s}
	p.space()
	v := p.value(0)
	p.space()
	if p.err == nil && p.pos != len(s) {
		p.fail()
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

type jsonParser struct {
	s   string
	pos int
	err error
}

func (p *jsonParser) fail() {
	if p.err == nil {
		p.err = fmt.Errorf("%w at offset %d", ErrInvalidJSON, p.pos)
	}
}

func (p *jsonParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) literal(word string, v any) any {
	if strings.HasPrefix(p.s[p.pos:], word) {
		p.pos += len(word)
		return v
	}
	p.fail()
	return nil
}

func (p *jsonParser) value(depth int) any {
	if depth > maxAnyDepth {
		p.err = ErrTooDeep
		return nil
	}
	if p.pos >= len(p.s) {
		p.fail()
		return nil
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	p.fail()
	return nil
}

func (p *jsonParser) object(depth int) any {
	p.pos++ // {
	var b ObjectBuilder
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return Object{}
	}
	for p.err == nil {
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			p.fail()
			return nil
		}
		key := p.str()
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			p.fail()
			return nil
		}
		p.pos++
		p.space()
		b.Set(key, p.value(depth+1))
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			return b.Object()
		}
		p.fail()
	}
	return nil
}

func (p *jsonParser) array(depth int) any {
	p.pos++ // [
	arr := []any{}
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return arr
	}
	for p.err == nil {
		p.space()
		arr = append(arr, p.value(depth+1))
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			return arr
		}
		p.fail()
	}
	return nil
}

func (p *jsonParser) number() any {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.s) && p.s[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		p.fail()
		return nil
	}
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			p.fail()
			return nil
		}
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			p.fail()
			return nil
		}
	}
	f, _ := strconv.ParseFloat(p.s[start:p.pos], 64) // range errors give ±Inf or 0, as JavaScript
	return f
}

func (p *jsonParser) digits() int {
	n := 0
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

func (p *jsonParser) str() string {
	p.pos++ // "
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String()
		case c < 0x20:
			p.fail()
			return ""
		case c == '\\':
			p.pos++
			if !p.escape(&b) {
				p.fail()
				return ""
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.fail()
	return ""
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (p *jsonParser) escape(b *strings.Builder) bool {
	if p.pos >= len(p.s) {
		return false
	}
	if c, ok := simpleEscapes[p.s[p.pos]]; ok {
		b.WriteByte(c)
		p.pos++
		return true
	}
	if p.s[p.pos] != 'u' {
		return false
	}
	p.pos++
	r, ok := p.hex4()
	if !ok {
		return false
	}
	if utf16.IsSurrogate(r) && r < 0xDC00 && strings.HasPrefix(p.s[p.pos:], `\u`) {
		save := p.pos
		p.pos += 2
		if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
			b.WriteRune(utf16.DecodeRune(r, r2))
			return true
		}
		p.pos = save
	}
	if utf16.IsSurrogate(r) {
		r = utf8.RuneError
	}
	b.WriteRune(r)
	return true
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}

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
