package yjs

import "github.com/opencollab/backend/svc-content/internal/yjs/lib0"

// decoderV2 is UpdateDecoderV2: a feature flag, nine run-length encoded
// columns, then the rest (values, delete set) as in v1.
type decoderV2 struct {
	restDec     *lib0.Decoder
	dsCurrVal   uint64
	keys        []string
	keyClock    *lib0.IntDiffOptRleDecoder
	client      *lib0.UintOptRleDecoder
	leftClock   *lib0.IntDiffOptRleDecoder
	rightClock  *lib0.IntDiffOptRleDecoder
	info        *lib0.RleByteDecoder
	str         *lib0.StringDecoder
	parentInfo  *lib0.RleByteDecoder
	typeRef     *lib0.UintOptRleDecoder
	length      *lib0.UintOptRleDecoder
	limit       uint64
	columnError error
}

// maxStructsPerByte bounds the structs of a v2 update: its columns repeat
// values, so a struct may take less than a byte, but not this much less.
const maxStructsPerByte = 64

func newDecoderV2(update []byte) *decoderV2 {
	d := lib0.NewDecoder(update)
	d.ReadVarUint() // feature flag, unused
	r := &decoderV2{restDec: d, limit: uint64(len(update))*maxStructsPerByte + 1024}
	r.keyClock = lib0.NewIntDiffOptRleDecoder(d.ReadVarBytes())
	r.client = lib0.NewUintOptRleDecoder(d.ReadVarBytes())
	r.leftClock = lib0.NewIntDiffOptRleDecoder(d.ReadVarBytes())
	r.rightClock = lib0.NewIntDiffOptRleDecoder(d.ReadVarBytes())
	r.info = lib0.NewRleByteDecoder(d.ReadVarBytes())
	r.str = lib0.NewStringDecoder(d.ReadVarBytes())
	r.parentInfo = lib0.NewRleByteDecoder(d.ReadVarBytes())
	r.typeRef = lib0.NewUintOptRleDecoder(d.ReadVarBytes())
	r.length = lib0.NewUintOptRleDecoder(d.ReadVarBytes())
	return r
}

func (r *decoderV2) rest() *lib0.Decoder { return r.restDec }

func (r *decoderV2) clock(v int64) uint64 {
	if v < 0 || v > maxClock {
		r.columnError = malformed("clock %d out of range", v)
		return 0
	}
	return uint64(v)
}

func (r *decoderV2) readClient() uint64 { return r.client.Read() }
func (r *decoderV2) readLeftID() ID {
	client := r.client.Read()
	return ID{Client: client, Clock: r.clock(r.leftClock.Read())}
}
func (r *decoderV2) readRightID() ID {
	client := r.client.Read()
	return ID{Client: client, Clock: r.clock(r.rightClock.Read())}
}
func (r *decoderV2) readInfo() byte          { return r.info.Read() }
func (r *decoderV2) readString() string      { return r.str.Read() }
func (r *decoderV2) readStringBytes() []byte { return []byte(r.str.Read()) }
func (r *decoderV2) readParentInfo() bool    { return r.parentInfo.Read() == 1 }
func (r *decoderV2) readTypeRef() uint64     { return r.typeRef.Read() }
func (r *decoderV2) readLen() uint64         { return r.length.Read() }
func (r *decoderV2) readAny() any            { return r.restDec.ReadAny() }
func (r *decoderV2) readBuf() []byte         { return r.restDec.ReadVarBytes() }
func (r *decoderV2) readJSON() any           { return r.restDec.ReadAny() }
func (r *decoderV2) maxStructs() uint64      { return r.limit }
func (r *decoderV2) resetDsCurVal()          { r.dsCurrVal = 0 }
func (r *decoderV2) readDsClock() uint64 {
	r.dsCurrVal += r.restDec.ReadVarUint()
	return r.dsCurrVal
}
func (r *decoderV2) readDsLen() uint64 {
	diff := r.restDec.ReadVarUint() + 1
	r.dsCurrVal += diff
	return diff
}

func (r *decoderV2) readKey() string {
	kc := r.keyClock.Read()
	if kc >= 0 && kc < int64(len(r.keys)) {
		return r.keys[kc]
	}
	key := r.str.Read()
	r.keys = append(r.keys, key)
	return key
}

func (r *decoderV2) err() error {
	switch {
	case r.restDec.Err() != nil:
		return r.restDec.Err()
	case r.columnError != nil:
		return r.columnError
	case r.keyClock.Err() != nil:
		return r.keyClock.Err()
	case r.client.Err() != nil:
		return r.client.Err()
	case r.leftClock.Err() != nil:
		return r.leftClock.Err()
	case r.rightClock.Err() != nil:
		return r.rightClock.Err()
	case r.info.Err() != nil:
		return r.info.Err()
	case r.str.Err() != nil:
		return r.str.Err()
	case r.parentInfo.Err() != nil:
		return r.parentInfo.Err()
	case r.typeRef.Err() != nil:
		return r.typeRef.Err()
	}
	return r.length.Err()
}
