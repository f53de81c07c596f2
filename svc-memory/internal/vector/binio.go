package vector

import (
	"encoding/binary"
	"io"
	"unsafe"
)

// littleEndian: bulk arrays are copied as raw memory when the machine's
// byte order is the file's, and converted element by element otherwise.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// binWriter writes little-endian values and remembers the first error.
type binWriter struct {
	w   io.Writer
	err error
	buf [8]byte
}

func (w *binWriter) bytes(p []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(p)
	}
}

func (w *binWriter) u8(v uint8) { w.bytes([]byte{v}) }

func (w *binWriter) u32(v uint32) {
	binary.LittleEndian.PutUint32(w.buf[:4], v)
	w.bytes(w.buf[:4])
}

func (w *binWriter) u64(v uint64) {
	binary.LittleEndian.PutUint64(w.buf[:], v)
	w.bytes(w.buf[:])
}

func (w *binWriter) i64(v int64) { w.u64(uint64(v)) }

func (w *binWriter) str(s string) {
	w.u32(uint32(len(s)))
	w.bytes([]byte(s))
}

func (w *binWriter) u32s(v []uint32) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		w.bytes(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4))
		return
	}
	for _, x := range v {
		w.u32(x)
	}
}

func (w *binWriter) u64s(v []uint64) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		w.bytes(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8))
		return
	}
	for _, x := range v {
		w.u64(x)
	}
}

func (w *binWriter) u16s(v []uint16) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		w.bytes(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*2))
		return
	}
	for _, x := range v {
		w.bytes(binary.LittleEndian.AppendUint16(nil, x))
	}
}

// binReader is binWriter's mirror; after an error every read returns zero
// values and err keeps the first error.
type binReader struct {
	r   io.Reader
	err error
	buf [8]byte
}

func (r *binReader) fill(p []byte) {
	if r.err == nil {
		_, r.err = io.ReadFull(r.r, p)
	}
	if r.err != nil {
		clear(p)
	}
}

func (r *binReader) bytes(n int) []byte {
	p := make([]byte, n)
	r.fill(p)
	return p
}

func (r *binReader) u8() uint8 {
	r.fill(r.buf[:1])
	return r.buf[0]
}

func (r *binReader) u32() uint32 {
	r.fill(r.buf[:4])
	return binary.LittleEndian.Uint32(r.buf[:4])
}

func (r *binReader) u64() uint64 {
	r.fill(r.buf[:])
	return binary.LittleEndian.Uint64(r.buf[:])
}

func (r *binReader) i64() int64 { return int64(r.u64()) }

func (r *binReader) str() string {
	n := r.u32()
	if n > maxStringLen {
		if r.err == nil {
			r.err = io.ErrUnexpectedEOF
		}
		return ""
	}
	return string(r.bytes(int(n)))
}

func (r *binReader) u32s(v []uint32) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		r.fill(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4))
		return
	}
	for i := range v {
		v[i] = r.u32()
	}
}

func (r *binReader) u64s(v []uint64) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		r.fill(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8))
		return
	}
	for i := range v {
		v[i] = r.u64()
	}
}

func (r *binReader) u16s(v []uint16) {
	if len(v) == 0 {
		return
	}
	if littleEndian {
		r.fill(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*2))
		return
	}
	var b [2]byte
	for i := range v {
		r.fill(b[:])
		v[i] = binary.LittleEndian.Uint16(b[:])
	}
}
