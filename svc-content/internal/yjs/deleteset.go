package yjs

import (
	"slices"
)

// deleteRange is a DeleteItem: clocks [clock, clock+length) of a client.
type deleteRange struct {
	clock, length uint64
}

// deleteSet is Yjs's DeleteSet: per client, the deleted clock ranges.
type deleteSet map[uint64][]deleteRange

func (ds deleteSet) add(client, clock, length uint64) {
	ds[client] = append(ds[client], deleteRange{clock, length})
}

// addRange adds to *ds, made on first use: most updates delete nothing,
// and an empty set was a map allocated for each of them.
func (ds *deleteSet) addRange(client, clock, length uint64) {
	if *ds == nil {
		*ds = deleteSet{}
	}
	ds.add(client, clock, length)
}

// sortAndMerge is sortAndMergeDeleteSet: ranges sorted by clock, touching
// and overlapping ranges joined.
func (ds deleteSet) sortAndMerge() {
	for client, dels := range ds {
		ds[client] = sortAndMergeRanges(dels)
	}
}

func sortAndMergeRanges(dels []deleteRange) []deleteRange {
	slices.SortFunc(dels, func(a, b deleteRange) int {
		switch {
		case a.clock < b.clock:
			return -1
		case a.clock > b.clock:
			return 1
		}
		return 0
	})
	j := 1
	for i := 1; i < len(dels); i++ {
		left, right := &dels[j-1], dels[i]
		if left.clock+left.length >= right.clock {
			left.length = max(left.length, right.clock+right.length-left.clock)
		} else {
			dels[j] = right
			j++
		}
	}
	if len(dels) > 0 {
		dels = dels[:j]
	}
	return dels
}

// mergeDeleteSets joins delete sets into a new one, sorted and merged.
func mergeDeleteSets(dss []deleteSet) deleteSet {
	merged := deleteSet{}
	for _, ds := range dss {
		for client, dels := range ds {
			merged[client] = append(merged[client], dels...)
		}
	}
	merged.sortAndMerge()
	return merged
}

// sortedClients returns the clients of ds, highest first: the order in
// which Yjs writes them.
func (ds deleteSet) sortedClients() []uint64 {
	clients := make([]uint64, 0, len(ds))
	for c := range ds {
		clients = append(clients, c)
	}
	slices.SortFunc(clients, descending)
	return clients
}

func descending(a, b uint64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// writeDeleteSet writes ds, clients from the highest.
func writeDeleteSet(e updateEncoder, ds deleteSet) {
	e.rest().WriteVarUint(uint64(len(ds)))
	for _, client := range ds.sortedClients() {
		dels := ds[client]
		e.resetDsCurVal()
		e.rest().WriteVarUint(client)
		e.rest().WriteVarUint(uint64(len(dels)))
		for _, r := range dels {
			e.writeDsClock(r.clock)
			e.writeDsLen(r.length)
		}
	}
}

// readDeleteSet reads a delete set; ranges stay in wire order, and the
// clients are also returned in the order they first appear (the order Yjs
// applies them in). A client listed twice collects both lists, as in Yjs.
func readDeleteSet(d updateDecoder) (deleteSet, []uint64, error) {
	rest := d.rest()
	var ds deleteSet // nil (readable) while empty
	var order []uint64
	numClients := rest.ReadVarUint()
	if numClients > uint64(rest.Remaining()) {
		return nil, nil, malformed("delete set of %d clients, input too short", numClients)
	}
	for i := uint64(0); i < numClients; i++ {
		d.resetDsCurVal()
		client := rest.ReadVarUint()
		n := rest.ReadVarUint()
		if n > uint64(rest.Remaining()) {
			return nil, nil, malformed("%d deletes announced, input too short", n)
		}
		if _, seen := ds[client]; !seen && n > 0 {
			order = append(order, client)
		}
		for j := uint64(0); j < n; j++ {
			clock := d.readDsClock()
			length := d.readDsLen()
			if clock > maxClock || length > maxClock || clock+length > maxClock {
				return nil, nil, malformed("delete range out of range")
			}
			ds.addRange(client, clock, length)
		}
		if err := d.err(); err != nil {
			return nil, nil, malformed("%v", err)
		}
	}
	if err := d.err(); err != nil {
		return nil, nil, malformed("%v", err)
	}
	return ds, order, nil
}

// applyDeleteSet is readAndApplyDeleteSet: it deletes what the store has
// and returns the rest as an update (nil when everything applied).
func (tx *Tx) applyDeleteSet(ds deleteSet, order []uint64) []byte {
	store := tx.doc.store
	var unapplied deleteSet
	for _, client := range order {
		dels := ds[client]
		state := store.state(client)
		for _, del := range dels {
			clock, end := del.clock, del.clock+del.length
			if clock >= state {
				unapplied.addRange(client, clock, end-clock)
				continue
			}
			if state < end {
				unapplied.addRange(client, state, end-state)
			}
			tx.deleteRange(client, clock, end)
		}
	}
	if len(unapplied) == 0 {
		return nil
	}
	e := &encoderV1{}
	e.rest().WriteVarUint(0) // no structs
	writeDeleteSet(e, unapplied)
	return e.toBytes()
}

// deleteRange deletes the structs of client in [clock, end), splitting the
// ones it cuts.
func (tx *Tx) deleteRange(client, clock, end uint64) {
	store := tx.doc.store
	structs := store.structsOf(client)
	index := findIndex(structs, clock)
	if index < 0 {
		return
	}
	if it := structs[index]; !it.deleted() && it.id.Clock < clock {
		right := tx.splitItem(it, clock-it.id.Clock)
		structs = slices.Insert(structs, index+1, right)
		store.setStructs(client, structs)
		index++
	}
	for index < len(structs) {
		it := structs[index]
		index++
		if it.id.Clock >= end {
			break
		}
		if it.deleted() {
			continue
		}
		if end < it.id.Clock+it.length {
			right := tx.splitItem(it, end-it.id.Clock)
			structs = slices.Insert(structs, index, right)
			store.setStructs(client, structs)
		}
		it.delete(tx)
		structs = store.structsOf(client) // deleting a type splits nothing, but stay safe
	}
}
