package yjs

import (
	"slices"
)

// decodedUpdate is an update read in full: its structs per client section
// and its delete set.
type decodedUpdate struct {
	sections []section
	ds       deleteSet
	dsOrder  []uint64 // the clients of ds in wire order
}

func decodeUpdate(d updateDecoder) (decodedUpdate, error) {
	sections, err := readSections(d)
	if err != nil {
		return decodedUpdate{}, err
	}
	ds, order, err := readDeleteSet(d)
	if err != nil {
		return decodedUpdate{}, err
	}
	return decodedUpdate{sections: sections, ds: ds, dsOrder: order}, nil
}

// ApplyUpdate applies a v1 update (Y.applyUpdate). Structs whose
// dependencies are missing, and deletes of clocks not received yet, are
// kept and applied when an update brings what they wait for. A malformed
// update is an error and changes nothing.
func (d *Doc) ApplyUpdate(update []byte) error {
	d.decoder.reset(update)
	u, err := decodeUpdate(&d.decoder)
	d.decoder = decoderV1{} // decoded: update is not held
	if err != nil {
		return err
	}
	_, err = d.transact(false, func(tx *Tx) error { return tx.readUpdate(u) })
	return err
}

// ApplyUpdateV2 applies a v2 update (Y.applyUpdateV2).
func (d *Doc) ApplyUpdateV2(update []byte) error {
	u, err := decodeUpdate(newDecoderV2(update))
	if err != nil {
		return err
	}
	_, err = d.transact(false, func(tx *Tx) error { return tx.readUpdate(u) })
	return err
}

// structRefs is the read position in one client's decoded structs.
type structRefs struct {
	i    int
	refs []*block
}

// readUpdate is readUpdateV2: integrate the structs, keep what cannot be
// integrated as pending, apply the deletes, and retry the pending structs
// when this update brought what they miss.
func (tx *Tx) readUpdate(u decodedUpdate) error {
	refs := make(map[uint64]*structRefs, len(u.sections))
	for _, s := range u.sections {
		refs[s.client] = &structRefs{refs: s.blocks} // a repeated client: the last section wins, as in Yjs
	}
	store := tx.doc.store
	rest, missing := tx.integrateStructs(refs)
	retry := false
	if store.pendingStructs != nil {
		for client, clock := range store.pendingMissing {
			if clock < store.state(client) {
				retry = true
				break
			}
		}
		if rest != nil {
			for client, clock := range missing {
				if m, ok := store.pendingMissing[client]; !ok || m > clock {
					store.pendingMissing[client] = clock
				}
			}
			merged, err := MergeUpdates(store.pendingStructs, rest)
			if err != nil {
				return err
			}
			store.pendingStructs = merged
		}
	} else {
		store.pendingStructs, store.pendingMissing = rest, missing
	}
	dsRest := tx.applyDeleteSet(u.ds, u.dsOrder)
	if store.pendingDs != nil {
		pending, err := decodeUpdate(newDecoderV1(store.pendingDs))
		if err != nil {
			return err
		}
		dsRest2 := tx.applyDeleteSet(pending.ds, pending.dsOrder)
		switch {
		case dsRest != nil && dsRest2 != nil:
			if store.pendingDs, err = MergeUpdates(dsRest, dsRest2); err != nil {
				return err
			}
		case dsRest != nil:
			store.pendingDs = dsRest
		default:
			store.pendingDs = dsRest2
		}
	} else {
		store.pendingDs = dsRest
	}
	if retry {
		update := store.pendingStructs
		store.pendingStructs, store.pendingMissing = nil, nil
		pending, err := decodeUpdate(newDecoderV1(update))
		if err != nil {
			return err
		}
		return tx.readUpdate(pending)
	}
	return nil
}

// integrateStructs is integrateStructs of Yjs: it integrates structs client
// by client (highest first), following dependencies on other clients with
// a stack, and returns what cannot be integrated yet as an update with the
// lowest missing clock per client.
func (tx *Tx) integrateStructs(refsByClient map[uint64]*structRefs) ([]byte, map[uint64]uint64) {
	clients := make([]uint64, 0, len(refsByClient))
	for c := range refsByClient {
		clients = append(clients, c)
	}
	slices.Sort(clients)
	next := func() *structRefs {
		for len(clients) > 0 {
			t := refsByClient[clients[len(clients)-1]]
			if t != nil && t.i < len(t.refs) {
				return t
			}
			clients = clients[:len(clients)-1]
		}
		return nil
	}
	cur := next()
	if cur == nil {
		return nil, nil
	}
	store := tx.doc.store
	rest := map[uint64][]*block{}
	missingSV := map[uint64]uint64{}
	updateMissing := func(client, clock uint64) {
		if m, ok := missingSV[client]; !ok || m > clock {
			missingSV[client] = clock
		}
	}
	var stack []*block
	addStackToRest := func() {
		for _, b := range stack {
			client := b.id.Client
			if inapplicable, ok := refsByClient[client]; ok {
				inapplicable.i--
				rest[client] = inapplicable.refs[inapplicable.i:]
				delete(refsByClient, client)
				inapplicable.i, inapplicable.refs = 0, nil
			} else {
				rest[client] = []*block{b}
			}
			clients = slices.DeleteFunc(clients, func(c uint64) bool { return c == client })
		}
		stack = stack[:0]
	}
	state := map[uint64]uint64{}
	localState := func(client uint64) uint64 {
		s, ok := state[client]
		if !ok {
			s = store.state(client)
			state[client] = s
		}
		return s
	}
	head := cur.refs[cur.i]
	cur.i++
	for {
		if head.kind != blockSkip {
			local := localState(head.id.Client)
			if local < head.id.Clock {
				// a struct of the same client is missing
				stack = append(stack, head)
				updateMissing(head.id.Client, head.id.Clock-1)
				addStackToRest()
			} else if client, isMissing := tx.missing(head); isMissing {
				stack = append(stack, head)
				refs := refsByClient[client]
				if refs == nil || refs.i == len(refs.refs) {
					// this update depends on an update not received yet
					updateMissing(client, store.state(client))
					addStackToRest()
				} else {
					head = refs.refs[refs.i]
					refs.i++
					continue
				}
			} else {
				it := tx.resolve(head)
				offset := local - head.id.Clock
				if offset < head.length {
					end := head.id.Clock + head.length
					if it.isGC() {
						it.integrateGC(tx, offset)
					} else {
						it.integrate(tx, offset)
					}
					state[head.id.Client] = end
				}
			}
		}
		switch {
		case len(stack) > 0:
			head = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		case cur != nil && cur.i < len(cur.refs):
			head = cur.refs[cur.i]
			cur.i++
		default:
			if cur = next(); cur == nil {
				return encodeRest(rest), missingSV
			}
			head = cur.refs[cur.i]
			cur.i++
		}
	}
}

// encodeRest encodes structs that could not be integrated as an update
// without deletes; nil when there are none.
func encodeRest(rest map[uint64][]*block) []byte {
	if len(rest) == 0 {
		return nil
	}
	clients := make([]uint64, 0, len(rest))
	for c := range rest {
		clients = append(clients, c)
	}
	slices.SortFunc(clients, descending)
	e := &encoderV1{}
	e.rest().WriteVarUint(uint64(len(clients)))
	for _, c := range clients {
		blocks := rest[c]
		e.rest().WriteVarUint(uint64(len(blocks)))
		e.writeClient(c)
		e.rest().WriteVarUint(blocks[0].id.Clock)
		for _, b := range blocks {
			b.write(e, 0)
		}
	}
	e.rest().WriteVarUint(0) // no deletes
	return e.toBytes()
}
