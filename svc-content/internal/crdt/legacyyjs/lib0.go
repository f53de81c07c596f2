package legacyyjs

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Tags of lib0's writeAny: each value starts with one of them.
const (
	anyNull    = 126
	anyInt     = 125
	anyFloat32 = 124
	anyFloat64 = 123
	anyFalse   = 121
	anyTrue    = 120
	anyString  = 119
	anyObject  = 118
	anyArray   = 117
)

// maxVarIntAny is lib0's BITS31: writeAny writes an integer as a varInt only
// up to this magnitude and as a float beyond it.
const maxVarIntAny = 0x7FFFFFFF

// encoder is lib0's Encoder: a growing byte buffer with lib0's variable
// length encodings.
type encoder struct{ buf []byte }

func (e *encoder) byte(b byte) { e.buf = append(e.buf, b) }

func (e *encoder) bytes(b []byte) { e.buf = append(e.buf, b...) }

// varUint is lib0 writeVarUint: 7 bits per byte, low bits first, the high
// bit set on every byte but the last.
func (e *encoder) varUint(n uint64) {
	for n > 0x7F {
		e.byte(0x80 | byte(n&0x7F))
		n >>= 7
	}
	e.byte(byte(n))
}

// varInt is lib0 writeVarInt: the first byte holds a continuation bit, a
// sign bit and 6 bits of the magnitude; the following bytes 7 bits each.
// negative is separate from n so that -0 (a sign with magnitude 0) can be
// written as lib0 writes it.
func (e *encoder) varInt(magnitude uint64, negative bool) {
	first := byte(magnitude & 0x3F)
	if negative {
		first |= 0x40
	}
	if magnitude > 0x3F {
		first |= 0x80
	}
	e.byte(first)
	magnitude >>= 6
	for magnitude > 0 {
		b := byte(magnitude & 0x7F)
		if magnitude > 0x7F {
			b |= 0x80
		}
		e.byte(b)
		magnitude >>= 7
	}
}

// varString is lib0 writeVarString: the UTF-8 byte length, then the bytes.
func (e *encoder) varString(s string) {
	e.varUint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// number is writeAny's number branch: an integer within ±(2^31-1) as a
// varInt, else a float32 when that is exact, else a float64 (big-endian).
func (e *encoder) number(f float64) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("yjs: number %v cannot be stored", f)
	}
	switch {
	case f == math.Trunc(f) && math.Abs(f) <= maxVarIntAny:
		e.byte(anyInt)
		e.varInt(uint64(math.Abs(f)), math.Signbit(f))
	case float64(float32(f)) == f:
		e.byte(anyFloat32)
		e.buf = binary.BigEndian.AppendUint32(e.buf, math.Float32bits(float32(f)))
	default:
		e.byte(anyFloat64)
		e.buf = binary.BigEndian.AppendUint64(e.buf, math.Float64bits(f))
	}
	return nil
}

// any is lib0 writeAny for the JSON value model of this package: nil,
// bool, string, json.Number, float64, int, int64, []any, Object and
// map[string]any (keys sorted, as Go maps have no order).
func (e *encoder) any(v any) error {
	switch t := v.(type) {
	case nil:
		e.byte(anyNull)
	case bool:
		if t {
			e.byte(anyTrue)
		} else {
			e.byte(anyFalse)
		}
	case string:
		e.byte(anyString)
		e.varString(t)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return fmt.Errorf("yjs: number %s cannot be stored: %w", t, err)
		}
		return e.number(f)
	case float64:
		return e.number(t)
	case int:
		return e.number(float64(t))
	case int64:
		return e.number(float64(t))
	case []any:
		e.byte(anyArray)
		e.varUint(uint64(len(t)))
		for _, x := range t {
			if err := e.any(x); err != nil {
				return err
			}
		}
	case Object:
		e.byte(anyObject)
		e.varUint(uint64(len(t)))
		for _, f := range t {
			e.varString(f.Key)
			if err := e.any(f.Value); err != nil {
				return err
			}
		}
	case map[string]any:
		return e.any(objectFromMap(t))
	default:
		return fmt.Errorf("yjs: cannot encode a value of type %T", v)
	}
	return nil
}

// Field is one key of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its key order, so a Y.Map or an
// embedded object reads back with the keys in the order they were posted.
type Object []Field

func objectFromMap(m map[string]any) Object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	obj := make(Object, len(keys))
	for i, k := range keys {
		obj[i] = Field{Key: k, Value: m[k]}
	}
	return obj
}
