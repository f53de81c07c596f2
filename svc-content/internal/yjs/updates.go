package yjs

import (
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// These functions work on encoded updates without a document, as Yjs's
// src/utils/updates.js; their results are byte for byte what Yjs returns.

// MergeUpdates merges v1 updates into one (Y.mergeUpdates). A single
// update is returned as it is, as Yjs does.
func MergeUpdates(updates ...[]byte) ([]byte, error) {
	if len(updates) == 1 {
		return updates[0], nil
	}
	readers := make([]lazyReader, len(updates)) // one allocation for all
	order := make([]*lazyReader, len(updates))
	dss := make([]deleteSet, 0, len(updates))
	size := 0
	dec := &decoderV1{}
	for i, u := range updates {
		dec.reset(u)
		d, err := decodeUpdate(dec)
		if err != nil {
			return nil, err
		}
		readers[i].init(d.sections, true)
		order[i] = &readers[i]
		dss = append(dss, d.ds)
		size += len(u)
	}
	w := newLazyWriter(size, len(updates)) // a part per client, mostly one per update
	mergeStructs(order, w)
	out, err := w.finish(deleteSetRoom)
	if err != nil {
		return nil, err
	}
	writeDeleteSet(out, mergeDeleteSets(dss))
	return out.toBytes(), out.err()
}

// deleteSetRoom is the room an update written leaves for its delete set
// (a larger one grows the buffer): an empty delete set takes a byte,
// one of a few deletes some more.
const deleteSetRoom = 16

// compareReaders orders readers as mergeUpdatesV2: higher clients first,
// then lower clocks, a Skip after another struct at the same clock.
func compareReaders(a, b *lazyReader) int {
	x, y := a.curr, b.curr
	if x.id.Client != y.id.Client {
		return descending(x.id.Client, y.id.Client)
	}
	if x.id.Clock != y.id.Clock {
		if x.id.Clock < y.id.Clock {
			return -1
		}
		return 1
	}
	if (x.kind == blockSkip) == (y.kind == blockSkip) {
		return 0
	}
	if x.kind == blockSkip {
		return 1
	}
	return -1
}

// mergeStructs is the struct loop of mergeUpdatesV2.
func mergeStructs(readers []*lazyReader, w *lazyWriter) {
	var currWrite *block
	for {
		readers = slices.DeleteFunc(readers, func(r *lazyReader) bool { return r.curr == nil })
		slices.SortStableFunc(readers, compareReaders)
		if len(readers) == 0 {
			break
		}
		dec := readers[0]
		firstClient := dec.curr.id.Client
		if currWrite != nil {
			curr := dec.curr
			iterated := false
			// skip what was written already (higher clients come first)
			for curr != nil && curr.id.Clock+curr.length <= currWrite.id.Clock+currWrite.length && curr.id.Client >= currWrite.id.Client {
				curr = dec.next()
				iterated = true
			}
			if curr == nil || curr.id.Client != firstClient || (iterated && curr.id.Clock > currWrite.id.Clock+currWrite.length) {
				continue
			}
			currWrite = mergeNext(w, dec, currWrite, curr, firstClient)
		} else {
			currWrite = dec.curr
			dec.next()
		}
		for next := dec.curr; next != nil && next.id.Client == firstClient && next.id.Clock == currWrite.id.Clock+currWrite.length && next.kind != blockSkip; next = dec.next() {
			w.write(currWrite, 0)
			currWrite = next
		}
	}
	if currWrite != nil {
		w.write(currWrite, 0)
	}
}

// mergeNext takes curr (of firstClient) after currWrite: it writes
// currWrite and returns what is written next, filling a gap with a Skip and
// cutting what overlaps.
func mergeNext(w *lazyWriter, dec *lazyReader, currWrite, curr *block, firstClient uint64) *block {
	end := currWrite.id.Clock + currWrite.length
	switch {
	case firstClient != currWrite.id.Client:
		w.write(currWrite, 0)
		dec.next()
		return curr
	case end < curr.id.Clock:
		if currWrite.kind == blockSkip {
			currWrite.length = curr.id.Clock + curr.length - currWrite.id.Clock
			return currWrite
		}
		w.write(currWrite, 0)
		return &block{kind: blockSkip, id: ID{Client: firstClient, Clock: end}, length: curr.id.Clock - end}
	}
	if diff := end - curr.id.Clock; diff > 0 {
		if currWrite.kind == blockSkip {
			currWrite.length -= diff // the other struct may hold more information
		} else {
			curr = curr.slice(diff)
		}
	}
	if !currWrite.mergeWith(curr) {
		w.write(currWrite, 0)
		dec.next()
		return curr
	}
	return currWrite
}

// DiffUpdate returns what update holds beyond the encoded state vector sv
// (Y.diffUpdate).
func DiffUpdate(update, sv []byte) ([]byte, error) {
	state, err := DecodeStateVector(sv)
	if err != nil {
		return nil, err
	}
	d, err := decodeUpdate(newDecoderV1(update))
	if err != nil {
		return nil, err
	}
	r := newLazyReader(d.sections, false)
	w := newLazyWriter(len(update), 1)
	for r.curr != nil {
		curr := r.curr
		client := curr.id.Client
		svClock := state[client]
		if curr.kind == blockSkip {
			r.next() // the first written struct must not be a Skip
			continue
		}
		if curr.id.Clock+curr.length > svClock {
			offset := uint64(0)
			if svClock > curr.id.Clock {
				offset = svClock - curr.id.Clock
			}
			w.write(curr, offset)
			for r.next(); r.curr != nil && r.curr.id.Client == client; r.next() {
				w.write(r.curr, 0)
			}
		} else {
			for r.curr != nil && r.curr.id.Client == client && r.curr.id.Clock+r.curr.length <= svClock {
				r.next()
			}
		}
	}
	out, err := w.finish(deleteSetRoom)
	if err != nil {
		return nil, err
	}
	writeDeleteSet(out, d.ds)
	return out.toBytes(), out.err()
}

// EncodeStateVectorFromUpdate is Y.encodeStateVectorFromUpdate: the state
// vector of the structs an update holds from clock 0 on without gaps.
func EncodeStateVectorFromUpdate(update []byte) ([]byte, error) {
	d, err := decodeUpdate(newDecoderV1(update))
	if err != nil {
		return nil, err
	}
	r := newLazyReader(d.sections, false)
	var entries lib0.Encoder
	size := 0
	if curr := r.curr; curr != nil {
		client := curr.id.Client
		stop := curr.id.Clock != 0
		clock := uint64(0)
		if !stop {
			clock = curr.id.Clock + curr.length
		}
		for ; curr != nil; curr = r.next() {
			if client != curr.id.Client {
				if clock != 0 {
					size++
					entries.WriteVarUint(client)
					entries.WriteVarUint(clock)
				}
				client, clock, stop = curr.id.Client, 0, curr.id.Clock != 0
			}
			if curr.kind == blockSkip {
				stop = true
			}
			if !stop {
				clock = curr.id.Clock + curr.length
			}
		}
		if clock != 0 {
			size++
			entries.WriteVarUint(client)
			entries.WriteVarUint(clock)
		}
	}
	var out lib0.Encoder
	out.WriteVarUint(uint64(size))
	out.WriteBytes(entries.Buf)
	return out.Buf, nil
}

// ConvertUpdateV2ToV1 re-encodes a v2 update as v1
// (Y.convertUpdateFormatV2ToV1).
func ConvertUpdateV2ToV1(update []byte) ([]byte, error) {
	d, err := decodeUpdate(newDecoderV2(update))
	if err != nil {
		return nil, err
	}
	w := newLazyWriter(len(update), 1)
	for _, s := range d.sections {
		for _, b := range s.blocks {
			w.write(b, 0)
		}
	}
	out, err := w.finish(deleteSetRoom)
	if err != nil {
		return nil, err
	}
	writeDeleteSet(out, d.ds)
	return out.toBytes(), out.err()
}
