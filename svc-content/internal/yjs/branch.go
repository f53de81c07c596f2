package yjs

// typeRef numbers the shared types on the wire (Yjs ContentType typeRefs).
type typeRef uint8

const (
	refArray       typeRef = 0
	refMap         typeRef = 1
	refText        typeRef = 2
	refXMLElement  typeRef = 3
	refXMLFragment typeRef = 4
	refXMLHook     typeRef = 5
	refXMLText     typeRef = 6
	// refUndefined is a root that updates wrote to but nobody read yet as
	// a kind (Yjs: a plain AbstractType).
	refUndefined typeRef = 255
)

// Kind names the kind of a shared type.
type Kind string

// The kinds of shared type. KindText, KindMap, KindArray and KindXML (an
// XmlFragment) are what roots are read as.
const (
	KindText       Kind = "text"
	KindMap        Kind = "map"
	KindArray      Kind = "array"
	KindXML        Kind = "xml"
	KindXMLElement Kind = "xmlElement"
	KindXMLText    Kind = "xmlText"
	KindXMLHook    Kind = "xmlHook"
	// KindUndefined is a root that updates wrote to and that was not yet
	// read as a kind; its content decides what it can be read as.
	KindUndefined Kind = "undefined"
)

var kindOfRef = map[typeRef]Kind{
	refArray: KindArray, refMap: KindMap, refText: KindText, refXMLElement: KindXMLElement,
	refXMLFragment: KindXML, refXMLHook: KindXMLHook, refXMLText: KindXMLText, refUndefined: KindUndefined,
}

// branch is a shared type (Yjs AbstractType): a sequence of items (start)
// and a map of keys to their latest item (entries). Text, Map, Array and
// the XML types are the same branch seen through different methods.
type branch struct {
	doc     *Doc
	item    *Item // the item holding this type; nil for a root
	start   *Item
	entries map[string]*Item
	// keys lists the keys of entries in the order they were first set (a
	// JavaScript Map's order, which Yjs iterates).
	keys   []string
	length int // countable, undeleted length of the sequence
	ref    typeRef
	// name is the node name of an XmlElement, the hook name of an XmlHook
	// and the key of a root.
	name string
	// markers speed up index lookups in sequences (nil: none, as for maps,
	// XML fragments and formatted text).
	markers       *searchMarkers
	hasFormatting bool
	// prelim is what a type created outside a document (NewText, NewMap,
	// ...) holds until it is inserted.
	prelim *prelimContent
}

func newBranch(ref typeRef, name string) *branch {
	b := &branch{ref: ref, name: name}
	if ref == refArray || ref == refText || ref == refXMLText {
		b.markers = &searchMarkers{}
	}
	return b
}

func (b *branch) kind() Kind { return kindOfRef[b.ref] }

// isRoot reports whether b is a top-level type of its document.
func (b *branch) isRoot() bool { return b.item == nil }

// contentType is ContentType: an item holding a shared type.
type contentType struct{ t *branch }

func readTypeContent(d updateDecoder) content {
	ref := d.readTypeRef()
	switch typeRef(ref) {
	case refArray, refMap, refText, refXMLFragment, refXMLText:
		return &contentType{t: newBranch(typeRef(ref), "")}
	case refXMLElement, refXMLHook:
		return &contentType{t: newBranch(typeRef(ref), d.readKey())}
	}
	d.rest().Fail(malformed("unknown type reference %d", ref))
	return nil
}

func (c *contentType) ref() byte              { return refContentType }
func (c *contentType) length() uint64         { return 1 }
func (c *contentType) countable() bool        { return true }
func (c *contentType) splice(uint64) content  { panic("yjs: type content cannot be split") }
func (c *contentType) mergeWith(content) bool { return false }
func (c *contentType) write(e updateEncoder, offset uint64) {
	e.writeTypeRef(uint64(c.t.ref))
	if c.t.ref == refXMLElement || c.t.ref == refXMLHook {
		e.writeKey(c.t.name)
	}
}
