package lib0

import (
	"strconv"
	"strings"
)

// Stringer lets values from outside this package (Yjs shared types) say how
// JavaScript's String() renders them.
type Stringer interface{ JSString() string }

// ToString is JavaScript's String(v) for the value model: arrays join their
// elements with "," (null and undefined as ""), objects are
// "[object Object]", a Uint8Array joins its bytes.
func ToString(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case UndefinedValue:
		return "undefined"
	case bool:
		return strconv.FormatBool(t)
	case string:
		return t
	case BigInt:
		return strconv.FormatInt(int64(t), 10)
	case Stringer:
		return t.JSString()
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			switch x.(type) {
			case nil, UndefinedValue:
			default:
				parts[i] = ToString(x)
			}
		}
		return strings.Join(parts, ",")
	case []byte:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = strconv.Itoa(int(x))
		}
		return strings.Join(parts, ",")
	case Object, map[string]any:
		return "[object Object]"
	}
	if f, ok := Number(v); ok {
		return FormatNumber(f)
	}
	return "[object Object]"
}
