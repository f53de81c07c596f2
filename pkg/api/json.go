package api

import (
	"bytes"
	"encoding/json"
)

// jsonMarshal encodes without escaping <, > and & so HTML in comments and
// templates reads back byte for byte.
func jsonMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
