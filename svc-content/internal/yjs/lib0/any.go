package lib0

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Tags of writeAny: each value starts with one of them.
const (
	tagUndefined  = 127
	tagNull       = 126
	tagInteger    = 125
	tagFloat32    = 124
	tagFloat64    = 123
	tagBigInt     = 122
	tagFalse      = 121
	tagTrue       = 120
	tagString     = 119
	tagObject     = 118
	tagArray      = 117
	tagUint8Array = 116
)

// maxAnyDepth bounds the nesting of decoded values.
const maxAnyDepth = 1000

// UndefinedValue is the type of Undefined.
type UndefinedValue struct{}

// Undefined is JavaScript's undefined.
var Undefined = UndefinedValue{}

// BigInt is a JavaScript BigInt (as lib0 encodes it: 64 bits).
type BigInt int64

// Field is one property of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JavaScript object: its properties in JavaScript's order.
type Object []Field

// Get returns the value of key and whether the object has it.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// WriteAny is writeAny for v (see the package comment for the value model).
func (e *Encoder) WriteAny(v any) error {
	switch t := v.(type) {
	case nil:
		e.WriteUint8(tagNull)
	case UndefinedValue:
		e.WriteUint8(tagUndefined)
	case bool:
		if t {
			e.WriteUint8(tagTrue)
		} else {
			e.WriteUint8(tagFalse)
		}
	case string:
		e.WriteUint8(tagString)
		e.WriteVarString(t)
	case float64:
		e.writeNumber(t)
	case BigInt:
		e.WriteUint8(tagBigInt)
		e.WriteBigInt64(int64(t))
	case []any:
		e.WriteUint8(tagArray)
		e.WriteVarUint(uint64(len(t)))
		for _, x := range t {
			if err := e.WriteAny(x); err != nil {
				return err
			}
		}
	case Object:
		return e.writeObject(JSOrder(t))
	case map[string]any:
		return e.writeObject(ObjectFromMap(t))
	case []byte:
		e.WriteUint8(tagUint8Array)
		e.WriteVarBytes(t)
	default:
		f, ok := Number(v)
		if !ok {
			return fmt.Errorf("lib0: cannot encode a value of type %T", v)
		}
		e.writeNumber(f)
	}
	return nil
}

func (e *Encoder) writeObject(o Object) error {
	e.WriteUint8(tagObject)
	e.WriteVarUint(uint64(len(o)))
	for _, f := range o {
		e.WriteVarString(f.Key)
		if err := e.WriteAny(f.Value); err != nil {
			return err
		}
	}
	return nil
}

// writeNumber is writeAny's number branch: an integer within ±(2^31-1) as a
// varInt (keeping -0), else a float32 when that is exact, else a float64.
func (e *Encoder) writeNumber(f float64) {
	switch {
	case f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32:
		e.WriteUint8(tagInteger)
		e.WriteVarIntSign(uint64(math.Abs(f)), math.Signbit(f))
	case float64(float32(f)) == f:
		e.WriteUint8(tagFloat32)
		e.WriteFloat32(float32(f))
	default:
		e.WriteUint8(tagFloat64)
		e.WriteFloat64(f)
	}
}

// Number converts the Go numeric types (and json.Number) to a JavaScript
// number.
func Number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int8:
		return float64(t), true
	case int16:
		return float64(t), true
	case int32:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint:
		return float64(t), true
	case uint8:
		return float64(t), true
	case uint16:
		return float64(t), true
	case uint32:
		return float64(t), true
	case uint64:
		return float64(t), true
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return f, err == nil || math.IsInf(f, 0)
	}
	return 0, false
}

// ReadAny is readAny. Objects come back as Object in JavaScript's key
// order; a "__proto__" key is dropped as assigning it in JavaScript does
// not create a property.
func (d *Decoder) ReadAny() any { return d.readAny(0) }

func (d *Decoder) readAny(depth int) any {
	if depth > maxAnyDepth {
		d.Fail(ErrTooDeep)
		return nil
	}
	tag := d.ReadUint8()
	if d.err != nil {
		return nil
	}
	switch tag {
	case tagUndefined:
		return Undefined
	case tagNull:
		return nil
	case tagInteger:
		m, neg := d.ReadVarIntSign()
		f := float64(m)
		if neg {
			f = -f
		}
		return f
	case tagFloat32:
		return float64(d.ReadFloat32())
	case tagFloat64:
		return d.ReadFloat64()
	case tagBigInt:
		return BigInt(d.ReadBigInt64())
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return d.ReadVarString()
	case tagObject:
		return d.readObject(depth)
	case tagArray:
		n := d.readCount()
		arr := make([]any, 0, n)
		for i := uint64(0); i < n && d.err == nil; i++ {
			arr = append(arr, d.readAny(depth+1))
		}
		return arr
	case tagUint8Array:
		return append([]byte{}, d.ReadVarBytes()...)
	}
	d.Fail(ErrUnknownAny)
	return nil
}

func (d *Decoder) readObject(depth int) Object {
	n := d.readCount()
	var b ObjectBuilder
	for i := uint64(0); i < n && d.err == nil; i++ {
		key := d.ReadVarString()
		v := d.readAny(depth + 1)
		if key != "__proto__" {
			b.Set(key, v)
		}
	}
	return b.Object()
}

// readCount reads the element count of an array or object; every element
// takes at least one byte, so a count above the remaining input is an error.
func (d *Decoder) readCount() uint64 {
	n := d.ReadVarUint()
	if n > uint64(d.Remaining()) {
		d.Fail(ErrUnexpectedEnd)
		return 0
	}
	return n
}
