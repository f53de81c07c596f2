package legacyyjs

import "unicode/utf16"

// Struct and content reference numbers (low 5 bits of an item's info byte)
// and info flags, as in Yjs src/structs/Item.js.
const (
	refGC             = 0
	refContentDeleted = 1
	refContentString  = 4
	refContentType    = 7
	refContentAny     = 8

	infoOrigin    = 0x80 // BIT8: a left origin ID follows
	infoParentSub = 0x20 // BIT6: the item lives under a map key
)

// Type references of ContentType (Yjs src/structs/ContentType.js).
const (
	typeRefXMLElement = 3
	typeRefXMLText    = 6
)

// place says where an item goes: after origin when there is one (Yjs then
// takes parent and key from the origin), else first in its parent, which
// is the root type named rootKey or the type item parentID.
type place struct {
	origin    *uint64
	rootKey   string
	parentID  *uint64
	parentSub string
}

// content is an item's payload: its reference number, its length in
// clock ticks and its encoding.
type content interface {
	ref() byte
	length() uint64
	write(e *encoder) error
}

// stringContent is ContentString; its length is the JavaScript string
// length (UTF-16 code units), so an emoji outside the BMP counts 2.
type stringContent string

func (c stringContent) ref() byte              { return refContentString }
func (c stringContent) length() uint64         { return utf16Len(string(c)) }
func (c stringContent) write(e *encoder) error { e.varString(string(c)); return nil }

// anyContent is ContentAny: one clock tick per value.
type anyContent []any

func (c anyContent) ref() byte      { return refContentAny }
func (c anyContent) length() uint64 { return uint64(len(c)) }
func (c anyContent) write(e *encoder) error {
	e.varUint(uint64(len(c)))
	for _, v := range c {
		if err := e.any(v); err != nil {
			return err
		}
	}
	return nil
}

// typeContent is ContentType for the XML types: an element carries its
// node name.
type typeContent struct {
	typeRef  uint64
	nodeName string
}

func (c typeContent) ref() byte      { return refContentType }
func (c typeContent) length() uint64 { return 1 }
func (c typeContent) write(e *encoder) error {
	e.varUint(c.typeRef)
	if c.typeRef == typeRefXMLElement {
		e.varString(c.nodeName)
	}
	return nil
}

// deletedContent is ContentDeleted: what Yjs keeps of a deleted item whose
// parent still exists.
type deletedContent uint64

func (c deletedContent) ref() byte              { return refContentDeleted }
func (c deletedContent) length() uint64         { return uint64(c) }
func (c deletedContent) write(e *encoder) error { e.varUint(uint64(c)); return nil }

// writeItem is Item.write of Yjs (v1 encoding) for an item of client.
func writeItem(e *encoder, client uint32, p place, c content) error {
	info := c.ref()
	if p.origin != nil {
		info |= infoOrigin
	}
	if p.parentSub != "" {
		info |= infoParentSub
	}
	e.byte(info)
	if p.origin != nil {
		e.varUint(uint64(client))
		e.varUint(*p.origin)
	} else {
		if p.parentID != nil {
			e.varUint(0) // parent named by ID
			e.varUint(uint64(client))
			e.varUint(*p.parentID)
		} else {
			e.varUint(1) // parent is the root type named by key
			e.varString(p.rootKey)
		}
		if p.parentSub != "" {
			e.varString(p.parentSub)
		}
	}
	return c.write(e)
}

// utf16Len is JavaScript's String.prototype.length of s.
func utf16Len(s string) uint64 {
	var n uint64
	for _, r := range s {
		n += uint64(utf16.RuneLen(r))
	}
	return n
}

// compareUTF16 orders strings as JavaScript's default sort does: by UTF-16
// code units.
func compareUTF16(a, b string) int {
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
