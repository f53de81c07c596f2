package yjs

import (
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// writeClientsStructs writes every struct the store has beyond sv, clients
// from the highest (Yjs writeClientsStructs).
func writeClientsStructs(e updateEncoder, store *structStore, sv func(client uint64) uint64) {
	type start struct {
		c     *clientStructs
		clock uint64
	}
	// Room on the stack for the usual few clients: a document emits an
	// update per transaction, nearly always of one client.
	starts := make([]start, 0, 8)
	for _, c := range store.list {
		if clock := sv(c.client); c.state() > clock {
			starts = append(starts, start{c, clock})
		}
	}
	if len(starts) > 1 {
		slices.SortFunc(starts, func(a, b start) int { return descending(a.c.client, b.c.client) })
	}
	e.rest().WriteVarUint(uint64(len(starts)))
	for _, s := range starts {
		writeStructs(e, s.c.structs, s.c.client, s.clock)
	}
}

// encodedSizeHint is about the size of writeClientsStructs' output in
// v1: the text of string contents and a few bytes for each struct (other
// contents are counted as none; append grows the rest). Growing by append
// alone, a 100 KB state allocated 437 KB in 13 copies (large slices grow
// by a quarter). Clock ranges are not counted: deleted text takes a clock
// unit a character and a few bytes in all.
func encodedSizeHint(store *structStore, since func(client uint64) uint64) int {
	n := 0
	for _, c := range store.list {
		clock := since(c.client)
		if c.state() <= clock {
			continue
		}
		n += 16
		for _, it := range c.structs[findIndex(c.structs, max(clock, c.structs[0].id.Clock)):] {
			n += 8
			if s, ok := it.content.(*contentString); ok {
				n += len(s.s)
			}
		}
	}
	return n
}

// writeStructs writes the structs of one client from clock on.
func writeStructs(e updateEncoder, structs []*Item, client, clock uint64) {
	clock = max(clock, structs[0].id.Clock)
	first := findIndex(structs, clock)
	e.rest().WriteVarUint(uint64(len(structs) - first))
	e.writeClient(client)
	e.rest().WriteVarUint(clock)
	structs[first].write(e, clock-structs[first].id.Clock)
	for _, it := range structs[first+1:] {
		it.write(e, 0)
	}
}

// deleteSetFromStore is createDeleteSetFromStructStore: the ranges of all
// deleted structs.
func deleteSetFromStore(store *structStore) deleteSet {
	ds := deleteSet{}
	for _, c := range store.list {
		client, structs := c.client, c.structs
		var dels []deleteRange
		for i := 0; i < len(structs); i++ {
			it := structs[i]
			if !it.deleted() {
				continue
			}
			clock, length := it.id.Clock, it.length
			for i+1 < len(structs) && structs[i+1].deleted() {
				i++
				length += structs[i].length
			}
			dels = append(dels, deleteRange{clock, length})
		}
		if len(dels) > 0 {
			ds[client] = dels
		}
	}
	return ds
}

// writeStateVector writes sv, clients from the highest.
func writeStateVector(e *lib0.Encoder, sv map[uint64]uint64) {
	clients := make([]uint64, 0, len(sv))
	for c := range sv {
		clients = append(clients, c)
	}
	slices.SortFunc(clients, descending)
	e.WriteVarUint(uint64(len(clients)))
	for _, c := range clients {
		e.WriteVarUint(c)
		e.WriteVarUint(sv[c])
	}
}

// EncodeStateVector encodes a state vector (client -> next clock) as
// Y.encodeStateVector does.
func EncodeStateVector(sv map[uint64]uint64) []byte {
	var e lib0.Encoder
	writeStateVector(&e, sv)
	return e.Buf
}

// DecodeStateVector decodes an encoded state vector: client -> next clock.
// A client listed twice keeps its last clock, as in Yjs.
func DecodeStateVector(sv []byte) (map[uint64]uint64, error) {
	d := lib0.NewDecoder(sv)
	n := d.ReadVarUint()
	if n > uint64(d.Remaining()) {
		return nil, malformed("state vector of %d clients, input too short", n)
	}
	m := make(map[uint64]uint64, n)
	for i := uint64(0); i < n; i++ {
		client := d.ReadVarUint()
		clock := d.ReadVarUint()
		if d.Err() != nil {
			break
		}
		m[client] = clock
	}
	if err := d.Err(); err != nil {
		return nil, malformed("state vector: %v", err)
	}
	return m, nil
}
