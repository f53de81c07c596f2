package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
)

// MaxBodyBytes is the default request body limit (the gateway's as well).
const MaxBodyBytes = 5 << 20

// DecodeOptions tunes Decode for one operation.
type DecodeOptions struct {
	// AllowEmpty accepts an empty body or a body without data ("no body
	// needed" operations); dst is then left as is.
	AllowEmpty bool
	// FreeKeys lists data paths (e.g. "triggers") whose object keys are free
	// text that is never stored as a field name, so dots are allowed there.
	FreeKeys []string
	// MaxBytes overrides MaxBodyBytes.
	MaxBytes int64
}

// Decode reads a `{"data": {...}}` body into dst and validates it (see
// Validate). Every failure is an INVALID_ARGUMENT *Error naming the field.
func Decode(r *http.Request, dst any, opts ...DecodeOptions) error {
	var o DecodeOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	body, err := readBody(r, o.MaxBytes)
	if err != nil {
		return err
	}
	return DecodeBytes(body, dst, o)
}

// DecodeBytes is Decode on a body already read.
func DecodeBytes(body []byte, dst any, o DecodeOptions) error {
	recordRequestType(reflect.TypeOf(dst))
	if len(bytes.TrimSpace(body)) == 0 {
		if o.AllowEmpty {
			return Validate(dst)
		}
		return Errorf(InvalidArgument, "request body must be a JSON object with a \"data\" object")
	}
	if err := strictCheck(body, reflect.TypeOf(dst), o.FreeKeys); err != nil {
		return err
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return Errorf(InvalidArgument, "request body must be a JSON object with a \"data\" object")
	}
	data := bytes.TrimSpace(env.Data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		if o.AllowEmpty {
			return Validate(dst)
		}
		return Errorf(InvalidArgument, "field data is required and must be an object")
	}
	if data[0] != '{' {
		return Errorf(InvalidArgument, "field data must be an object")
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return typeError(err)
	}
	return Validate(dst)
}

func readBody(r *http.Request, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxBodyBytes
	}
	if r.ContentLength > limit {
		return nil, Errorf(InvalidArgument, "request body exceeds the limit of %d bytes", limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, Errorf(InvalidArgument, "request body exceeds the limit of %d bytes", limit)
		}
		return nil, Errorf(InvalidArgument, "could not read request body: %v", err)
	}
	return body, nil
}

func typeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := strings.TrimPrefix(te.Field, "data.")
		if field == "" {
			field = "data"
		}
		return Errorf(InvalidArgument, "field %s has the wrong type: got %s, want %s", field, te.Value, jsonTypeName(te.Type.Kind().String()))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Errorf(InvalidArgument, "malformed JSON at offset %d", se.Offset)
	}
	var ve *ValueError
	if errors.As(err, &ve) {
		return Errorf(InvalidArgument, "%s", ve.Error())
	}
	return Errorf(InvalidArgument, "invalid request body: %v", err)
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	case "map", "struct":
		return "object"
	case "int", "int64", "int32", "uint", "uint64", "float64", "float32":
		return "number"
	}
	return kind
}

// ValueError is returned by custom UnmarshalJSON methods (enums) so the
// message reaches the client unchanged.
type ValueError struct{ Msg string }

func (e *ValueError) Error() string { return e.Msg }

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// displayPath drops the envelope's "data." so messages name the field as
// the spec does.
func displayPath(path string) string {
	if p := strings.TrimPrefix(path, "data."); p != "" && p != "data" {
		return p
	}
	return "data"
}

func isFree(path string, freeKeys []string) bool {
	p := strings.TrimPrefix(path, "data.")
	for _, fk := range freeKeys {
		if p == fk || strings.HasPrefix(p, fk+".") {
			return true
		}
	}
	return false
}
