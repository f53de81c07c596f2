package yjs

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Content reference numbers: the low five bits of an item's info byte (Yjs
// src/structs/Item.js contentRefs), and of GC and Skip structs.
const (
	refGC             = 0
	refContentDeleted = 1
	refContentJSON    = 2
	refContentBinary  = 3
	refContentString  = 4
	refContentEmbed   = 5
	refContentFormat  = 6
	refContentType    = 7
	refContentAny     = 8
	refContentDoc     = 9
	refSkip           = 10
)

// content is an item's payload. Each kind behaves as its Yjs class.
type content interface {
	ref() byte
	// length is the number of clock ticks the content takes.
	length() uint64
	// countable content adds to the length of a sequence.
	countable() bool
	// splice keeps [0, offset) and returns the rest as new content.
	splice(offset uint64) content
	// mergeWith appends right (of the same kind) when the kind allows it.
	mergeWith(right content) bool
	// write encodes the content from offset on.
	write(e updateEncoder, offset uint64)
}

// readContent is readItemContent: the content of an item with this info.
func readContent(d updateDecoder, info byte) content {
	switch info & 0x1F {
	case refContentDeleted:
		return &contentDeleted{n: d.readLen()}
	case refContentJSON:
		return readJSONContent(d)
	case refContentBinary:
		return &contentBinary{b: d.readBuf()}
	case refContentString:
		return newContentString(d.readStringBytes())
	case refContentEmbed:
		return &contentEmbed{v: d.readJSON()}
	case refContentFormat:
		key := d.readKey()
		return &contentFormat{key: key, value: d.readJSON()}
	case refContentType:
		return readTypeContent(d)
	case refContentAny:
		return readAnyContent(d)
	case refContentDoc:
		guid := d.readString()
		return newContentDoc(guid, d.readAny())
	}
	d.rest().Fail(malformed("unknown content reference %d", info&0x1F))
	return nil
}

// readCount reads a number of values that each take at least one byte.
func readCount(d updateDecoder) uint64 {
	n := d.readLen()
	if n > uint64(d.rest().Remaining()) {
		d.rest().Fail(malformed("%d values announced, input too short", n))
		return 0
	}
	return n
}

// contentDeleted is ContentDeleted: deleted content whose payload is gone.
type contentDeleted struct{ n uint64 }

func (c *contentDeleted) ref() byte       { return refContentDeleted }
func (c *contentDeleted) length() uint64  { return c.n }
func (c *contentDeleted) countable() bool { return false }
func (c *contentDeleted) splice(offset uint64) content {
	right := &contentDeleted{n: c.n - offset}
	c.n = offset
	return right
}
func (c *contentDeleted) mergeWith(right content) bool {
	c.n += right.(*contentDeleted).n
	return true
}
func (c *contentDeleted) write(e updateEncoder, offset uint64) { e.writeLen(c.n - offset) }

// contentJSON is ContentJSON: values stored as JSON strings (old Yjs).
type contentJSON struct{ vals []any }

func readJSONContent(d updateDecoder) content {
	n := readCount(d)
	vals := make([]any, 0, n)
	for i := uint64(0); i < n && d.err() == nil; i++ {
		s := d.readString()
		if s == "undefined" {
			vals = append(vals, lib0.Undefined)
			continue
		}
		vals = append(vals, parseJSONOrFail(d.rest(), s))
	}
	return &contentJSON{vals: vals}
}

func (c *contentJSON) ref() byte       { return refContentJSON }
func (c *contentJSON) length() uint64  { return uint64(len(c.vals)) }
func (c *contentJSON) countable() bool { return true }
func (c *contentJSON) splice(offset uint64) content {
	right := &contentJSON{vals: append([]any(nil), c.vals[offset:]...)}
	c.vals = c.vals[:offset:offset]
	return right
}
func (c *contentJSON) mergeWith(right content) bool {
	c.vals = append(c.vals, right.(*contentJSON).vals...)
	return true
}
func (c *contentJSON) write(e updateEncoder, offset uint64) {
	e.writeLen(uint64(len(c.vals)) - offset)
	for _, v := range c.vals[offset:] {
		s, ok, err := lib0.StringifyJSON(v)
		if err != nil || !ok {
			s = "undefined"
		}
		e.writeString(s)
	}
}

// contentBinary is ContentBinary: one Uint8Array.
type contentBinary struct{ b []byte }

func (c *contentBinary) ref() byte                            { return refContentBinary }
func (c *contentBinary) length() uint64                       { return 1 }
func (c *contentBinary) countable() bool                      { return true }
func (c *contentBinary) splice(uint64) content                { panic("yjs: binary content cannot be split") }
func (c *contentBinary) mergeWith(content) bool               { return false }
func (c *contentBinary) write(e updateEncoder, offset uint64) { e.writeBuf(c.b) }

// contentEmbed is ContentEmbed: one embedded JSON value in a text.
type contentEmbed struct{ v any }

func (c *contentEmbed) ref() byte                            { return refContentEmbed }
func (c *contentEmbed) length() uint64                       { return 1 }
func (c *contentEmbed) countable() bool                      { return true }
func (c *contentEmbed) splice(uint64) content                { panic("yjs: embed content cannot be split") }
func (c *contentEmbed) mergeWith(content) bool               { return false }
func (c *contentEmbed) write(e updateEncoder, offset uint64) { e.writeJSON(c.v) }

// contentFormat is ContentFormat: a formatting mark in a text; a nil value
// ends the attribute.
type contentFormat struct {
	key   string
	value any
}

func (c *contentFormat) ref() byte              { return refContentFormat }
func (c *contentFormat) length() uint64         { return 1 }
func (c *contentFormat) countable() bool        { return false }
func (c *contentFormat) splice(uint64) content  { panic("yjs: format content cannot be split") }
func (c *contentFormat) mergeWith(content) bool { return false }
func (c *contentFormat) write(e updateEncoder, offset uint64) {
	e.writeKey(c.key)
	e.writeJSON(c.value)
}

// contentAny is ContentAny: values of the lib0 any encoding.
type contentAny struct{ vals []any }

func readAnyContent(d updateDecoder) content {
	n := readCount(d)
	vals := make([]any, 0, n)
	for i := uint64(0); i < n && d.err() == nil; i++ {
		vals = append(vals, d.readAny())
	}
	return &contentAny{vals: vals}
}

func (c *contentAny) ref() byte       { return refContentAny }
func (c *contentAny) length() uint64  { return uint64(len(c.vals)) }
func (c *contentAny) countable() bool { return true }
func (c *contentAny) splice(offset uint64) content {
	right := &contentAny{vals: append([]any(nil), c.vals[offset:]...)}
	c.vals = c.vals[:offset:offset]
	return right
}
func (c *contentAny) mergeWith(right content) bool {
	c.vals = append(c.vals, right.(*contentAny).vals...)
	return true
}
func (c *contentAny) write(e updateEncoder, offset uint64) {
	e.writeLen(uint64(len(c.vals)) - offset)
	for _, v := range c.vals[offset:] {
		e.writeAny(v)
	}
}

// contentString is ContentString: UTF-8 text whose length counts UTF-16
// code units, as JavaScript strings do. s may have spare capacity that
// merging appends into; splitting caps the left part so that it never
// writes into the right part's bytes.
type contentString struct {
	s     []byte
	units uint64
}

func newContentString(b []byte) *contentString {
	return &contentString{s: b, units: utf16Len(b)}
}

func (c *contentString) ref() byte       { return refContentString }
func (c *contentString) length() uint64  { return c.units }
func (c *contentString) countable() bool { return true }

// splice splits at a UTF-16 offset. A split between the halves of a
// surrogate pair replaces each half with U+FFFD, as Yjs does.
func (c *contentString) splice(offset uint64) content {
	at, mid := byteOffset(c.s, c.units, offset)
	if !mid {
		right := &contentString{s: c.s[at:], units: c.units - offset}
		c.s, c.units = c.s[:at:at], offset
		return right
	}
	// c.s[at:] starts with the 4-byte character whose halves are cut.
	_, size := utf8.DecodeRune(c.s[at:])
	right := &contentString{s: append([]byte("\uFFFD"), c.s[at+size:]...), units: c.units - offset}
	c.s = append(c.s[:at:at], "\uFFFD"...)
	c.units = offset
	return right
}

func (c *contentString) mergeWith(right content) bool {
	r := right.(*contentString)
	c.s = append(c.s, r.s...)
	c.units += r.units
	return true
}

func (c *contentString) write(e updateEncoder, offset uint64) {
	if offset == 0 {
		e.writeStringBytes(c.s)
		return
	}
	at, mid := byteOffset(c.s, c.units, offset)
	if !mid {
		e.writeStringBytes(c.s[at:])
		return
	}
	// JavaScript would write a lone low surrogate, which TextEncoder turns
	// into U+FFFD.
	_, size := utf8.DecodeRune(c.s[at:])
	e.writeStringBytes(append([]byte("\uFFFD"), c.s[at+size:]...))
}

// utf16Len is the JavaScript length of UTF-8 text.
func utf16Len(b []byte) uint64 {
	n := uint64(0)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		n += uint64(utf16.RuneLen(r))
	}
	return n
}

// byteOffset finds the byte offset of UTF-16 offset off in b (units long).
// mid reports that off falls between the two halves of a surrogate pair;
// the offset is then that of the 4-byte character.
func byteOffset(b []byte, units, off uint64) (at int, mid bool) {
	if units == uint64(len(b)) { // ASCII only
		return int(off), false
	}
	var n uint64
	for i := 0; i < len(b); {
		if n == off {
			return i, false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x10000 {
			if n+1 == off {
				return i, true
			}
			n += 2
		} else {
			n++
		}
		i += size
	}
	return len(b), false
}

// contentDoc is ContentDoc: a subdocument, kept by its guid and options
// (never loaded here).
type contentDoc struct {
	guid string
	opts lib0.Object
}

func (c *contentDoc) ref() byte              { return refContentDoc }
func (c *contentDoc) length() uint64         { return 1 }
func (c *contentDoc) countable() bool        { return true }
func (c *contentDoc) splice(uint64) content  { panic("yjs: doc content cannot be split") }
func (c *contentDoc) mergeWith(content) bool { return false }
func (c *contentDoc) write(e updateEncoder, offset uint64) {
	e.writeString(c.guid)
	e.writeAny(c.opts)
}

// newContentDoc is readContentDoc: Yjs builds a Y.Doc from the options
// (a guid option replaces the guid) and writes back only the options the
// Doc keeps: gc: false, autoLoad: true and meta.
func newContentDoc(guid string, raw any) *contentDoc {
	o, _ := raw.(lib0.Object)
	c := &contentDoc{guid: guid, opts: lib0.Object{}}
	if g, ok := o.Get("guid"); ok && g != lib0.Undefined {
		c.guid = lib0.ToString(g)
	}
	if gc, ok := o.Get("gc"); ok && gc != lib0.Undefined && !truthy(gc) {
		c.opts = append(c.opts, lib0.Field{Key: "gc", Value: false})
	}
	if al, ok := o.Get("autoLoad"); ok && truthy(al) {
		c.opts = append(c.opts, lib0.Field{Key: "autoLoad", Value: true})
	}
	if meta, ok := o.Get("meta"); ok && meta != nil && meta != lib0.Undefined {
		c.opts = append(c.opts, lib0.Field{Key: "meta", Value: meta})
	}
	return c
}

// truthy is JavaScript's boolean conversion.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil, lib0.UndefinedValue:
		return false
	case bool:
		return t
	case float64:
		return t == t && t != 0
	case string:
		return t != ""
	case lib0.BigInt:
		return t != 0
	}
	return true
}
