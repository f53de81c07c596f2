package yjs

import (
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// writeClientsStructs writes every struct the store has beyond sv, clients
// from the highest (Yjs writeClientsStructs).
func writeClientsStructs(e updateEncoder, store *structStore, sv func(client uint64) uint64) {
	type start struct {
		structs []*Item // from the first struct to write
		client  uint64
		clock   uint64
	}
	// Room on the stack for the usual few clients: a document emits an
	// update per transaction, nearly always of one client.
	starts := make([]start, 0, 8)
	size := 0
	for _, c := range store.list {
		if clock := sv(c.client); c.state() > clock {
			clock = max(clock, c.structs[0].id.Clock)
			structs := c.structs[findIndex(c.structs, clock):]
			starts = append(starts, start{structs, c.client, clock})
			size += structsSizeHint(structs, clock)
		}
	}
	if len(starts) > 1 {
		slices.SortFunc(starts, func(a, b start) int { return descending(a.client, b.client) })
	}
	// Grown by append alone, a 100 KB state was copied 13 times (437 KB:
	// large slices grow by a quarter); sized once, it is copied once.
	rest := e.rest()
	rest.Buf = slices.Grow(rest.Buf, size)
	rest.WriteVarUint(uint64(len(starts)))
	for _, s := range starts {
		writeStructs(e, s.structs, s.client, s.clock)
	}
}

// structsSizeHint is about the size in v1 of structs from clock on and
// their client's header: the text of string contents and a few bytes for
// each struct (other contents are counted as none; append grows the
// rest). Clock ranges are not counted: deleted text takes a clock unit a
// character and a few bytes in all. The first struct may begin before
// clock (a transaction's update of a character typed into a run).
func structsSizeHint(structs []*Item, clock uint64) int {
	n := 16
	for _, it := range structs {
		n += 8
		if s, ok := it.content.(*contentString); ok {
			n += max(0, len(s.s)-int(clock-min(clock, it.id.Clock)))
		}
	}
	return n
}

// writeStructs writes structs of one client, the first from clock on.
func writeStructs(e updateEncoder, structs []*Item, client, clock uint64) {
	e.rest().WriteVarUint(uint64(len(structs)))
	e.writeClient(client)
	e.rest().WriteVarUint(clock)
	structs[0].write(e, clock-structs[0].id.Clock)
	for _, it := range structs[1:] {
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
