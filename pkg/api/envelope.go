package api

import "encoding/json"

// Result is what a handler returns on success. It is encoded as
// {"result": {"status": "success", "message": ..., "data": ..., <Extra>...}}.
type Result struct {
	Message string
	Data    any
	// NoData omits the data key (operations whose success has status and
	// message only).
	NoData bool
	// Extra adds keys next to data, e.g. nextPageToken.
	Extra map[string]any
	// Bare drops status and message: the memory operations return only
	// their own keys (Extra) inside result.
	Bare bool
}

// OK is the common success result.
func OK(message string, data any) *Result { return &Result{Message: message, Data: data} }

// Done is a success result without data.
func Done(message string) *Result { return &Result{Message: message, NoData: true} }

// With adds an extra key inside result and returns r.
func (r *Result) With(key string, value any) *Result {
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra[key] = value
	return r
}

// MarshalJSON renders the success envelope.
func (r *Result) MarshalJSON() ([]byte, error) {
	inner := make(map[string]any, len(r.Extra)+3)
	for k, v := range r.Extra {
		inner[k] = v
	}
	if !r.Bare {
		inner["status"] = "success"
		inner["message"] = r.Message
		if !r.NoData {
			inner["data"] = r.Data
		}
	}
	return jsonMarshal(map[string]any{"result": inner})
}

// errorBody is the failure envelope.
type errorBody struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Message string `json:"message"`
	Status  Status `json:"status"`
	Details any    `json:"details,omitempty"`
}

// ErrorEnvelope renders the failure envelope for e.
func ErrorEnvelope(e *Error) []byte {
	b, _ := jsonMarshal(errorBody{Error: errorFields{Message: e.Message, Status: e.Status, Details: e.Details}})
	return b
}

// ParseError reads a failure envelope, as returned by another service.
func ParseError(body []byte, httpCode int) *Error {
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil || eb.Error.Status == "" {
		return &Error{Status: StatusFromHTTP(httpCode), Message: "upstream error"}
	}
	return &Error{Status: eb.Error.Status, Message: eb.Error.Message, Details: eb.Error.Details}
}
