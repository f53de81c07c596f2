package yjs

import (
	"encoding/binary"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// The lazy struct reader and writer of Yjs's src/utils/updates.js, which
// the functions of updates.go read and write updates with.

// lazyReader is LazyStructReader over an update decoded in full.
type lazyReader struct {
	blocks      []*block
	pos         int
	curr        *block
	filterSkips bool
}

func newLazyReader(sections []section, filterSkips bool) *lazyReader {
	r := &lazyReader{}
	r.init(sections, filterSkips)
	return r
}

// init sets r to the first struct of sections. The structs of one
// section, most updates' case, are read where they are, not copied.
func (r *lazyReader) init(sections []section, filterSkips bool) {
	*r = lazyReader{filterSkips: filterSkips}
	if len(sections) == 1 {
		r.blocks = sections[0].blocks
	} else {
		for _, s := range sections {
			r.blocks = append(r.blocks, s.blocks...)
		}
	}
	r.next()
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
// counts them, since the count precedes each client's structs. Every
// client's part is written to one buffer, its end noted, and finish
// puts the counts in: a part of its own cost an encoder and a buffer
// grown from empty per client, the most of a merge's allocations.
type lazyWriter struct {
	e          encoderV1 // the parts, one after the other
	currClient uint64
	written    uint64 // structs of the current part
	parts      []lazyPart
}

type lazyPart struct {
	written uint64
	end     int // where the part ends in e
}

// newLazyWriter is a lazyWriter with room for size bytes of structs in
// parts clients' parts (what is expected; more grows it).
func newLazyWriter(size, parts int) *lazyWriter {
	return &lazyWriter{e: encoderV1{e: lib0.Encoder{Buf: make([]byte, 0, size)}}, parts: make([]lazyPart, 0, parts)}
}

func (w *lazyWriter) flush() {
	if w.written > 0 {
		w.parts = append(w.parts, lazyPart{w.written, w.e.e.Len()})
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
	b.write(&w.e, offset)
	w.written++
}

// finish is finishLazyStructWriting: the structs part of an update, with
// room for a delete set of dsSize bytes after it.
func (w *lazyWriter) finish(dsSize int) (*encoderV1, error) {
	w.flush()
	structs := w.e.toBytes()
	out := &encoderV1{e: lib0.Encoder{Buf: make([]byte, 0, len(structs)+binary.MaxVarintLen64*(len(w.parts)+1)+dsSize)}}
	out.rest().WriteVarUint(uint64(len(w.parts)))
	start := 0
	for _, p := range w.parts {
		out.rest().WriteVarUint(p.written)
		out.rest().WriteBytes(structs[start:p.end])
		start = p.end
	}
	return out, w.e.err()
}
