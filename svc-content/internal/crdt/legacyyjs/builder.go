package legacyyjs

// builder encodes one version twice: live (the items as they are) and tomb
// (as they will be kept once the next version replaces this one).
type builder struct {
	doc                  *Doc
	clock                uint64
	live, tomb           encoder
	liveCount, tombCount uint64
	gcPending            uint64 // nested clocks not yet written to tomb as GC
	lastTop              *uint64
	keyClocks            map[string]uint64
}

// add appends one item. A top-level item (a direct child of the root type)
// is kept as ContentDeleted with its position; a nested one becomes part
// of a GC range, since its parent is deleted with the version.
func (b *builder) add(p place, c content, top bool) error {
	if err := writeItem(&b.live, b.doc.ClientID, p, c); err != nil {
		return err
	}
	b.liveCount++
	n := c.length()
	if top {
		b.flushGC()
		_ = writeItem(&b.tomb, b.doc.ClientID, p, deletedContent(n))
		b.tombCount++
	} else {
		b.gcPending += n
	}
	b.clock += n
	return nil
}

func (b *builder) flushGC() {
	if b.gcPending == 0 {
		return
	}
	b.tomb.byte(refGC)
	b.tomb.varUint(b.gcPending)
	b.tombCount++
	b.gcPending = 0
}

// topPlace is where the next top-level item of a sequence goes: after the
// last one ever written, or first in the root type.
func (b *builder) topPlace() place {
	if b.lastTop != nil {
		last := *b.lastTop
		return place{origin: &last}
	}
	return place{rootKey: b.doc.Key}
}

// top appends a top-level sequence item and returns its first clock.
func (b *builder) top(c content) (uint64, error) {
	id := b.clock
	if err := b.add(b.topPlace(), c, true); err != nil {
		return 0, err
	}
	last := b.clock - 1
	b.lastTop = &last
	return id, nil
}

// topXML appends a node at the top level of the fragment.
func (b *builder) topXML(n XMLNode) error {
	switch t := n.(type) {
	case *XMLElement:
		id, err := b.top(typeContent{typeRef: typeRefXMLElement, nodeName: t.Name})
		if err != nil {
			return err
		}
		return b.elementBody(id, t)
	case XMLText:
		id, err := b.top(typeContent{typeRef: typeRefXMLText})
		if err != nil {
			return err
		}
		return b.textBody(id, t)
	}
	return nil
}

// nestedXML appends a node inside the type item parent, after origin (nil:
// first child) and returns the node's clock.
func (b *builder) nestedXML(n XMLNode, parent uint64, origin *uint64) (uint64, error) {
	p := place{origin: origin}
	if origin == nil {
		p.parentID = &parent
	}
	id := b.clock
	switch t := n.(type) {
	case *XMLElement:
		if err := b.add(p, typeContent{typeRef: typeRefXMLElement, nodeName: t.Name}, false); err != nil {
			return 0, err
		}
		return id, b.elementBody(id, t)
	case XMLText:
		if err := b.add(p, typeContent{typeRef: typeRefXMLText}, false); err != nil {
			return 0, err
		}
		return id, b.textBody(id, t)
	}
	return id, nil
}

// elementBody writes the attributes (map entries of the element) and the
// children (its sequence) of the element item id.
func (b *builder) elementBody(id uint64, el *XMLElement) error {
	for _, a := range el.Attrs {
		parent := id
		p := place{parentID: &parent, parentSub: a.Name}
		if err := b.add(p, anyContent{a.Value}, false); err != nil {
			return err
		}
	}
	var prev *uint64
	for _, child := range el.Children {
		cid, err := b.nestedXML(child, id, prev)
		if err != nil {
			return err
		}
		prev = &cid
	}
	return nil
}

// textBody writes the string of the Y.XmlText item id.
func (b *builder) textBody(id uint64, t XMLText) error {
	if t == "" {
		return nil
	}
	return b.add(place{parentID: &id}, stringContent(t), false)
}
