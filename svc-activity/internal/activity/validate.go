package activity

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// jsonKind is what a free-form field must hold.
type jsonKind int

const (
	kindAny jsonKind = iota
	kindObject
)

// freeJSON returns raw compacted (whitespace removed, nothing else
// changed), nil when absent or null; field names it in messages. The JSON
// is already valid: the request decoder parsed it.
func freeJSON(field string, raw json.RawMessage, kind jsonKind) (json.RawMessage, error) {
	if isAbsent(raw) {
		return nil, nil
	}
	if kind == kindObject && !isObject(raw) {
		return nil, api.Errorf(api.InvalidArgument, "field %s must be an object", field)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, api.Errorf(api.InvalidArgument, "field %s is not valid JSON", field)
	}
	return buf.Bytes(), nil
}

// changesJSON checks changes is an object of field name → {from, to}
// object, and compacts it.
func changesJSON(field string, raw json.RawMessage) (json.RawMessage, error) {
	if isAbsent(raw) {
		return nil, nil
	}
	var byField map[string]json.RawMessage
	if !isObject(raw) || json.Unmarshal(raw, &byField) != nil {
		return nil, api.Errorf(api.InvalidArgument, "field %s must be an object of field name to {from, to}", field)
	}
	for name, change := range byField {
		if !isObject(change) {
			return nil, api.Errorf(api.InvalidArgument, "field %s.%s must be an object {from, to}", field, name)
		}
	}
	return freeJSON(field, raw, kindObject)
}

// actionUserID returns the userId of a User object.
func actionUserID(field string, raw json.RawMessage) (string, error) {
	if isAbsent(raw) {
		return "", api.Errorf(api.InvalidArgument, "field %s is required", field)
	}
	if !isObject(raw) {
		return "", api.Errorf(api.InvalidArgument, "field %s must be an object", field)
	}
	var u struct {
		UserID json.RawMessage `json:"userId"`
	}
	if err := json.Unmarshal(raw, &u); err != nil {
		return "", api.Errorf(api.InvalidArgument, "field %s must be a User object", field)
	}
	var id string
	if isAbsent(u.UserID) {
		return "", api.Errorf(api.InvalidArgument, "field %s.userId is required", field)
	}
	if err := json.Unmarshal(u.UserID, &id); err != nil {
		return "", api.Errorf(api.InvalidArgument, "field %s.userId has the wrong type: want string", field)
	}
	if strings.TrimSpace(id) == "" {
		return "", api.Errorf(api.InvalidArgument, "field %s.userId is required", field)
	}
	return id, nil
}

func isAbsent(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}
