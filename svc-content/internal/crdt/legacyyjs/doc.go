// Package legacyyjs is the version writer svc-content used before the Yjs
// engine (internal/yjs) existed; crdt storage still keeps its state, until
// it moves onto the engine.
//
// It writes Yjs document updates (v1 encoding, as Y.applyUpdate
// reads them) for a document that holds one shared type at one key and
// whose content is only ever set whole: text (Y.Text), map (Y.Map), array
// (Y.Array) or XML (Y.XmlFragment of Y.XmlElement and Y.XmlText).
//
// A Doc is one Yjs client (ClientID) writing versions. Each version's items
// follow the previous version's: a sequence version starts after the last
// top-level item ever written, a map key's new item has the key's previous
// item as origin, and the update's delete set covers every earlier clock.
// So the full update loads to the latest version, and a peer that holds an
// earlier state and applies it converges to the same content.
//
// Earlier versions are kept the way Yjs's garbage collector leaves deleted
// content: top-level items as ContentDeleted (structure, no payload) and
// everything nested in them as GC ranges. An update therefore grows with
// the number of versions only by a few bytes per top-level item.
//
// Strings must be valid UTF-8 (as encoding/json and encoding/xml produce).
package legacyyjs

import "fmt"

// Kind is the shared type at the document's key.
type Kind string

// The kinds of shared type, named as the REST interface names them.
const (
	KindText  Kind = "text"
	KindMap   Kind = "map"
	KindArray Kind = "array"
	KindXML   Kind = "xml"
)

// Doc is the state needed to write the next version. Its exported fields
// are what a caller persists between versions.
type Doc struct {
	ClientID uint32
	Key      string // the root type's name (contentKey)
	Kind     Kind
	// Clock is the next clock of ClientID; Start the first clock of the
	// current version. Clocks [0, Start) belong to replaced versions.
	Clock, Start uint64
	// History holds the structs of the replaced versions [0, Start), in
	// their garbage-collected form; HistoryCount how many there are.
	History      []byte
	HistoryCount uint64
	// Current holds the current version [Start, Clock) in the form it takes
	// once replaced, ready to be appended to History.
	Current      []byte
	CurrentCount uint64
	// LastTop is the clock of the last top-level item of a sequence kind
	// (text, array, xml), the origin of the next version; HasLastTop
	// reports whether there is one.
	LastTop    uint64
	HasLastTop bool
	// KeyClocks maps each key a map version ever had to the clock of its
	// latest item, the origin of that key's next value.
	KeyClocks map[string]uint64
}

// NewDoc starts an empty document for one shared type.
func NewDoc(clientID uint32, key string, kind Kind) *Doc {
	return &Doc{ClientID: clientID, Key: key, Kind: kind}
}

// SetText replaces the content of a text document and returns the full
// update.
func (d *Doc) SetText(text string) ([]byte, error) {
	if err := d.expect(KindText); err != nil {
		return nil, err
	}
	b := d.begin()
	if text != "" {
		if _, err := b.top(stringContent(text)); err != nil {
			return nil, err
		}
	}
	return d.commit(b), nil
}

// SetArray replaces the content of an array document: one ContentAny item
// holding every value.
func (d *Doc) SetArray(values []any) ([]byte, error) {
	if err := d.expect(KindArray); err != nil {
		return nil, err
	}
	b := d.begin()
	if len(values) > 0 {
		if _, err := b.top(anyContent(values)); err != nil {
			return nil, err
		}
	}
	return d.commit(b), nil
}

// SetMap replaces the content of a map document: one ContentAny item per
// key, in the order of entries. Keys missing from entries are deleted.
func (d *Doc) SetMap(entries Object) ([]byte, error) {
	if err := d.expect(KindMap); err != nil {
		return nil, err
	}
	b := d.begin()
	for _, f := range entries {
		if f.Key == "" {
			return nil, fmt.Errorf("yjs: map keys must not be empty")
		}
		p := place{rootKey: d.Key, parentSub: f.Key}
		if c, ok := b.keyClocks[f.Key]; ok {
			p.origin = &c
		}
		id := b.clock
		if err := b.add(p, anyContent{f.Value}, true); err != nil {
			return nil, err
		}
		b.keyClocks[f.Key] = id
	}
	return d.commit(b), nil
}

// SetXML replaces the content of an XML fragment with nodes.
func (d *Doc) SetXML(nodes []XMLNode) ([]byte, error) {
	if err := d.expect(KindXML); err != nil {
		return nil, err
	}
	b := d.begin()
	for _, n := range nodes {
		if err := b.topXML(n); err != nil {
			return nil, err
		}
	}
	return d.commit(b), nil
}

// update is the full update of the current state: every struct, and the
// delete set of the replaced versions. current is the live encoding of the
// current version.
func (d *Doc) update(current []byte, currentCount uint64) []byte {
	e := &encoder{}
	if n := d.HistoryCount + currentCount; n == 0 {
		e.varUint(0) // no client has structs
	} else {
		e.varUint(1)
		e.varUint(n)
		e.varUint(uint64(d.ClientID))
		e.varUint(0) // first clock
		e.bytes(d.History)
		e.bytes(current)
	}
	if d.Start == 0 {
		e.varUint(0) // empty delete set
	} else {
		e.varUint(1)
		e.varUint(uint64(d.ClientID))
		e.varUint(1)
		e.varUint(0)
		e.varUint(d.Start)
	}
	return e.buf
}

func (d *Doc) expect(k Kind) error {
	if d.Kind != k {
		return fmt.Errorf("yjs: document holds %s, not %s", d.Kind, k)
	}
	return nil
}

// begin starts a version after everything written so far. Nothing in d
// changes until commit, so a failed version leaves d as it was.
func (d *Doc) begin() *builder {
	b := &builder{doc: d, clock: d.Clock, keyClocks: map[string]uint64{}}
	for k, c := range d.KeyClocks {
		b.keyClocks[k] = c
	}
	if d.HasLastTop {
		last := d.LastTop
		b.lastTop = &last
	}
	return b
}

// commit makes b's version the current one and returns the full update.
func (d *Doc) commit(b *builder) []byte {
	b.flushGC()
	d.History = append(d.History, d.Current...)
	d.HistoryCount += d.CurrentCount
	d.Start = d.Clock
	d.Clock = b.clock
	d.Current, d.CurrentCount = b.tomb.buf, b.tombCount
	if b.lastTop != nil {
		d.LastTop, d.HasLastTop = *b.lastTop, true
	}
	if d.Kind == KindMap {
		d.KeyClocks = b.keyClocks
	}
	return d.update(b.live.buf, b.liveCount)
}
