package httpapi

import (
	"encoding/json"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// optional is a field of a partial update that tells "not sent" from
// "sent as null" (which clears the stored value). A wrong JSON type is an
// *json.UnmarshalTypeError, which the decoder names the field in.
type optional[T any] struct {
	set  bool
	null bool
	v    T
}

func (o *optional[T]) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" {
		o.null = true
		return nil
	}
	return json.Unmarshal(b, &o.v)
}

// JSONShape tells api.Decode the field's JSON is a T.
func (*optional[T]) JSONShape() any { var v T; return v }

// Wrapped gives api.Validate the value, so the field's rules (an array's
// maximum) apply to it.
func (o optional[T]) Wrapped() any { return o.v }

// patch turns o into the domain's Patch.
func (o optional[T]) patch() webhook.Patch[T] {
	if !o.set || o.null {
		return webhook.Patch[T]{Set: o.set}
	}
	v := o.v
	return webhook.Patch[T]{Set: true, Value: &v}
}

// value is o for a field that cannot be cleared: nil when not sent,
// INVALID_ARGUMENT naming field when sent as null.
func (o optional[T]) value(field string) (*T, error) {
	if o.null {
		return nil, api.Errorf(api.InvalidArgument, "field %s must not be null", field)
	}
	if !o.set {
		return nil, nil
	}
	v := o.v
	return &v, nil
}
