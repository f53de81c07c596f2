package yjs

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// ErrMalformed wraps every error about an update that cannot be decoded.
var ErrMalformed = errors.New("yjs: malformed update")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// updateDecoder reads the fields of an update, in the v1 or the v2 format
// (Yjs UpdateDecoderV1 / UpdateDecoderV2).
type updateDecoder interface {
	rest() *lib0.Decoder
	readClient() uint64
	readLeftID() ID
	readRightID() ID
	readInfo() byte
	readString() string
	// readStringBytes is readString as a fresh byte slice (ContentString).
	readStringBytes() []byte
	readParentInfo() bool
	readTypeRef() uint64
	readLen() uint64
	readAny() any
	readBuf() []byte
	readJSON() any
	readKey() string
	dsDecoder
	// err is the first error of any column.
	err() error
	// maxStructs bounds how many structs the update can hold, so a count
	// read from the wire cannot make a reader loop or allocate without end.
	maxStructs() uint64
}

// dsDecoder reads delete sets (DSDecoderV1 / DSDecoderV2).
type dsDecoder interface {
	resetDsCurVal()
	readDsClock() uint64
	readDsLen() uint64
}

// updateEncoder writes the fields of an update (UpdateEncoderV1; the v2
// format is only read).
type updateEncoder interface {
	rest() *lib0.Encoder
	writeClient(client uint64)
	writeLeftID(id ID)
	writeRightID(id ID)
	writeInfo(info byte)
	writeString(s string)
	writeStringBytes(b []byte)
	writeParentInfo(isYKey bool)
	writeTypeRef(ref uint64)
	writeLen(n uint64)
	writeAny(v any)
	writeBuf(b []byte)
	writeJSON(v any)
	writeKey(key string)
	resetDsCurVal()
	writeDsClock(clock uint64)
	writeDsLen(n uint64)
	toBytes() []byte
	// err is the first value that could not be encoded.
	err() error
}

// encoderV1 is UpdateEncoderV1 (and DSEncoderV1).
type encoderV1 struct {
	e     lib0.Encoder
	first error
}

func (w *encoderV1) rest() *lib0.Encoder  { return &w.e }
func (w *encoderV1) writeClient(c uint64) { w.e.WriteVarUint(c) }
func (w *encoderV1) writeLeftID(id ID) {
	w.e.WriteVarUint(id.Client)
	w.e.WriteVarUint(id.Clock)
}
func (w *encoderV1) writeRightID(id ID)         { w.writeLeftID(id) }
func (w *encoderV1) writeInfo(info byte)        { w.e.WriteUint8(info) }
func (w *encoderV1) writeString(s string)       { w.e.WriteVarString(s) }
func (w *encoderV1) writeStringBytes(b []byte)  { w.e.WriteVarBytes(b) }
func (w *encoderV1) writeTypeRef(ref uint64)    { w.e.WriteVarUint(ref) }
func (w *encoderV1) writeLen(n uint64)          { w.e.WriteVarUint(n) }
func (w *encoderV1) writeBuf(b []byte)          { w.e.WriteVarBytes(b) }
func (w *encoderV1) writeKey(key string)        { w.e.WriteVarString(key) }
func (w *encoderV1) resetDsCurVal()             {}
func (w *encoderV1) writeDsClock(clock uint64)  { w.e.WriteVarUint(clock) }
func (w *encoderV1) writeDsLen(n uint64)        { w.e.WriteVarUint(n) }
func (w *encoderV1) toBytes() []byte            { return w.e.Buf }
func (w *encoderV1) err() error                 { return w.first }
func (w *encoderV1) writeParentInfo(isKey bool) { w.e.WriteVarUint(boolUint(isKey)) }

func (w *encoderV1) writeAny(v any) {
	if err := w.e.WriteAny(v); err != nil && w.first == nil {
		w.first = err
	}
}

func (w *encoderV1) writeJSON(v any) {
	s, _, err := lib0.StringifyJSON(v)
	if err != nil && w.first == nil {
		w.first = err
	}
	w.e.WriteVarString(s)
}

func boolUint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// decoderV1 is UpdateDecoderV1 (and DSDecoderV1).
type decoderV1 struct {
	d     *lib0.Decoder
	limit uint64
	dec   lib0.Decoder
}

func newDecoderV1(update []byte) *decoderV1 {
	r := &decoderV1{}
	r.reset(update)
	return r
}

// reset makes r read update: a merge reads its updates with one decoder.
func (r *decoderV1) reset(update []byte) {
	// Every struct takes at least one byte in v1.
	*r = decoderV1{dec: *lib0.NewDecoder(update), limit: uint64(len(update))}
	r.d = &r.dec
}

func (r *decoderV1) rest() *lib0.Decoder { return r.d }
func (r *decoderV1) readClient() uint64  { return r.d.ReadVarUint() }
func (r *decoderV1) readLeftID() ID {
	client := r.d.ReadVarUint()
	return ID{Client: client, Clock: r.d.ReadVarUint()}
}
func (r *decoderV1) readRightID() ID      { return r.readLeftID() }
func (r *decoderV1) readInfo() byte       { return r.d.ReadUint8() }
func (r *decoderV1) readString() string   { return r.d.ReadVarString() }
func (r *decoderV1) readParentInfo() bool { return r.d.ReadVarUint() == 1 }
func (r *decoderV1) readTypeRef() uint64  { return r.d.ReadVarUint() }
func (r *decoderV1) readLen() uint64      { return r.d.ReadVarUint() }
func (r *decoderV1) readAny() any         { return r.d.ReadAny() }
func (r *decoderV1) readBuf() []byte      { return append([]byte{}, r.d.ReadVarBytes()...) }
func (r *decoderV1) readKey() string      { return r.d.ReadVarString() }
func (r *decoderV1) resetDsCurVal()       {}
func (r *decoderV1) readDsClock() uint64  { return r.d.ReadVarUint() }
func (r *decoderV1) readDsLen() uint64    { return r.d.ReadVarUint() }
func (r *decoderV1) err() error           { return r.d.Err() }
func (r *decoderV1) maxStructs() uint64   { return r.limit }
func (r *decoderV1) readJSON() any        { return parseJSONOrFail(r.d, r.d.ReadVarString()) }
func (r *decoderV1) readStringBytes() []byte {
	b := r.d.ReadVarBytes()
	if !utf8.Valid(b) {
		r.d.Fail(lib0.ErrInvalidUTF8)
		return nil
	}
	return append([]byte(nil), b...)
}

// parseJSONOrFail is JSON.parse; invalid JSON fails the decoder.
func parseJSONOrFail(d *lib0.Decoder, s string) any {
	if d.Err() != nil {
		return nil
	}
	v, err := lib0.ParseJSON(s)
	if err != nil {
		d.Fail(err)
	}
	return v
}
