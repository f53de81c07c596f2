package yjs

import (
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// These functions work on encoded updates without a document, as Yjs's
// src/utils/updates.js; their results are byte for byte what Yjs returns.

// lazyReader is LazyStructReader over an update decoded in full.
type lazyReader struct {
	blocks      []*block
	pos         int
	curr        *block
	filterSkips bool
}

func newLazyReader(sections []section, filterSkips bool) *lazyReader {
	r := &lazyReader{filterSkips: filterSkips}
	for _, s := range sections {
		r.blocks = append(r.blocks, s.blocks...)
	}
	r.next()
	return r
}

func (r *lazyReader) next() *block {
	for {
		if r.pos >= len(r.blocks) {
			r.curr = nil
			return nil
		}
		r.curr = r.blocks[r.pos]
		r.pos++
		if !r.filterSkips || r.curr.kind != blockSkip {
			return r.curr
		}
	}
}

// lazyWriter is LazyStructWriter: it writes structs client by client and
// counts them, since the count precedes each client's structs.
type lazyWriter struct {
	e          *encoderV1
	currClient uint64
	written    uint64
	parts      []lazyPart
	first      error
}

type lazyPart struct {
	written uint64
	bytes   []byte
}

func newLazyWriter() *lazyWriter { return &lazyWriter{e: &encoderV1{}} }

func (w *lazyWriter) flush() {
	if w.written > 0 {
		w.parts = append(w.parts, lazyPart{w.written, w.e.toBytes()})
		if err := w.e.err(); err != nil && w.first == nil {
			w.first = err
		}
		w.e = &encoderV1{}
		w.written = 0
	}
}

// write is writeStructToLazyStructWriter.
func (w *lazyWriter) write(b *block, offset uint64) {
	if w.written > 0 && w.currClient != b.id.Client {
		w.flush()
	}
	if w.written == 0 {
		w.currClient = b.id.Client
		w.e.writeClient(b.id.Client)
		w.e.rest().WriteVarUint(b.id.Clock + offset)
	}
	b.write(w.e, offset)
	w.written++
}

// finish is finishLazyStructWriting: the structs part of an update.
func (w *lazyWriter) finish() (*encoderV1, error) {
	w.flush()
	out := &encoderV1{}
	out.rest().WriteVarUint(uint64(len(w.parts)))
	for _, p := range w.parts {
		out.rest().WriteVarUint(p.written)
		out.rest().WriteBytes(p.bytes)
	}
	return out, w.first
}

// MergeUpdates merges v1 updates into one (Y.mergeUpdates). A single
// update is returned as it is, as Yjs does.
func MergeUpdates(updates ...[]byte) ([]byte, error) {
	if len(updates) == 1 {
		return updates[0], nil
	}
	readers := make([]*lazyReader, 0, len(updates))
	dss := make([]deleteSet, 0, len(updates))
	for _, u := range updates {
		d, err := decodeUpdate(newDecoderV1(u))
		if err != nil {
			return nil, err
		}
		readers = append(readers, newLazyReader(d.sections, true))
		dss = append(dss, d.ds)
	}
	w := newLazyWriter()
	mergeStructs(readers, w)
	out, err := w.finish()
	if err != nil {
		return nil, err
	}
	writeDeleteSet(out, mergeDeleteSets(dss))
	return out.toBytes(), out.err()
}

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
	w := newLazyWriter()
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
	out, err := w.finish()
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
	w := newLazyWriter()
	for _, s := range d.sections {
		for _, b := range s.blocks {
			w.write(b, 0)
		}
	}
	out, err := w.finish()
	if err != nil {
		return nil, err
	}
	writeDeleteSet(out, d.ds)
	return out.toBytes(), out.err()
}
