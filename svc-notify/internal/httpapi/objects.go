package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// Client objects are kept as sent (raw JSON) and only the fields the
// service reads are decoded. Each type refuses a JSON value of the wrong
// kind with a type error, which api.Decode turns into INVALID_ARGUMENT
// naming the field.

var objectType = reflect.TypeFor[map[string]any]()

// requireObject refuses anything but a JSON object.
func requireObject(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: objectType}
}

func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// object is a client object stored as sent (notificationSourceData,
// context). JSON null is the same as absent.
type object json.RawMessage

func (o *object) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*o = nil
		return nil
	}
	if err := requireObject(b); err != nil {
		return err
	}
	*o = slices.Clone(b)
	return nil
}

// userDTO is a User: only userId is read, the object is kept as sent.
type userDTO struct {
	UserID string `json:"userId" validate:"required"`
	raw    json.RawMessage
}

func (u *userDTO) UnmarshalJSON(b []byte) error {
	if err := requireObject(b); err != nil {
		return err
	}
	var f struct {
		UserID string `json:"userId"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	u.UserID, u.raw = f.UserID, slices.Clone(b)
	return nil
}

// OpenJSON: a User is kept as sent; only userId is read.
func (*userDTO) OpenJSON() {}

func (u userDTO) user() notify.User { return notify.User{ID: u.UserID, Raw: u.raw} }

func users(dtos []userDTO) []notify.User {
	out := make([]notify.User, 0, len(dtos))
	for _, u := range dtos {
		out = append(out, u.user())
	}
	return out
}

// headlineDataDTO is displayHeadlineMessageTemplateData: an object whose
// recipientUser is a user id or a User object (both are accepted and
// stored as given).
type headlineDataDTO struct {
	RecipientUser *recipientDTO `json:"recipientUser"`
	raw           json.RawMessage
}

func (h *headlineDataDTO) UnmarshalJSON(b []byte) error {
	if err := requireObject(b); err != nil {
		return err
	}
	type fields headlineDataDTO
	if err := json.Unmarshal(b, (*fields)(h)); err != nil {
		return err
	}
	h.raw = slices.Clone(b)
	return nil
}

// OpenJSON: the template data carries any custom keys.
func (*headlineDataDTO) OpenJSON() {}

// rawOf is h's JSON, nil when absent.
func (h *headlineDataDTO) rawOf() json.RawMessage {
	if h == nil {
		return nil
	}
	return h.raw
}

// recipientDTO is a recipientUser: a user id or a User object.
type recipientDTO struct {
	UserID string `json:"userId" validate:"required"`
}

func (r *recipientDTO) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.UserID); err == nil {
		return nil
	}
	if err := requireObject(b); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(bytes.TrimSpace(b)), Type: reflect.TypeFor[string]()}
	}
	var u userDTO
	if err := u.UnmarshalJSON(b); err != nil {
		return err
	}
	r.UserID = u.UserID
	return nil
}

// locationDTO is a Location: an object identified by id, kept as sent.
type locationDTO struct {
	ID  string `json:"id" validate:"required"`
	raw json.RawMessage
}

func (l *locationDTO) UnmarshalJSON(b []byte) error {
	if err := requireObject(b); err != nil {
		return err
	}
	var f struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	l.ID, l.raw = f.ID, slices.Clone(b)
	return nil
}

// OpenJSON: location fields beyond id are the client's.
func (*locationDTO) OpenJSON() {}
