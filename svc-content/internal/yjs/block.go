package yjs

// blockKind tells the three kinds of struct an update holds apart.
type blockKind uint8

const (
	blockItem blockKind = iota
	blockGC
	blockSkip
)

// parentKind says how a decoded item names its parent.
type parentKind uint8

const (
	parentFromOrigin parentKind = iota // copied from origin or rightOrigin
	parentByName                       // a root type, by key
	parentByID                         // the item holding the type
)

// block is one struct as an update carries it, before it is integrated
// into a document (or as mergeUpdates and diffUpdate pass it through).
type block struct {
	kind           blockKind
	id             ID
	length         uint64
	hasOrigin      bool
	hasRightOrigin bool
	hasParentSub   bool
	parent         parentKind
	origin         ID
	rightOrigin    ID
	parentID       ID
	parentName     string
	parentSub      string
	content        content
}

// section is the run of structs of one client in an update.
type section struct {
	client uint64
	blocks []*block
}

// readSections reads the structs of an update (Yjs lazyStructReaderGenerator
// and readClientsStructRefs). Clocks and lengths are checked so that every
// struct covers a valid range.
func readSections(d updateDecoder) ([]section, error) {
	rest := d.rest()
	numClients := rest.ReadVarUint()
	budget := d.maxStructs()
	if numClients > budget {
		return nil, malformed("%d clients announced, input too short", numClients)
	}
	var sections []section
	for i := uint64(0); i < numClients; i++ {
		n := rest.ReadVarUint()
		client := d.readClient()
		clock := rest.ReadVarUint()
		if err := d.err(); err != nil {
			return nil, malformed("%v", err)
		}
		if n > budget {
			return nil, malformed("%d structs announced, input too short", n)
		}
		budget -= n
		if numClients == 1 && n == 1 {
			return readOneStruct(d, client, clock)
		}
		s := section{client: client, blocks: make([]*block, 0, min(n, 1024))}
		slab := make([]block, min(n, 1024)) // one allocation for many structs
		for j := uint64(0); j < n; j++ {
			if len(slab) == 0 {
				slab = make([]block, min(n-j, 1024))
			}
			b := &slab[0]
			slab = slab[1:]
			if err := readCheckedBlock(d, b, client, clock); err != nil {
				return nil, err
			}
			clock += b.length
			s.blocks = append(s.blocks, b)
		}
		sections = append(sections, s)
	}
	return sections, nil
}

// oneStruct is the section of an update of one struct (a typed character,
// a set key: most of what editors send), its struct and the pointer to it
// in one allocation instead of three.
type oneStruct struct {
	sections [1]section
	blocks   [1]*block
	block    block
}

// readOneStruct reads the one struct of a one-client update.
func readOneStruct(d updateDecoder, client, clock uint64) ([]section, error) {
	o := &oneStruct{}
	if err := readCheckedBlock(d, &o.block, client, clock); err != nil {
		return nil, err
	}
	o.blocks[0] = &o.block
	o.sections[0] = section{client: client, blocks: o.blocks[:]}
	return o.sections[:], nil
}

// readCheckedBlock reads the struct at (client, clock) into b and checks
// that it covers a valid range.
func readCheckedBlock(d updateDecoder, b *block, client, clock uint64) error {
	readBlock(d, b, client, clock)
	if err := d.err(); err != nil {
		return malformed("%v", err)
	}
	if b.length == 0 && b.kind != blockSkip {
		return malformed("empty struct at %d/%d", client, clock)
	}
	if clock+b.length > maxClock || b.length > maxClock {
		return malformed("clock out of range at client %d", client)
	}
	return nil
}

// readBlock reads one struct starting at (client, clock) into b.
func readBlock(d updateDecoder, b *block, client, clock uint64) {
	info := d.readInfo()
	id := ID{Client: client, Clock: clock}
	switch {
	case info == refSkip:
		*b = block{kind: blockSkip, id: id, length: d.rest().ReadVarUint()}
		return
	case info&0x1F == refGC:
		*b = block{kind: blockGC, id: id, length: d.readLen()}
		return
	}
	*b = block{kind: blockItem, id: id}
	if info&0x80 != 0 {
		b.hasOrigin, b.origin = true, d.readLeftID()
	}
	if info&0x40 != 0 {
		b.hasRightOrigin, b.rightOrigin = true, d.readRightID()
	}
	if info&0xC0 == 0 {
		if d.readParentInfo() {
			b.parent, b.parentName = parentByName, d.readString()
		} else {
			b.parent, b.parentID = parentByID, d.readLeftID()
		}
		if info&0x20 != 0 {
			b.hasParentSub, b.parentSub = true, d.readString()
		}
	}
	b.content = readContent(d, info)
	if b.content != nil {
		b.length = b.content.length()
	}
}

// write is Item.write / GC.write / Skip.write: the struct from offset on.
func (b *block) write(e updateEncoder, offset uint64) {
	switch b.kind {
	case blockGC:
		e.writeInfo(refGC)
		e.writeLen(b.length - offset)
		return
	case blockSkip:
		e.writeInfo(refSkip)
		e.rest().WriteVarUint(b.length - offset)
		return
	}
	origin, hasOrigin := b.origin, b.hasOrigin
	if offset > 0 {
		origin, hasOrigin = ID{Client: b.id.Client, Clock: b.id.Clock + offset - 1}, true
	}
	e.writeInfo(itemInfo(b.content.ref(), hasOrigin, b.hasRightOrigin, b.hasParentSub))
	if hasOrigin {
		e.writeLeftID(origin)
	}
	if b.hasRightOrigin {
		e.writeRightID(b.rightOrigin)
	}
	if !hasOrigin && !b.hasRightOrigin {
		switch b.parent {
		case parentByName:
			e.writeParentInfo(true)
			e.writeString(b.parentName)
		case parentByID:
			e.writeParentInfo(false)
			e.writeLeftID(b.parentID)
		}
		if b.hasParentSub {
			e.writeString(b.parentSub)
		}
	}
	b.content.write(e, offset)
}

// itemInfo is the info byte of an item: the content reference and which
// optional fields follow.
func itemInfo(ref byte, hasOrigin, hasRightOrigin, hasParentSub bool) byte {
	info := ref & 0x1F
	if hasOrigin {
		info |= 0x80
	}
	if hasRightOrigin {
		info |= 0x40
	}
	if hasParentSub {
		info |= 0x20
	}
	return info
}

// slice is sliceStruct: the part of b from diff on, as a new struct. Like
// Yjs, slicing an item splices its content, which leaves b's content cut.
func (b *block) slice(diff uint64) *block {
	id := ID{Client: b.id.Client, Clock: b.id.Clock + diff}
	if b.kind != blockItem {
		return &block{kind: b.kind, id: id, length: b.length - diff}
	}
	r := *b
	r.id = id
	r.hasOrigin, r.origin = true, ID{Client: b.id.Client, Clock: b.id.Clock + diff - 1}
	r.content = b.content.splice(diff)
	r.length = r.content.length()
	return &r
}

// mergeWith is the mergeWith of a struct written by mergeUpdates: GC and
// Skip structs absorb their right neighbour of the same kind. Items never
// merge there (Item.mergeWith needs them linked in a document).
func (b *block) mergeWith(right *block) bool {
	if b.kind == blockItem || b.kind != right.kind {
		return false
	}
	b.length += right.length
	return true
}
