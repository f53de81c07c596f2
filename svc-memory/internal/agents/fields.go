package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// object is a JSON object with its values undecoded.
type object map[string]json.RawMessage

func invalid(format string, args ...any) error {
	return api.Errorf(api.InvalidArgument, format, args...)
}

// present reports whether key is set to something other than null.
func (o object) present(key string) bool {
	v, ok := o[key]
	return ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// object returns the object at key (nil when absent), failing when it is
// something else. path names the key in messages.
func (o object) object(key, path string) (object, error) {
	if !o.present(key) {
		return nil, nil
	}
	var m object
	if err := json.Unmarshal(o[key], &m); err != nil || m == nil {
		return nil, invalid("field %s must be an object", path)
	}
	return m, nil
}

func (o object) requiredObject(key, path string) (object, error) {
	if !o.present(key) {
		return nil, invalid("field %s is required", path)
	}
	return o.object(key, path)
}

// string returns the string at key ("" when absent).
func (o object) string(key, path string) (string, error) {
	if !o.present(key) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(o[key], &s); err != nil {
		return "", invalid("field %s must be a string", path)
	}
	return s, nil
}

// requiredString fails when the string is absent or blank.
func (o object) requiredString(key, path string) (string, error) {
	s, err := o.string(key, path)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", invalid("field %s is required and must not be empty", path)
	}
	return s, nil
}

// enum returns the string at key, failing unless it is one of allowed.
func (o object) enum(key, path string, allowed ...string) (string, error) {
	s, err := o.string(key, path)
	if err != nil || s == "" || slices.Contains(allowed, s) {
		return s, err
	}
	return "", invalid("field %s has unknown value %q; allowed: %s", path, s, strings.Join(allowed, ", "))
}

func (o object) bool(key, path string) (*bool, error) {
	if !o.present(key) {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(o[key], &b); err != nil {
		return nil, invalid("field %s must be a boolean", path)
	}
	return &b, nil
}

// integer returns the whole number at key, failing outside [lo, hi] (hi 0:
// no upper bound).
func (o object) integer(key, path string, lo, hi int64) (*int64, error) {
	if !o.present(key) {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(o[key], &f); err != nil || f != float64(int64(f)) {
		return nil, invalid("field %s must be an integer", path)
	}
	n := int64(f)
	if n < lo || (hi > 0 && n > hi) {
		if hi > 0 {
			return nil, invalid("field %s must be between %d and %d", path, lo, hi)
		}
		return nil, invalid("field %s must be at least %d", path, lo)
	}
	return &n, nil
}

// MaxListItems bounds every array of an agent's configuration: a
// configuration is validated item by item and stored whole, so its arrays
// must not grow without end (limit memory.agentLists).
const MaxListItems = 100

// array returns the items at key (nil when absent), failing when it is not
// an array or holds more than MaxListItems.
func (o object) array(key, path string) ([]json.RawMessage, error) {
	if !o.present(key) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(o[key], &items); err != nil {
		return nil, invalid("field %s must be an array", path)
	}
	if len(items) > MaxListItems {
		return nil, invalid("field %s accepts at most %d items", path, MaxListItems)
	}
	return items, nil
}

// stringsIn returns the strings at key, each one of allowed (none: any).
func (o object) stringsIn(key, path string, allowed ...string) ([]string, error) {
	if !o.present(key) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(o[key], &list); err != nil {
		return nil, invalid("field %s must be an array of strings", path)
	}
	if len(list) > MaxListItems {
		return nil, invalid("field %s accepts at most %d items", path, MaxListItems)
	}
	for i, s := range list {
		if len(allowed) > 0 && !slices.Contains(allowed, s) {
			return nil, invalid("field %s[%d] has unknown value %q; allowed: %s", path, i, s, strings.Join(allowed, ", "))
		}
	}
	return list, nil
}

// onlyKeys fails on a key outside allowed (strict objects).
func (o object) onlyKeys(path string, allowed ...string) error {
	for k := range o {
		if !slices.Contains(allowed, k) {
			return invalid("field %s.%s is not supported; allowed: %s", path, k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// items decodes each array item as an object.
func items(list []json.RawMessage, path string) ([]object, error) {
	out := make([]object, len(list))
	for i, raw := range list {
		var m object
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			return nil, invalid("field %s[%d] must be an object", path, i)
		}
		out[i] = m
	}
	return out, nil
}

func itemPath(path string, i int, key string) string { return fmt.Sprintf("%s[%d].%s", path, i, key) }
