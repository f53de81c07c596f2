// Package yjs is a Yjs document engine compatible with yjs 13.6 (npm): it
// reads and writes Yjs updates (v1; v2 is read too), merges and diffs them
// without a document (MergeUpdates, DiffUpdate), and keeps full documents
// (Doc) that integrate remote updates, hold updates whose dependencies have
// not arrived, and make local edits whose updates stock Yjs applies.
//
// The algorithms are those of Yjs (src/utils/updates.js, encoding.js,
// structs/Item.js, types/*.js), so documents converge with Yjs peers and
// updates encode byte for byte as Yjs encodes them. Text indexes and
// lengths count UTF-16 code units, as JavaScript strings do.
//
// Values are the lib0 value model: nil, bool, float64 (numbers; Go integer
// types are accepted on input), string, []any, map[string]any (objects
// read back as map[string]any; lib0.Object keeps JavaScript's key order),
// []byte (Uint8Array), and shared types (*Text, *Map, *Array, *XmlElement,
// *XmlText, *XmlFragment).
//
// A Doc is not safe for concurrent use.
package yjs

import (
	"crypto/rand"
	"encoding/binary"
)

// Doc is a Yjs document: one peer with its client id.
type Doc struct {
	clientID uint64
	gc       bool
	share    map[string]*branch
	store    *structStore
	tx       *Tx
	// cleanups are the transactions waiting for their cleanup, in order.
	cleanups []*Tx
	onUpdate []func(update []byte)
	// markerClock orders search markers by last use.
	markerClock uint64
	// spareTx are finished transactions to reuse.
	spareTx []*Tx
	// decoder reads the v1 updates applied: one per document, not one
	// per update (a realtime room applies every update its editors send).
	decoder decoderV1
	// encoder writes the updates its transactions emit (its buffer is
	// each update's own): an encoder allocated per update cost one
	// allocation more.
	encoder encoderV1
}

// NewDoc returns an empty document whose local edits use clientID. Yjs
// picks random 32-bit ids; any id up to 2^53-1 works with Yjs peers.
func NewDoc(clientID uint64) *Doc {
	return &Doc{clientID: clientID, gc: true, share: map[string]*branch{}, store: newStructStore()}
}

// newClientID is a random 32-bit client id, as Yjs generates.
func newClientID() uint64 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return uint64(binary.LittleEndian.Uint32(b[:]))
}

// ClientID is the id of the document's local edits. It changes when a
// remote update carries structs of this id (another peer uses it), as in
// Yjs.
func (d *Doc) ClientID() uint64 { return d.clientID }

// SetGC turns garbage collection of deleted content on (the default, as in
// Yjs) or off.
func (d *Doc) SetGC(on bool) { d.gc = on }

// OnUpdate calls fn after every transaction that changed the document
// (remote and local) with the transaction's update (v1), as Yjs's 'update'
// event.
func (d *Doc) OnUpdate(fn func(update []byte)) { d.onUpdate = append(d.onUpdate, fn) }

// root returns the root type name, creating it untyped (Yjs doc.get).
func (d *Doc) root(name string) *branch {
	b, ok := d.share[name]
	if !ok {
		b = &branch{doc: d, ref: refUndefined, name: name}
		d.share[name] = b
	}
	return b
}

// rootAs returns the root type name as kind ref, creating it; nil when it
// exists as another kind. An untyped root takes the kind, as in Yjs.
func (d *Doc) rootAs(name string, ref typeRef) *branch {
	b := d.root(name)
	switch b.ref {
	case ref:
		return b
	case refUndefined:
		typed := newBranch(ref, name)
		b.ref, b.markers, b.hasFormatting = ref, typed.markers, false
		return b
	}
	return nil
}

// Root reports the kind of the root type name, if it exists.
func (d *Doc) Root(name string) (Kind, bool) {
	b, ok := d.share[name]
	if !ok {
		return "", false
	}
	return b.kind(), true
}

// Roots returns the names of the root types.
func (d *Doc) Roots() []string {
	names := make([]string, 0, len(d.share))
	for n := range d.share {
		names = append(names, n)
	}
	return names
}

// transact runs fn in a transaction (nested calls join the running one)
// and then the cleanup of every finished transaction, in order. It returns
// the update of the transaction it started.
func (d *Doc) transact(local bool, fn func(tx *Tx) error) (update []byte, err error) {
	if d.tx != nil {
		return nil, fn(d.tx)
	}
	tx := d.newTx(local)
	d.tx = tx
	d.cleanups = append(d.cleanups, tx)
	func() {
		defer func() {
			d.tx = nil
			if r := recover(); r != nil {
				if local {
					tx.rollback()
				}
				d.cleanups = d.cleanups[:0]
				panic(r)
			}
		}()
		err = fn(tx)
	}()
	if err != nil && local {
		tx.rollback()
	}
	if d.cleanups[0] != tx {
		return nil, err // the cleanup loop of an outer transaction runs it
	}
	for i := 0; i < len(d.cleanups); i++ {
		t := d.cleanups[i]
		// the update is encoded when someone takes it, as in Yjs
		u := t.cleanup(len(d.onUpdate) > 0 || (t == tx && local))
		if t == tx {
			update = u
		}
		if u != nil {
			for _, h := range d.onUpdate {
				h(u)
			}
		}
	}
	for _, t := range d.cleanups {
		d.release(t)
	}
	clear(d.cleanups)
	d.cleanups = d.cleanups[:0]
	return update, err
}

// Transact runs local edits as the document's client. It returns the
// update of the transaction (nil when nothing changed), as Yjs's 'update'
// event gives it. When fn fails, its edits are undone and nothing is kept.
func (d *Doc) Transact(fn func(tx *Tx) error) ([]byte, error) {
	return d.transact(true, fn)
}

// StateVector is the encoded state vector (Y.encodeStateVector).
func (d *Doc) StateVector() []byte { return EncodeStateVector(d.store.stateVector()) }

// StateVectorMap is the state vector: client -> next clock.
func (d *Doc) StateVectorMap() map[uint64]uint64 { return d.store.stateVector() }

// EncodeStateAsUpdate encodes what the document has beyond stateVector (nil
// or empty: everything), including pending structs and deletes, as
// Y.encodeStateAsUpdate does.
func (d *Doc) EncodeStateAsUpdate(stateVector []byte) ([]byte, error) {
	sv := map[uint64]uint64{}
	if len(stateVector) > 0 {
		var err error
		if sv, err = DecodeStateVector(stateVector); err != nil {
			return nil, err
		}
	} else {
		stateVector = []byte{0}
	}
	e := &encoderV1{}
	writeClientsStructs(e, d.store, func(c uint64) uint64 { return sv[c] })
	writeDeleteSet(e, deleteSetFromStore(d.store))
	if err := e.err(); err != nil {
		return nil, err
	}
	updates := [][]byte{e.toBytes()}
	if d.store.pendingDs != nil {
		updates = append(updates, d.store.pendingDs)
	}
	if d.store.pendingStructs != nil {
		diff, err := DiffUpdate(d.store.pendingStructs, stateVector)
		if err != nil {
			return nil, err
		}
		updates = append(updates, diff)
	}
	if len(updates) == 1 {
		return updates[0], nil
	}
	return MergeUpdates(updates...)
}

// HasPending reports whether updates left structs or deletes that wait for
// structs not received yet.
func (d *Doc) HasPending() bool {
	return d.store.pendingStructs != nil || d.store.pendingDs != nil
}
